// A user's own data in the desktop app: malformed CSV and IDX files are reported with their
// name, at check time and again at run time, and leave the window usable; files dropped on
// the window become "Your file" and run; an IDX file finds its partner by the MNIST names,
// and a lone one is reported.
#include <fstream>

#include <QComboBox>
#include <QDropEvent>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "core/data/idx_reader.h"
#include "ui/charts/accuracy_chart.h"
#include "ui/panel/control_panel.h"
#include "ui/files/data_files.h"
#include "ui/panel/dataset_box.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "tests/support/npy_file.h"
#include "tests/support/small_runs.h"

namespace {

constexpr int kRunTimeoutMs = 120'000 * testruns::kWaitScale;

void writeText(const QString &path, const char *text)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

// Two separable classes of rows "label,x1,x2".
void writeGoodCsv(const QString &path)
{
    std::ofstream out(path.toStdString());
    out << "label,x1,x2\n";
    for (int k = 0; k < 300; ++k)
        out << (k % 2) << ',' << (k % 2 ? 1.0 : -1.0) + 0.01 * (k % 7) << ',' << 0.1 * (k % 5) << '\n';
}

// An IDX pair of `count` 4 × 4 images labelled 0, 1, 0, 1, …
void writeIdxPair(const QString &images, const QString &labels, int count)
{
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(count) * 16), classes(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) {
        classes[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k % 2);
        for (int p = 0; p < 16; ++p)
            pixels[static_cast<std::size_t>(k * 16 + p)] = static_cast<std::uint8_t>((k % 2) * 200 + p);
    }
    core::writeIdxImages(images.toStdString(), pixels, count, 4, 4, true);
    core::writeIdxLabels(labels.toStdString(), classes, true);
}

bool drop(ui::MainWindow &window, const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropped);
    return dropped.isAccepted();
}

} // namespace

class tst_DataFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }
    void malformedFilesAreReported_data();
    void malformedFilesAreReported();
    void droppedFilesBecomeYourFile();
    void companionFilesAreFoundByName();
    void arraysAndLibsvmFilesAreData();

private:
    QTemporaryDir m_cacheDir;
};

void tst_DataFiles::malformedFilesAreReported_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("csv with a word among the features") << QStringLiteral("csv");
    QTest::newRow("truncated idx images") << QStringLiteral("idx");
}

void tst_DataFiles::malformedFilesAreReported()
{
    QFETCH(QString, kind);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList files;
    if (kind == QLatin1String("csv")) {
        files = {dir.filePath(QStringLiteral("broken.csv"))};
        writeText(files[0], "label,x1,x2\n0,1.5,2\n1,abc,3\n");
    } else {
        files = {dir.filePath(QStringLiteral("broken-images-idx3-ubyte")), dir.filePath(QStringLiteral("broken-labels-idx1-ubyte"))};
        // The header promises 10 images of 4 × 4 bytes; only 20 bytes follow.
        std::ofstream(files[0].toStdString(), std::ios::binary)
            .write("\x00\x00\x08\x03\x00\x00\x00\x0a\x00\x00\x00\x04\x00\x00\x00\x04xxxxxxxxxxxxxxxxxxxx", 36);
        std::ofstream(files[1].toStdString(), std::ios::binary)
            .write("\x00\x00\x08\x01\x00\x00\x00\x0a\x00\x01\x00\x01\x00\x01\x00\x01\x00\x01", 18);
    }
    const QString name = QFileInfo(files[0]).fileName();

    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy checked(window.controls()->datasetBox(), &ui::DatasetBox::checked);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QVERIFY(window.selectDataFiles(files)); // the names are fine; the contents are checked next
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QVERIFY(!checked.at(0).at(0).toBool());
    QVERIFY2(window.lastError().contains(name), qPrintable(window.lastError()));
    QVERIFY(window.controls()->datasetBox()->statusText().contains(QStringLiteral("Cannot use")));

    // Run anyway: refused at once with the check's message (a run would fail on the same error
    // after clearing the results on screen), and the window stays usable.
    QVERIFY(!window.startRunFromControls());
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(name), qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(!window.isRunning());
    QVERIFY(window.controls()->runButtons()->button(ui::RunButtons::Run)->isEnabled());
    QCOMPARE(window.controls()->config().logreg.csv.empty(), kind != QLatin1String("csv")); // nothing lost
    core::RunConfig mixture;
    mixture.method = core::TestMethod::Barker;
    mixture.nData = 5000;
    mixture.temperature = 50.0;
    mixture.samples = 100;
    QVERIFY(window.startRun(mixture));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
}

