// The Trade-offs tab, driven offscreen: a small σ sweep fills its charts point by point with
// one line per method, the minibatch shrinks as σ grows, Stop ends a long sweep with the
// completed points kept, a clicked point loads its value into the form, the rows export, and a
// sweep with an invalid point is refused with the reason.
#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QtTest>

#include "core/experiment/reports/sweep_report.h"
#include "tests/support/gui_test_main.h"
#include "tests/support/quiet_window.h"
#include "tests/support/small_runs.h"
#include "ui/charts/chart_style.h"
#include "ui/panel/compare_box.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/dataset_box.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "ui/pages/tradeoffs_grid.h"
#include "ui/pages/tradeoffs_page.h"

namespace {

using testruns::kRunTimeoutMs;
using ui::TradeoffsGrid;

// The brief's small sweep: gmm, N = 20000, T = 200, 300 samples, a 1000-point correction grid,
// the corrected minibatch test against the uncorrected one (which has no correction error).
void setUpSmallSweep(ui::MainWindow &window, int count, qint64 samples)
{
    core::RunConfig config = testruns::smallConfig(core::TestMethod::Minibatch, samples);
    config.correction.grid = 1000;
    core::RunRequest request = core::RunRequest::single(config);
    request.methods = {core::TestMethod::Minibatch, core::TestMethod::NaiveBarker};
    window.controls()->setRequest(request);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    core::SweepAxis axis;
    axis.setting = "sigma";
    axis.from = 0.5;
    axis.to = 1.5;
    axis.count = count;
    page->setAxis(axis);
    page->setSamplesPerPoint(samples);
    page->setTrials(1);
}

} // namespace

class tst_Tradeoffs : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void tabIsLastAndListsTheDatasetsSettings();
    void smallSweepFillsProgressively();
    void severalTrialsPlotTheirPooledSpeed();
    void stopKeepsCompletedPoints();
    void clickedPointLoadsIntoTheForm();
    void invalidSweepIsRefusedWithTheReason();
    void sweepOfEarlierSettingsIsMarked();
    void scalingSweepDrawsALinePerEntry();
    void closingMidSweepJoins();
    void logisticSweepWithAFullDataMethodShowsTheMeanShift();
    void titlesAreNeverCutAt1280Pixels();
    void anNDataAxisOffersTheStepThatFollowsN();
    void speedOfAChainThatHasNotMixedIsRinged();

private:
    QTemporaryDir m_cacheDir;
};

void tst_Tradeoffs::initTestCase()
{
    // A private correction cache: the test neither depends on nor writes the user's.
    QVERIFY(m_cacheDir.isValid());
    qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
}

void tst_Tradeoffs::tabIsLastAndListsTheDatasetsSettings()
{
    ui::MainWindow window;
    ui::ResultsView *results = window.results();
    QCOMPARE(results->count(), ui::ResultsView::tabIndex(QStringLiteral("tradeoffs")) + 1);
    // The page scrolls on small screens like the chart pages.
    QVERIFY(results->widget(ui::ResultsView::tabIndex(QStringLiteral("tradeoffs")))->isAncestorOf(results->tradeoffsPage()));
    const core::SweepAxis axis = results->tradeoffsPage()->axis();
    QCOMPARE(axis.setting, std::string("sigma"));
    QCOMPARE(axis.count, 8);
    const core::SweepRequest request = results->tradeoffsPage()->sweepRequest();
    // The form's samples (a window built in code shows the paper's 3000), three trials a point.
    QCOMPARE(request.base.config.samples, window.controls()->config().samples);
    QCOMPARE(request.base.chains, 3);
    QVERIFY(request.base.methods == window.controls()->request().methods);
    // No rows yet: nothing of the tab to export.
    for (const ui::NamedChart &chart : results->exportableCharts())
        QVERIFY2(!chart.stem.startsWith(QStringLiteral("tradeoffs")), qPrintable(chart.stem));
}

