// Exports, offscreen: every chart as PNG (loads, has the requested size, is not blank) and SVG
// (an XML document with an <svg> root), samples as CSV and the summary as JSON through the
// core writers; unwritable paths report why and leave no file; the scripted mode writes every
// chart and exits 0.
#include <stdexcept>

#include <QAbstractSeries>
#include <QChart>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/chart_style.h"
#include "ui/files/file_actions.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "ui/files/run_export.h"
#include "ui/run/scripted_run.h"
#include "tests/support/small_runs.h"

namespace {

constexpr int kRunTimeoutMs = 60'000 * testruns::kWaitScale;

ui::RunRequest smallRequest(std::int64_t samples)
{
    core::RunConfig config;
    config.nData = 20'000;
    config.temperature = 200.0;
    config.samples = samples;
    config.seed = 3;
    ui::RunRequest request = ui::RunRequest::single(config);
    request.methods = {core::TestMethod::Minibatch, core::TestMethod::Barker};
    return request;
}

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace

class tst_Export : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void noChartUsesOpenGl();
    void everyChartExportsPngAndSvg();
    void unwritablePathReportsErrorAndLeavesNoFile();
    void samplesCsvAndSummaryJson();
    void samplesExportRunsInTheBackground();
    void scriptedRunExportsEveryChart();

private:
    QTemporaryDir m_cacheDir;
    ui::MainWindow *m_window = nullptr;
    std::optional<ui::RunOutcome> m_outcome;
};

void tst_Export::initTestCase()
{
    QVERIFY(m_cacheDir.isValid());
    qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    // One finished compare run shared by the tests: two methods, so every chart has content.
    m_window = new ui::MainWindow;
    m_window->setShowErrorDialogs(false);
    m_window->show();
    QSignalSpy finished(m_window, &ui::MainWindow::runFinished);
    QVERIFY(m_window->startRequest(smallRequest(1500)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    m_outcome = m_window->lastOutcome();
    QVERIFY(m_outcome && m_outcome->chains.size() == 2);
}

void tst_Export::cleanupTestCase()
{
    delete m_window;
}

void tst_Export::noChartUsesOpenGl()
{
    // OpenGL series would be missing from the PNG and SVG renders.
    for (const ui::NamedChart &chart : m_window->results()->exportableCharts())
        for (QAbstractSeries *series : chart.view->chart()->series())
            QVERIFY2(!series->useOpenGL(), qPrintable(chart.stem));
}

void tst_Export::everyChartExportsPngAndSvg()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QSize size(900, 600);
    const QList<ui::NamedChart> charts = m_window->results()->exportableCharts();
    QCOMPARE(charts.size(), qsizetype{2 + 5}); // two posterior charts, histogram, two correction, two traces
    const QSize onScreen = charts.front().view->chart()->size().toSize();
    QString error;
    const QStringList written = ui::exportCharts(charts, dir.path(), size, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(written.size(), 2 * charts.size());
    for (const ui::NamedChart &chart : charts) {
        const QImage png(dir.filePath(chart.stem + QStringLiteral(".png")));
        QVERIFY2(!png.isNull(), qPrintable(chart.stem));
        QCOMPARE(png.size(), size);
        // Axes, text and data: far more than a blank background's few colours.
        QVERIFY2(distinctColours(png) > 20, qPrintable(chart.stem));

        QFile svg(dir.filePath(chart.stem + QStringLiteral(".svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY2(text.startsWith("<?xml"), qPrintable(chart.stem));
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("viewBox=\"0 0 900 600\""));
    }
    // The on-screen chart is laid out as before the export.
    QCOMPARE(charts.front().view->chart()->size().toSize(), onScreen);
}

void tst_Export::unwritablePathReportsErrorAndLeavesNoFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A regular file where a folder should be: no user, not even root, can write below it.
    const QString notADirectory = dir.filePath(QStringLiteral("plain-file"));
    {
        QFile file(notADirectory);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x");
    }
    const ui::NamedChart chart = m_window->results()->exportableCharts().front();
    for (const QString &path : {dir.filePath(QStringLiteral("missing/sub/chart.png")), notADirectory + "/chart.svg"}) {
        QString error;
        const auto format = ui::formatOfPath(path);
        QVERIFY(format);
        QVERIFY(!ui::exportChart(chart.view, path, *format, QSize(400, 300), chart.title, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }
    // Through the window's File actions: the failure reaches the status bar and lastError.
    const QString path = notADirectory + "/posterior.png";
    QVERIFY(!m_window->fileActions()->exportChart(chart, path, QSize(400, 300)));
    QVERIFY(m_window->lastError().contains(path));
    QVERIFY(m_window->statusText().contains(QStringLiteral("Export failed")));
    QVERIFY(!m_window->fileActions()->exportAllCharts(notADirectory + "/all", QSize(400, 300)));
    QVERIFY(!m_window->fileActions()->exportChart(chart, dir.filePath(QStringLiteral("chart.bmp")), QSize(400, 300)));
    QVERIFY(m_window->lastError().contains(QStringLiteral(".png or .svg")));
    // The CSV and JSON writers throw with the reason and leave nothing either.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, ui::writeRunSummary(*m_outcome, notADirectory + "/summary.json"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, ui::writeRunSamples(*m_outcome, notADirectory + "/samples.csv"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("plain-file")});
}

void tst_Export::samplesCsvAndSummaryJson()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList files = ui::writeRunSamples(*m_outcome, dir.filePath(QStringLiteral("run.csv")));
    QCOMPARE(files.size(), qsizetype{2}); // one per chain
    QVERIFY(files[0].endsWith(QStringLiteral("run-minibatch-chain1.csv")));
    QVERIFY(files[1].endsWith(QStringLiteral("run-barker-chain1.csv")));
    for (const QString &path : files) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QStringList comments, rows;
        for (const QString &line : lines)
            (line.startsWith(QLatin1Char('#')) ? comments : rows).append(line);
        QVERIFY(comments.contains(QStringLiteral("# n_data = 20000")));
        QVERIFY(comments.contains(QStringLiteral("# program = mh-explorer")));
        // CmdStan-like header: sampler columns ending in __, then the parameters.
        QVERIFY2(rows.front().startsWith(QStringLiteral("lp__,")), qPrintable(rows.front()));
        QVERIFY(rows.front().contains(QStringLiteral("batch_size__")));
        QVERIFY(rows.front().endsWith(QStringLiteral("theta.1,theta.2")));
        QCOMPARE(rows.size(), qsizetype{1 + 1500});
    }

    const QString summaryPath = dir.filePath(QStringLiteral("summary.json"));
    ui::writeRunSummary(*m_outcome, summaryPath);
    QFile summary(summaryPath);
    QVERIFY(summary.open(QIODevice::ReadOnly));
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(summary.readAll(), &parseError);
    QVERIFY2(json.isObject(), qPrintable(parseError.errorString()));
    QCOMPARE(json[QStringLiteral("methods")].toString(), QStringLiteral("minibatch,barker"));
    // The CLI's schema: a `chains` array in channel order.
    const QJsonArray chains = json[QStringLiteral("chains")].toArray();
    QCOMPARE(chains.size(), 2);
    const QJsonObject chain = chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("method")].toString(), QStringLiteral("minibatch"));
    QCOMPARE(chain[QStringLiteral("samples_completed")].toInt(), 1500);
    QVERIFY(chain[QStringLiteral("ess_bulk")].toArray().at(0).toDouble() > 0.0);
    QCOMPARE(chains.at(1).toObject()[QStringLiteral("method")].toString(), QStringLiteral("barker"));
}

void tst_Export::samplesExportRunsInTheBackground()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSignalSpy done(m_window->fileActions(), &ui::FileActions::exportFinished);
    QVERIFY(m_window->fileActions()->exportSamples(dir.filePath(QStringLiteral("bg.csv"))));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kRunTimeoutMs);
    QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("bg-minibatch-chain1.csv"))));
    QVERIFY(!m_window->fileActions()->isExporting());

    // A failure in the background is reported the same way, with no file left.
    const QString bad = dir.filePath(QStringLiteral("missing/bg.csv"));
    QVERIFY(m_window->fileActions()->exportSamples(bad));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kRunTimeoutMs);
    QVERIFY(!done.at(1).at(0).toBool());
    QVERIFY(!QDir(dir.filePath(QStringLiteral("missing"))).exists());
}