void tst_DataFiles::droppedFilesBecomeYourFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("mine.csv"));
    writeGoodCsv(csv);
    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    writeText(text, "not data");

    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::ControlPanel *panel = window.controls();
    QSignalSpy checked(panel->datasetBox(), &ui::DatasetBox::checked);
    QVERIFY(!drop(window, {text})); // refused at the drag already
    QCOMPARE(panel->config().dataset, std::string("gmm"));

    QVERIFY(drop(window, {csv}));
    QCOMPARE(panel->config().dataset, std::string("logreg"));
    QCOMPARE(QString::fromStdString(panel->config().logreg.csv), csv);
    QCOMPARE(panel->datasetBox()->datasetCombo()->currentData().toString(), QStringLiteral("file"));
    QCOMPARE(panel->config().temperature, 100.0);
    QVERIFY(!panel->dataSizeBox()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QVERIFY2(checked.at(0).at(0).toBool(), qPrintable(checked.at(0).at(1).toString()));
    QVERIFY2(panel->datasetBox()->statusText().contains(QStringLiteral("300 rows")),
             qPrintable(panel->datasetBox()->statusText()));

    // The dropped file runs.
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    core::RunConfig config = panel->config();
    config.method = core::TestMethod::Barker;
    config.samples = 300;
    config.logreg.testSize = 100;
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, kRunTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(window.lastOutcome()->dataSize, qint64{200});
    QVERIFY(window.results()->accuracyChart()->pointCount(0) > 0);

    // A user's file is read again at the next run: edited in between, the run sees the edit.
    {
        std::ofstream more(csv.toStdString(), std::ios::app);
        for (int k = 0; k < 50; ++k)
            more << (k % 2) << ',' << (k % 2 ? 1.0 : -1.0) << ",0.2\n";
    }
    window.setAutoRun(false); // only the run started here
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), kRunTimeoutMs);
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 1, kRunTimeoutMs);
    QVERIFY(failed.isEmpty());
    QCOMPARE(window.lastOutcome()->dataSize, qint64{250});
}

void tst_DataFiles::companionFilesAreFoundByName()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString images = dir.filePath(QStringLiteral("train-images-idx3-ubyte.gz"));
    const QString labels = dir.filePath(QStringLiteral("train-labels-idx1-ubyte.gz"));
    writeIdxPair(images, labels, 60);
    QCOMPARE(ui::companionLabels(images), labels);
    QCOMPARE(ui::companionImages(labels), images);
    QString problem;
    const ui::DataFileChoice reversed = ui::sortDataFiles({labels, images}, &problem);
    QVERIFY(problem.isEmpty());
    QCOMPARE(reversed.images, images);
    QCOMPARE(reversed.labels, labels);

    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy checked(window.controls()->datasetBox(), &ui::DatasetBox::checked);
    QVERIFY(drop(window, {images})); // only the images: the labels are found next to them
    QCOMPARE(QString::fromStdString(window.controls()->config().logreg.labels), labels);
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QVERIFY2(checked.at(0).at(0).toBool(), qPrintable(checked.at(0).at(1).toString()));
    // The default classes 1 and 7 are not all in the file: its labels 0 and 1 are taken, and offered.
    QCOMPARE(window.controls()->config().logreg.classes, std::make_pair(0, 1));
    QCOMPARE(window.controls()->datasetBox()->firstClassCombo()->count(), 2);

    // A lone image file without a partner is reported, and the selection waits for its labels.
    QTemporaryDir lone;
    QVERIFY(lone.isValid());
    const QString orphan = lone.filePath(QStringLiteral("digits-images-idx3-ubyte.gz"));
    QVERIFY(QFile::copy(images, orphan));
    QVERIFY(drop(window, {orphan}));
    QVERIFY2(window.lastError().contains(QStringLiteral("No label file")), qPrintable(window.lastError()));
    QCOMPARE(QString::fromStdString(window.controls()->config().logreg.images), orphan);
    QVERIFY(window.controls()->config().logreg.labels.empty());
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    QVERIFY(!window.startRunFromControls());
    QCOMPARE(failed.count(), 1);
    QVERIFY2(window.lastError().contains(QStringLiteral("label file")), qPrintable(window.lastError()));
}