void tst_Tradeoffs::smallSweepFillsProgressively()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    setUpSmallSweep(window, 3, 300);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    TradeoffsGrid *grid = page->grid();
    QList<int> plottedAtArrival;
    connect(page, &ui::TradeoffsPage::pointArrived, this,
            [&] { plottedAtArrival.append(grid->pointCount(TradeoffsGrid::MeanBatch, 0)); });
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QSignalSpy failed(page, &ui::TradeoffsPage::sweepFailed);
    QVERIFY(page->startSweep());
    QVERIFY(page->isRunning());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!page->isRunning());
    // Each point was plotted as it arrived, before the sweep ended.
    QCOMPARE(plottedAtArrival, (QList<int>{1, 2, 3}));
    const core::SweepOutcome &outcome = page->outcome();
    QCOMPARE(outcome.pointsCompleted, 3);
    QCOMPARE(outcome.rows.size(), std::size_t(3 * 2));
    QCOMPARE(page->progressText(), QStringLiteral("point 3 of 3"));
    for (int figure : {int(TradeoffsGrid::MeanBatch), int(TradeoffsGrid::Acceptance), int(TradeoffsGrid::Fidelity)})
        for (int method : {0, 1})
            QCOMPARE(grid->pointCount(figure, method), 3);
    // Only the corrected test draws from a correction table.
    QCOMPARE(grid->pointCount(TradeoffsGrid::CorrectionError, 0), 3);
    QCOMPARE(grid->pointCount(TradeoffsGrid::CorrectionError, 1), 0);
    // A larger σ allows a larger variance of Δ*, so the tests stop at smaller batches.
    const double b05 = grid->valueAt(TradeoffsGrid::MeanBatch, 0, 0.5);
    const double b10 = grid->valueAt(TradeoffsGrid::MeanBatch, 0, 1.0);
    const double b15 = grid->valueAt(TradeoffsGrid::MeanBatch, 0, 1.5);
    QVERIFY2(b05 > b10 && b10 > b15, qPrintable(QStringLiteral("%1 %2 %3").arg(b05).arg(b10).arg(b15)));

    // The charts export under the sweep's name, and the rows as the CLI's CSV.
    QStringList stems;
    for (const ui::NamedChart &chart : window.results()->exportableCharts())
        stems.append(chart.stem);
    QVERIFY2(stems.contains(QStringLiteral("tradeoffs-sigma-mean-batch")), qPrintable(stems.join(u' ')));
    QCOMPARE(stems.filter(QStringLiteral("tradeoffs-sigma")).size(), int(TradeoffsGrid::FigureCount));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rows.csv"));
    QString error;
    QVERIFY2(page->saveCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QCOMPARE(text, QString::fromStdString(core::sweepCsv(outcome)));
    QVERIFY(text.startsWith(QString::fromLatin1(core::kSweepCsvHeader)));
    QCOMPARE(text.count(QLatin1Char('\n')), 1 + 6);
}