void tst_Export::scriptedRunExportsEveryChart()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    ui::ScriptOptions options;
    options.request = smallRequest(500);
    options.exportDirectory = dir.filePath(QStringLiteral("plots"));
    options.exportSize = QSize(640, 480);
    options.screenshotPath = dir.filePath(QStringLiteral("window.png"));
    options.samplesPath = dir.filePath(QStringLiteral("samples.csv"));
    ui::ScriptedRun script(&window, options);
    QSignalSpy done(&script, &ui::ScriptedRun::done);
    script.start();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kRunTimeoutMs);
    QCOMPARE(done.at(0).at(0).toInt(), 0);
    const QDir plots(options.exportDirectory);
    QCOMPARE(plots.entryList({QStringLiteral("*.png")}).size(), qsizetype{7});
    QCOMPARE(plots.entryList({QStringLiteral("*.svg")}).size(), qsizetype{7});
    QVERIFY(plots.exists(QStringLiteral("summary.json")));
    QCOMPARE(QImage(plots.filePath(QStringLiteral("minibatch-sizes.png"))).size(), options.exportSize);
    QVERIFY(!QImage(options.screenshotPath).isNull());
    // The samples: one file per chain of each method, CmdStan-like.
    const QStringList samples = QDir(dir.path()).entryList({QStringLiteral("samples-*-chain1.csv")});
    QCOMPARE(samples.size(), qsizetype(options.request.channelCount()));
    QFile first(dir.filePath(samples.front()));
    QVERIFY(first.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(first.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList rows = lines.filter(QRegularExpression(QStringLiteral("^[^#]")));
    QVERIFY(rows.front().startsWith(QStringLiteral("lp__,accept_stat__,batch_size__")));
    QCOMPARE(rows.size(), qsizetype{500 + 1});
}

MHX_GUI_TEST_MAIN(tst_Export)
#include "tst_export.moc"