MHX_GUI_TEST_MAIN(tst_DataFiles)
#include "tst_data_files.moc"

// The tall-data formats dropped or chosen: a LIBSVM file alone, a .npy features array with its
// label array (told by name, else by size), and never mixed with other kinds of files.
void tst_DataFiles::arraysAndLibsvmFilesAreData()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::vector<float> features;
    std::vector<std::int64_t> labels;
    QString libsvm;
    for (int i = 0; i < 200; ++i) {
        const float a = static_cast<float>(i % 17) / 17.0f, b = static_cast<float>((i * 7) % 13);
        features.insert(features.end(), {a, b});
        labels.push_back(i % 2);
        libsvm += QStringLiteral("%1 1:%2 2:%3\n").arg(i % 2 ? "+1" : "-1").arg(a).arg(b);
    }
    const QString x = dir.filePath(QStringLiteral("features.npy")), y = dir.filePath(QStringLiteral("targets.npy"));
    std::ofstream(x.toStdString(), std::ios::binary) << testfiles::npyBytes("<f4", {200, 2}, testfiles::rawBytes<float>(features));
    std::ofstream(y.toStdString(), std::ios::binary) << testfiles::npyBytes("|u1", {200}, testfiles::rawBytes<std::uint8_t>(labels));
    const QString svm = dir.filePath(QStringLiteral("data.svm"));
    writeText(svm, libsvm.toUtf8().constData());

    QString problem;
    const ui::DataFileChoice pair = ui::sortDataFiles({y, x}, &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(pair.data, x); // no telling names: the smaller file holds the labels
    QCOMPARE(pair.labels, y);
    QCOMPARE(ui::sortDataFiles({svm}, &problem).data, svm);
    ui::sortDataFiles({svm, x}, &problem);
    QVERIFY2(problem.contains(QStringLiteral("LIBSVM file alone")), qPrintable(problem));

    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::ControlPanel *panel = window.controls();
    QSignalSpy checked(panel->datasetBox(), &ui::DatasetBox::checked);
    QVERIFY(drop(window, {x, y}));
    QCOMPARE(QString::fromStdString(panel->config().logreg.data), x);
    QCOMPARE(QString::fromStdString(panel->config().logreg.labels), y);
    QVERIFY(panel->config().logreg.standardize); // a table, not images
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QVERIFY2(checked.at(0).at(0).toBool(), qPrintable(checked.at(0).at(1).toString()));
    QVERIFY2(panel->datasetBox()->statusText().contains(QStringLiteral("200 rows, 2 features")),
             qPrintable(panel->datasetBox()->statusText()));
    QVERIFY(drop(window, {svm}));
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 10'000);
    QVERIFY2(checked.at(1).at(0).toBool(), qPrintable(checked.at(1).at(1).toString()));
    QCOMPARE(QString::fromStdString(panel->config().logreg.data), svm);
    QVERIFY(panel->config().logreg.labels.empty());
}