// With trials > 1 a point's speed is that of its trials pooled (one multi-chain ESS over the
// wait for all of them), as the diagnostics table and the CLI's sweep JSON report it, and it is
// drawn as each point arrives; the other figures stay the trials' mean.
void tst_Tradeoffs::severalTrialsPlotTheirPooledSpeed()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    setUpSmallSweep(window, 2, 300);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    page->setTrials(2);
    TradeoffsGrid *grid = page->grid();
    QList<QString> titlesAtArrival;
    QList<int> pooledPointsAtArrival;
    connect(page, &ui::TradeoffsPage::pointArrived, grid, [&] {
        titlesAtArrival.append(grid->figureTitle(TradeoffsGrid::EssPerSecond));
        pooledPointsAtArrival.append(grid->pointCount(TradeoffsGrid::EssPerSecond, 0));
    });
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QVERIFY(page->startSweep());
    QVERIFY(finished.wait(kRunTimeoutMs));
    const core::SweepOutcome &outcome = page->outcome();
    QCOMPARE(outcome.rows.size(), std::size_t(2 * 2 * 2)); // points × methods × trials
    QCOMPARE(outcome.pooled.size(), std::size_t(2 * 2));   // points × methods
    QCOMPARE(pooledPointsAtArrival, (QList<int>{1, 2}));
    for (const QString &title : titlesAtArrival)
        QCOMPARE(title, QStringLiteral("ESS per second, trials pooled"));
    QCOMPARE(grid->chartTitle(TradeoffsGrid::DataPerEss), QStringLiteral("Data points per ESS, trials pooled"));
    for (const core::SweepPooled &point : outcome.pooled) {
        const int method = point.figures.method == core::TestMethod::Minibatch ? 0 : 1;
        QCOMPARE(point.figures.chains, 2);
        QVERIFY(point.figures.essPerSecond > 0.0);
        QCOMPARE(grid->valueAt(TradeoffsGrid::EssPerSecond, method, point.value), point.figures.essPerSecond);
        QCOMPARE(grid->valueAt(TradeoffsGrid::DataPerEss, method, point.value), point.figures.dataPointsPerEss);
    }
    // The acceptance rate is still the two trials' mean.
    double sum = 0.0;
    for (const core::SweepRow &row : outcome.rows)
        if (row.method == core::TestMethod::Minibatch && row.value == 0.5)
            sum += row.acceptanceRate;
    QVERIFY(std::abs(grid->valueAt(TradeoffsGrid::Acceptance, 0, 0.5) - sum / 2.0) < 1e-12);
    // Its error bar is one standard error of that mean: |a₁ − a₂| / 2 for two trials.
    std::vector<double> accepted;
    for (const core::SweepRow &row : outcome.rows)
        if (row.method == core::TestMethod::Minibatch && row.value == 0.5)
            accepted.push_back(row.acceptanceRate);
    QCOMPARE(accepted.size(), std::size_t(2));
    QVERIFY(std::abs(grid->barAt(TradeoffsGrid::Acceptance, 0, 0.5) - std::abs(accepted[0] - accepted[1]) / 2.0)
            < 1e-12);

    // One trial per point again: per-chain figures, and the plain title.
    grid->showRows(outcome.rows, {});
    QCOMPARE(grid->figureTitle(TradeoffsGrid::EssPerSecond), QStringLiteral("ESS per second"));
}

void tst_Tradeoffs::stopKeepsCompletedPoints()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    setUpSmallSweep(window, 200, 3000);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    QSignalSpy arrived(page, &ui::TradeoffsPage::pointArrived);
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QVERIFY(page->startSweep());
    QVERIFY(arrived.wait(kRunTimeoutMs));
    page->stopSweep();
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QVERIFY(!page->isRunning());
    const core::SweepOutcome &outcome = page->outcome();
    QVERIFY(outcome.stopped);
    QVERIFY2(outcome.pointsCompleted >= 1 && outcome.pointsCompleted < 200, qPrintable(QString::number(outcome.pointsCompleted)));
    QCOMPARE(outcome.rows.size(), std::size_t(outcome.pointsCompleted) * 2);
    QCOMPARE(page->grid()->pointCount(TradeoffsGrid::MeanBatch, 0), outcome.pointsCompleted);
    QVERIFY(page->progressText().endsWith(QStringLiteral("(stopped)")));
}

void tst_Tradeoffs::clickedPointLoadsIntoTheForm()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    setUpSmallSweep(window, 3, 300);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QVERIFY(page->startSweep());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(window.controls()->config().correction.sigma, 1.0);

    // A click near the point at σ = 1.5 on a line of the first chart, as Qt Charts reports it.
    QLineSeries *line = nullptr; // the first method's line
    for (QAbstractSeries *series : page->grid()->view(TradeoffsGrid::MeanBatch)->chart()->series())
        if ((line = qobject_cast<QLineSeries *>(series)))
            break;
    QVERIFY(line);
    emit line->clicked(QPointF(1.47, 10.0));
    QCOMPARE(window.controls()->config().correction.sigma, 1.5);
    QVERIFY2(window.statusText().contains(QStringLiteral("sigma = 1.5")), qPrintable(window.statusText()));
    // The dashed marker (the chart's last series) follows the form.
    auto *marker = qobject_cast<QLineSeries *>(page->grid()->view(TradeoffsGrid::Fidelity)->chart()->series().last());
    QVERIFY(marker && marker->count() == 2);
    QCOMPARE(marker->at(0).x(), 1.5);

    page->loadValue(0.52);
    QCOMPARE(window.controls()->config().correction.sigma, 0.5);
    // Other settings of the form stay as they were.
    QCOMPARE(window.controls()->config().nData, qint64(20'000));
    QVERIFY(window.controls()->request().methods.size() == 2);
}

void tst_Tradeoffs::invalidSweepIsRefusedWithTheReason()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    setUpSmallSweep(window, 3, 300);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    core::SweepAxis axis = page->axis();
    axis.to = 2.5; // beyond the correction's σ < 1.8138
    page->setAxis(axis);
    QSignalSpy failed(page, &ui::TradeoffsPage::sweepFailed);
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QVERIFY(!page->startSweep());
    QVERIFY(!page->isRunning());
    QCOMPARE(failed.count(), 1);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("sigma")) && message.contains(QStringLiteral("2.5")), qPrintable(message));
    QVERIFY2(window.statusText().contains(message), qPrintable(window.statusText()));
    QVERIFY(!page->hasRows());

    // Unreadable bounds too.
    axis.to = 1.5;
    page->setAxis(axis);
    page->findChild<QLineEdit *>(QStringLiteral("sweepFrom"))->setText(QStringLiteral("abc"));
    QVERIFY(!page->startSweep());
    QCOMPARE(failed.count(), 2);
    QCOMPARE(finished.count(), 0);

    // A trial count typed out of range is kept as typed and refused by name, not turned into
    // another count (Qt's own box would drop the '-' of "-5" and sweep 5 trials).
    page->findChild<QLineEdit *>(QStringLiteral("sweepFrom"))->setText(QStringLiteral("0.4"));
    auto *trials = page->findChild<QSpinBox *>(QStringLiteral("sweepTrials"));
    QVERIFY(trials);
    const int trialsBefore = trials->value();
    trials->selectAll();
    QTest::keyClicks(trials, QStringLiteral("-5"));
    QTest::keyClick(trials, Qt::Key_Return);
    QCOMPARE(trials->text(), QStringLiteral("-5"));
    QCOMPARE(trials->value(), trialsBefore);
    QVERIFY(!page->startSweep());
    QCOMPARE(failed.count(), 3);
    const QString refused = failed.at(2).at(0).toString();
    QVERIFY2(refused.contains(QStringLiteral("Trials")) && refused.contains(QStringLiteral("-5")), qPrintable(refused));
    QVERIFY(!page->isRunning());
    // Esc puts the value in use back, and the sweep may start.
    QTest::keyClick(trials, Qt::Key_Escape);
    QCOMPARE(trials->value(), trialsBefore);
    QVERIFY(page->inputProblem().isEmpty());
}

void tst_Tradeoffs::closingMidSweepJoins()
{
    auto window = std::make_unique<ui::MainWindow>();
    setUpSmallSweep(*window, 200, 3000);
    ui::TradeoffsPage *page = window->results()->tradeoffsPage();
    QSignalSpy arrived(page, &ui::TradeoffsPage::pointArrived);
    QVERIFY(page->startSweep());
    QVERIFY(arrived.wait(kRunTimeoutMs));
    window.reset(); // the page's destructor stops and joins the sweep's thread
    QVERIFY(!window);
}

// A sweep whose settings the form no longer shows (another dataset chosen, T changed) is marked
// on the page and in every chart's title, which exported files carry; sweeping again clears it,
// and changing only the swept setting does not mark it.
void tst_Tradeoffs::sweepOfEarlierSettingsIsMarked()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    setUpSmallSweep(window, 2, 300);
    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    auto *banner = page->findChild<QLabel *>(QStringLiteral("sweepStale"));
    QVERIFY(banner);
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QVERIFY(page->startSweep());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY(page->staleNote().isEmpty());
    QVERIFY(!page->grid()->isStale());

    core::RunConfig config = window.controls()->config();
    config.correction.sigma = 0.7; // the swept setting itself: still this sweep
    window.controls()->setConfig(config);
    emit window.controls()->settingsChanged();
    QVERIFY(page->staleNote().isEmpty());

    QComboBox *kind = window.controls()->datasetBox()->datasetCombo();
    kind->setCurrentIndex(kind->findData(QStringLiteral("worst-case")));
    QVERIFY2(page->staleNote().contains(QStringLiteral("dataset gmm → worst-case")), qPrintable(page->staleNote()));
    QVERIFY(page->grid()->isStale());
    QVERIFY(!banner->isHidden());
    const QString title = page->grid()->chartTitle(TradeoffsGrid::MeanBatch);
    QVERIFY2(title.endsWith(QStringLiteral("— earlier settings")), qPrintable(title));

    kind->setCurrentIndex(kind->findData(QStringLiteral("gmm")));
    config = window.controls()->config();
    config.nData = 20'000;
    config.temperature = 200.0;
    window.controls()->setConfig(config);
    emit window.controls()->settingsChanged();
    // Back on the mixture, but at other settings than swept (the dataset switch set the paper's
    // defaults, now put back by hand but for the samples): still marked until a new sweep.
    QVERIFY(page->startSweep());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY2(page->staleNote().isEmpty(), qPrintable(page->staleNote()));
    QVERIFY(banner->isHidden());
    QVERIFY(!page->grid()->chartTitle(TradeoffsGrid::MeanBatch).contains(QStringLiteral("earlier")));
}

// The scaling view: tall data swept over N on log axes, with compare mode's control-variate
// twins, draws one line per entry (minibatch, minibatch+taylor2, mh); the twin with proxies
// reads its first batch of 100 where the plain test reads more, and the exact test reads N.
void tst_Tradeoffs::scalingSweepDrawsALinePerEntry()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::ControlPanel *panel = window.controls();
    QComboBox *kind = panel->datasetBox()->datasetCombo();
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-logreg")));
    core::RunConfig config = panel->config();
    config.dimension = 5;
    config.correction.grid = 1000;
    core::RunRequest request = core::RunRequest::single(config);
    request.methods = {core::TestMethod::Minibatch, core::TestMethod::Minibatch, core::TestMethod::Metropolis};
    request.controlVariates = {core::ControlVariates::None, core::ControlVariates::Taylor2, core::ControlVariates::None};
    panel->setRequest(request);
    QVERIFY(panel->compareBox()->variants() == ui::CompareBox::Variants::WithAndWithout);
    const core::RunRequest shown = panel->request();
    QCOMPARE(shown.methodLabel(0), std::string("minibatch"));
    QCOMPARE(shown.methodLabel(1), std::string("minibatch+taylor2"));
    QCOMPARE(shown.methodLabel(2), std::string("mh"));
    {
        // The exact minibatch methods beside the minibatch test with taylor2 alone: SMH keeps its
        // own proxies, FlyMC has none, and no plain twin is added.
        core::RunRequest exact = request;
        exact.methods = {core::TestMethod::Scalable, core::TestMethod::Firefly, core::TestMethod::Minibatch};
        exact.controlVariates = {core::ControlVariates::Auto, core::ControlVariates::Auto, core::ControlVariates::Taylor2};
        panel->setRequest(exact);
        QVERIFY(panel->compareBox()->variants() == ui::CompareBox::Variants::Taylor2);
        const core::RunRequest back = panel->request();
        QCOMPARE(back.methods.size(), std::size_t(3));
        QCOMPARE(back.methodLabel(0), std::string("minibatch+taylor2"));
        QCOMPARE(back.methodLabel(1), std::string("smh+taylor2"));
        QCOMPARE(back.methodLabel(2), std::string("flymc"));
        panel->setRequest(request);
        QVERIFY(panel->compareBox()->variants() == ui::CompareBox::Variants::WithAndWithout);
    }

    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    core::SweepAxis axis;
    axis.setting = "n-data";
    axis.from = 2000;
    axis.to = 200'000;
    axis.count = 2;
    axis.logSpacing = true;
    page->setAxis(axis);
    page->setSamplesPerPoint(300);
    page->setTrials(1);
    QSignalSpy finished(page, &ui::TradeoffsPage::sweepFinished);
    QVERIFY(page->startSweep());
    QVERIFY(finished.wait(kRunTimeoutMs));
    TradeoffsGrid *grid = page->grid();
    for (int entry : {0, 1, 2})
        QCOMPARE(grid->pointCount(TradeoffsGrid::MeanBatch, entry), 2);
    const double plain = grid->valueAt(TradeoffsGrid::MeanBatch, 0, 200'000);
    const double proxies = grid->valueAt(TradeoffsGrid::MeanBatch, 1, 200'000);
    const double exact = grid->valueAt(TradeoffsGrid::MeanBatch, 2, 200'000);
    QVERIFY2(proxies < 150.0 && plain > 2.0 * proxies, qPrintable(QStringLiteral("%1 vs %2").arg(plain).arg(proxies)));
    QCOMPARE(exact, 200'000.0);
    const auto *xAxis = grid->view(TradeoffsGrid::MeanBatch)->chart()->axes(Qt::Horizontal).value(0);
    QVERIFY(qobject_cast<const QLogValueAxis *>(xAxis));
    // The scaling view reads ESS per second over decades too: log–log.
    const auto *essAxis = grid->view(TradeoffsGrid::EssPerSecond)->chart()->axes(Qt::Vertical).value(0);
    QVERIFY(qobject_cast<const QLogValueAxis *>(essAxis));
}

// On logistic data with mh beside the others, the fidelity chart is each method's mean shift from
// mh (the rows' referenceShift), on a log axis, under a title that says so; without mh it is the
// test accuracy.
void tst_Tradeoffs::logisticSweepWithAFullDataMethodShowsTheMeanShift()
{
    TradeoffsGrid grid;
    std::vector<core::SweepRow> rows;
    for (const double step : {0.001, 0.01})
        for (const core::TestMethod method : {core::TestMethod::Sgld, core::TestMethod::Metropolis}) {
            core::SweepRow row;
            row.setting = "step";
            row.value = step;
            row.method = method;
            row.testAccuracy = 0.8;
            row.referenceShift = method == core::TestMethod::Metropolis ? 0.0 : 100.0 * step;
            row.referenceSdRatio = 1.0;
            rows.push_back(row);
        }
    grid.reset(QStringLiteral("step"), 0.001, 0.01, true, {"sgld", "mh"}, true);
    grid.showRows(rows);
    QCOMPARE(grid.figureTitle(TradeoffsGrid::Fidelity), QStringLiteral("Mean shift from the full-data method"));
    QCOMPARE(grid.valueAt(TradeoffsGrid::Fidelity, 0, 0.01), 1.0);
    QCOMPARE(grid.valueAt(TradeoffsGrid::Fidelity, 0, 0.001), 0.1);
    QCOMPARE(grid.pointCount(TradeoffsGrid::Fidelity, 1), 0); // the reference itself, at 0, has no place on a log axis
    const auto axes = grid.view(TradeoffsGrid::Fidelity)->chart()->axes(Qt::Vertical);
    QVERIFY(!axes.isEmpty() && qobject_cast<const QLogValueAxis *>(axes.first()));

    grid.reset(QStringLiteral("step"), 0.001, 0.01, true, {"sgld"}, true);
    grid.showRows({rows[0], rows[2]});
    QCOMPARE(grid.figureTitle(TradeoffsGrid::Fidelity), QStringLiteral("Test accuracy"));
    QCOMPARE(grid.valueAt(TradeoffsGrid::Fidelity, 0, 0.01), 0.8);
}

namespace {

/// The title as the chart draws it: the text of its title item in the scene (Qt Charts cuts a
/// title too wide for the chart, ending it in "...").
QString drawnTitle(QChart *chart)
{
    const QString wanted = QTextDocumentFragment::fromHtml(chart->title()).toPlainText().left(6);
    for (QGraphicsItem *item : chart->childItems())
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item))
            if (text->toPlainText().startsWith(wanted))
                return text->toPlainText();
    return {};
}

} // namespace

// Every chart title of the tab, marked as of earlier settings (the longest it gets), drawn whole
// in a 1280×800 window: the text the scene draws has every word of the title and no "...".
void tst_Tradeoffs::titlesAreNeverCutAt1280Pixels()
{
    testruns::QuietWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.results()->setCurrentIndex(ui::ResultsView::tabIndex(QStringLiteral("tradeoffs")));
    TradeoffsGrid *grid = window.results()->tradeoffsPage()->grid();
    grid->reset(QStringLiteral("sigma"), 0.5, 1.5, false, {"minibatch", "naive-barker"}, false);
    grid->setStaleNote(QStringLiteral("dataset gmm → worst-case"));
    QApplication::processEvents();
    for (int figure = 0; figure < TradeoffsGrid::FigureCount; ++figure) {
        QChart *chart = grid->view(figure)->chart();
        const QString whole = grid->chartTitle(figure);
        QCOMPARE(whole, grid->figureTitle(figure) + QStringLiteral(" — earlier settings"));
        QTRY_VERIFY2(!drawnTitle(chart).contains(QStringLiteral("...")),
                     qPrintable(QStringLiteral("%1: drawn as '%2' at %3 px").arg(whole, drawnTitle(chart)).arg(grid->view(figure)->width())));
        QCOMPARE(drawnTitle(chart).simplified(), whole.simplified());
    }
}

// On an n-data axis the row offers "Step 1/√N per point", ticked where the form's step is the
// preset's 1/√N (as the command line's sweep does when no --step is given); the request then
// carries it. Another setting hides the box, and the request does not carry it.
void tst_Tradeoffs::anNDataAxisOffersTheStepThatFollowsN()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::ControlPanel *panel = window.controls();
    QComboBox *kind = panel->datasetBox()->datasetCombo();
    kind->setCurrentIndex(kind->findData(QStringLiteral("tall-logreg")));
    core::RunConfig config = panel->config();
    config.nData = 40'000;
    config.step = 1.0 / std::sqrt(40'000.0);
    panel->setRequest(core::RunRequest::single(config));
    window.show();

    ui::TradeoffsPage *page = window.results()->tradeoffsPage();
    window.results()->showTab(QStringLiteral("tradeoffs"));
    auto *followsN = page->findChild<QCheckBox *>(QStringLiteral("sweepStepFollowsN"));
    QVERIFY(followsN);
    core::SweepAxis axis;
    axis.setting = "n-data";
    axis.from = 10'000;
    axis.to = 1'000'000;
    axis.count = 3;
    axis.logSpacing = true;
    page->setAxis(axis);
    QVERIFY(followsN->isVisible());
    QVERIFY(followsN->isChecked());
    QVERIFY(page->sweepRequest().stepFollowsDataSize);
    followsN->setChecked(false);
    QVERIFY(!page->sweepRequest().stepFollowsDataSize);

    config.step = 0.01; // the user's own step: each point keeps it
    panel->setRequest(core::RunRequest::single(config));
    page->setAxis(axis);
    QVERIFY(!followsN->isChecked());
    QVERIFY(!page->sweepRequest().stepFollowsDataSize);

    axis.setting = "temperature";
    axis.from = 1;
    axis.to = 4;
    page->setAxis(axis);
    QVERIFY(!followsN->isVisible());
    followsN->setChecked(true);
    QVERIFY(!page->sweepRequest().stepFollowsDataSize);
}

// A chain that wandered off (SGHMC at too large a step) can show a large rank-based ESS and the
// cheapest points per ESS of the sweep: its points on the two speed charts are ringed in red,
// on screen, and the legend says why; a sweep whose chains all mixed rings nothing.
void tst_Tradeoffs::speedOfAChainThatHasNotMixedIsRinged()
{
    TradeoffsGrid grid;
    grid.resize(1200, 700);
    grid.reset(QStringLiteral("step"), 0.05, 0.2, false, {"sghmc", "barker"}, false);
    std::vector<core::SweepRow> rows;
    for (double step : {0.05, 0.2})
        for (const char *label : {"sghmc", "barker"}) {
            core::SweepRow row;
            row.setting = "step";
            row.value = step;
            row.method = std::string(label) == "sghmc" ? core::TestMethod::Sghmc : core::TestMethod::Barker;
            row.label = label;
            row.meanBatch = 100.0;
            row.acceptanceRate = 0.5;
            row.posteriorTv = 0.05;
            row.essBulkMin = 5000.0;
            row.essPerSecond = 1000.0 * (1.0 + step);
            row.dataPointsPerEss = 2000.0 / (1.0 + step);
            row.splitRhat = 1.001;
            row.mixing = {core::Mixing::Mixed, ""};
            rows.push_back(row);
        }
    grid.showRows(rows);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    const auto redPixels = [&](int figure) {
        const QImage image = grid.view(figure)->grab().toImage();
        int count = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                count += c.red() > 170 && c.green() < 80 && c.blue() < 80;
            }
        return count;
    };
    for (int figure = 0; figure < TradeoffsGrid::FigureCount; ++figure)
        QCOMPARE(grid.unconvergedMarkCount(figure), 0);
    const int redBefore = redPixels(TradeoffsGrid::DataPerEss);

    rows[2].splitRhat = 1.08; // sghmc at h = 0.2: diverged, its ranks still spread
    rows[2].mixing = {core::Mixing::NotConverged, "split R-hat 1.0800 > 1.01"};
    grid.showRows(rows);
    QCOMPARE(grid.unconvergedMarkCount(TradeoffsGrid::EssPerSecond), 1);
    QCOMPARE(grid.unconvergedMarkCount(TradeoffsGrid::DataPerEss), 1);
    for (int figure : {int(TradeoffsGrid::MeanBatch), int(TradeoffsGrid::Acceptance), int(TradeoffsGrid::Fidelity)})
        QCOMPARE(grid.unconvergedMarkCount(figure), 0);
    QTest::qWait(50);
    const int redAfter = redPixels(TradeoffsGrid::DataPerEss);
    QVERIFY2(redAfter > redBefore + 20, qPrintable(QStringLiteral("%1 then %2").arg(redBefore).arg(redAfter)));
    const QList<QLabel *> labels = grid.findChildren<QLabel *>();
    QVERIFY(std::any_of(labels.begin(), labels.end(),
                        [](QLabel *label) { return label->text().contains(QStringLiteral("chain not mixed")); }));

    rows[2].mixing = {core::Mixing::Mixed, ""};
    grid.showRows(rows);
    QCOMPARE(grid.unconvergedMarkCount(TradeoffsGrid::DataPerEss), 0);
    QVERIFY(std::none_of(labels.begin(), labels.end(),
                         [](QLabel *label) { return label->text().contains(QStringLiteral("chain not mixed")); }));
}

MHX_GUI_TEST_MAIN(tst_Tradeoffs)

#include "tst_tradeoffs.moc"
