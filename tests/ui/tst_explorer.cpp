// The window as an explorer, offscreen: the banner that says when the charts no longer show the
// form's settings, and auto-run, which answers a change of the form with a new run.
#include <QAreaSeries>
#include <QChart>
#include <QDoubleSpinBox>
#include <QLineSeries>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/bright_points_chart.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/correction_box.h"
#include "ui/files/file_actions.h"
#include "ui/main_window.h"
#include "ui/charts/posterior_chart.h"
#include "ui/pages/results_view.h"
#include "ui/run/run_status_strip.h"
#include "ui/run/stale_banner.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/trace_chart.h"
#include "tests/support/gui_test_main.h"
#include "tests/support/quiet_window.h"
#include "tests/support/small_runs.h"
#include "tests/support/window_screenshot.h"

using testruns::kRunTimeoutMs;
using testruns::QuietWindow;
using testruns::smallConfig;

class tst_Explorer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    // The target is on screen before any run, and follows a change of T, also after a run.
    void posteriorDrawnAtLaunchAndOnTemperatureChange()
    {
        QuietWindow window{testruns::NoAutoRun{}};
        QElapsedTimer clock;
        clock.start();
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.chart()->hasPosteriorImage(), kRunTimeoutMs);
        qInfo("posterior of N = %lld drawn %lld ms after launch", static_cast<long long>(window.controls()->config().nData),
              static_cast<long long>(clock.elapsed()));
        const QImage atLaunch = window.chart()->posteriorImage().image;
        window.controls()->dataSizeBox()->setValue(20'000);
        window.controls()->temperatureBox()->setValue(200.0);
        QTRY_VERIFY_WITH_TIMEOUT(window.chart()->posteriorImage().image != atLaunch, kRunTimeoutMs);
        const QImage atT200 = window.chart()->posteriorImage().image;
        // The same image a run of those settings draws.
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRunFromControls());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(window.chart()->posteriorImage().image, atT200);
        // Idle after the run: a new T redraws the target at once (the banner says the samples
        // are the old run's).
        window.controls()->temperatureBox()->setValue(2000.0);
        QTRY_VERIFY_WITH_TIMEOUT(window.chart()->posteriorImage().image != atT200, kRunTimeoutMs);
        QVERIFY(window.staleBanner()->isVisible());
    }

    // Nothing shown, nothing stale: edits before the first run raise no banner and no run.
    void noBannerBeforeTheFirstRun()
    {
        QuietWindow window;
        window.show();
        window.controls()->temperatureBox()->setValue(321.0);
        QTest::qWait(ui::MainWindow::kAutoRunDelayMs * 2);
        QVERIFY(window.staleBanner()->isHidden());
        QVERIFY(!window.isRunning());
    }

    // A compare whose entries carry their own control variates (the CLI's "minibatch+taylor2")
    // is what the form shows after it: no banner over the form's own, unused, setting.
    void perEntryControlVariatesAreNotStale()
    {
        QuietWindow window{testruns::NoAutoRun{}};
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        core::RunConfig config;
        config.dataset = "tall-logreg";
        config.nData = 20'000;
        config.dimension = 3;
        config.samples = 400;
        config.burnIn = 100;
        config.proposal = core::ProposalKind::LaplaceCrankNicolson;
        config.method = core::TestMethod::Scalable;
        ui::RunRequest request = ui::RunRequest::single(config);
        request.methods = {core::TestMethod::Scalable, core::TestMethod::Minibatch};
        request.controlVariates = {core::ControlVariates::Auto, core::ControlVariates::Taylor2};
        QVERIFY(window.startRequest(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QVERIFY2(window.staleBanner()->isHidden(), qPrintable(window.staleBanner()->differences().join(", ")));
    }

    // With auto-run off, a finished run and a changed T and σ: the banner names both settings
    // with the shown and the form's values, and Run makes it go away.
    void bannerNamesWhatDiffersUntilTheFormIsRun()
    {
        QuietWindow window{testruns::NoAutoRun{}};
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 500)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QVERIFY(window.staleBanner()->isHidden());

        window.controls()->temperatureBox()->setValue(400.0);
        window.controls()->correctionBox()->sigmaBox()->setValue(0.5);
        QVERIFY(window.staleBanner()->isVisible());
        const QStringList differences = window.staleBanner()->differences();
        QCOMPARE(differences.size(), 2);
        QCOMPARE(differences.at(0), QStringLiteral("T 200 → 400"));
        QCOMPARE(differences.at(1), QStringLiteral("σ 1 → 0.5"));
        QVERIFY(window.staleBanner()->text().contains(QStringLiteral("Ctrl+R")));
        // Every wrapped line of the message shows, however narrow the charts' side.
        const auto *message = window.staleBanner()->findChild<QLabel *>();
        QVERIFY(message);
        QTRY_VERIFY2(message->height() >= message->heightForWidth(message->width()),
                     qPrintable(QStringLiteral("%1 pixels high, %2 needed at %3 wide").arg(message->height())
                                    .arg(message->heightForWidth(message->width())).arg(message->width())));
        testruns::saveScreenshot(window, QStringLiteral("stale-banner.png"));
        // An export says which run it wrote, and that it is not the form's.
        QTemporaryDir exports;
        QVERIFY(window.fileActions()->exportSummary(exports.filePath(QStringLiteral("summary.json"))));
        QVERIFY2(window.statusText().contains(QStringLiteral("T = 200")), qPrintable(window.statusText()));
        QVERIFY2(window.statusText().contains(QStringLiteral("not the form's settings")), qPrintable(window.statusText()));
        QTest::qWait(ui::MainWindow::kAutoRunDelayMs * 2);
        QVERIFY(!window.isRunning()); // auto-run is off

        // Putting the values back is as good as running them.
        window.controls()->temperatureBox()->setValue(200.0);
        window.controls()->correctionBox()->sigmaBox()->setValue(1.0);
        QVERIFY(window.staleBanner()->isHidden());

        window.controls()->temperatureBox()->setValue(400.0);
        QVERIFY(window.staleBanner()->isVisible());
        QVERIFY(window.startRunFromControls());
        QVERIFY(window.staleBanner()->isHidden());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QVERIFY(window.staleBanner()->isHidden());
        QCOMPARE(window.lastOutcome()->config().temperature, 400.0);
    }

    // A temperature applied to running chains is what the charts then show: no banner.
    void liveChangesAreNotStale()
    {
        QuietWindow window;
        window.show();
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        window.controls()->temperatureBox()->setValue(400.0);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 1, kRunTimeoutMs);
        QVERIFY2(window.staleBanner()->isHidden(), qPrintable(window.staleBanner()->differences().join(", ")));
        QCOMPARE(window.shownRequest()->config.temperature, 400.0);
        window.stopRun();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), kRunTimeoutMs);
        QVERIFY(window.staleBanner()->isHidden());
    }

    // Auto-run: after a run, a burst of edits (a slider drag) makes one new run with the last
    // value, once the editing pauses; Reset leaves nothing shown, so edits then run nothing.
    void autoRunAnswersABurstOfEditsWithOneRun()
    {
        QuietWindow window;
        QVERIFY(window.autoRun()); // on by default
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy starting(window.runController(), &ui::RunController::runStarting);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 500)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

        for (double t : {250.0, 300.0, 350.0, 400.0})
            window.controls()->temperatureBox()->setValue(t);
        QCOMPARE(starting.count(), 1); // not yet: the editing has not paused
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QCOMPARE(starting.count(), 2);
        QCOMPARE(window.lastOutcome()->config().temperature, 400.0);
        QVERIFY(window.staleBanner()->isHidden());

        window.resetRun();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isRunning(), kRunTimeoutMs);
        window.controls()->temperatureBox()->setValue(500.0);
        QTest::qWait(ui::MainWindow::kAutoRunDelayMs * 2);
        QCOMPARE(starting.count(), 2);
        QVERIFY(window.staleBanner()->isHidden());
    }

    // Pin: the shown run's samples stay, faint, under the next run's; Clear removes them.
    void pinnedSamplesStayUnderTheNextRun()
    {
        QuietWindow window{testruns::NoAutoRun{}};
        window.resize(1280, 800);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        core::RunConfig config = smallConfig(core::TestMethod::Minibatch, 2000);
        config.temperature = 2000.0; // a wide cloud …
        QVERIFY(window.startRun(config));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(window.chart()->pinnedSampleCount(), 0);
        window.results()->pinPosteriorSamples();
        const qsizetype pinned = window.chart()->pinnedSampleCount();
        QCOMPARE(pinned, window.chart()->plottedSampleCount());
        QVERIFY(pinned > 1000);

        config.temperature = 100.0; // … then a sharp one over it
        QVERIFY(window.startRun(config));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QCOMPARE(window.chart()->pinnedSampleCount(), pinned); // on the new run's chart
        QVERIFY(window.chart()->plottedSampleCount() > 1000);
        testruns::saveScreenshot(window, QStringLiteral("pinned-run.png"));

        // The histogram and the traces carry the same pin: the wide run's batch sizes and
        // path under the sharp run's.
        ui::ResultsView *results = window.results();
        QCOMPARE(results->histogram()->pinnedSeriesCount(), 1);
        QCOMPARE(results->traceChart()->pinnedLineCount(), 1);
        results->setCurrentIndex(ui::ResultsView::tabIndex(QStringLiteral("sizes")));
        results->flushAll();
        const QList<QPointF> pinnedOutline = pinnedPoints(results->histogram()->chart());
        QVERIFY(pinnedOutline.size() >= 4);
        testruns::saveScreenshot(window, QStringLiteral("pinned-run-histogram.png"));
        results->setCurrentIndex(ui::ResultsView::tabIndex(QStringLiteral("traces")));
        results->flushAll();
        const QList<QPointF> pinnedTrace = pinnedPoints(results->traceChart()->view(0)->chart());
        QVERIFY(pinnedTrace.size() > 100);
        QVERIFY(pinnedTrace.front().x() >= 0.0 && pinnedTrace.back().x() <= 2000.0); // same iterations
        testruns::saveScreenshot(window, QStringLiteral("pinned-run-traces.png"));
        // The sharp run reads other batch sizes than the wide one: two different outlines.
        const auto areas = results->histogram()->chart()->series();
        const auto shown = std::find_if(areas.begin(), areas.end(), [](QAbstractSeries *series) {
            return series->type() == QAbstractSeries::SeriesTypeArea;
        });
        QVERIFY(shown != areas.end());
        QVERIFY(static_cast<QAreaSeries *>(*shown)->upperSeries()->points() != pinnedOutline);

        window.results()->clearPin();
        QCOMPARE(window.chart()->pinnedSampleCount(), 0);
        QCOMPARE(results->histogram()->pinnedSeriesCount(), 0);
        QCOMPARE(results->traceChart()->pinnedLineCount(), 0);
        QVERIFY(pinnedPoints(results->histogram()->chart()).isEmpty());
    }

    // Where most tests read all N anyway (MHSubLhd on the worst case, Lemma 1), the strip says so.
    void mostlyFullDataRunsAreFlagged()
    {
        QuietWindow window{testruns::NoAutoRun{}};
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        core::RunConfig config;
        config.dataset = "worst-case";
        config.nData = 5000;
        applyDatasetDefaults(config, false, false);
        config.method = core::TestMethod::SubLhd;
        config.samples = 300;
        QVERIFY(window.startRun(config));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        // A copy: lastOutcome() returns the outcome by value, so a reference into it would dangle.
        const auto chain = window.lastOutcome()->chains.front().summary;
        QVERIFY2(2 * chain.allDataIterations > chain.iterations, "the regime this test needs");
        QVERIFY2(window.statusStrip()->notice().contains(QStringLiteral("read all N data points")),
                 qPrintable(window.statusStrip()->notice()));
        // The paper's mixture with the minibatch test: no such notice.
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Minibatch, 300)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QVERIFY(!window.statusStrip()->notice().contains(QStringLiteral("read all N")));
    }

    // FlyMC's bright points are drawn under the traces, a line per FlyMC chain ending at the
    // count the chain itself reports; a chain of another method gets no line, and a run without
    // FlyMC hides the chart.
    void flymcRunsDrawTheirBrightPoints()
    {
        QuietWindow window{testruns::NoAutoRun{}};
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        core::RunConfig config;
        config.dataset = "tall-logreg";
        applyDatasetDefaults(config, false, false);
        config.nData = 20'000;
        config.dimension = 3;
        config.samples = 2000;
        config.burnIn = 500;
        ui::RunRequest request = ui::RunRequest::single(config);
        request.methods = {core::TestMethod::Minibatch, core::TestMethod::Firefly};
        QVERIFY(window.startRequest(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        ui::BrightPointsChart *bright = window.results()->brightPointsChart();
        QVERIFY(bright->isActive());
        QVERIFY(!bright->isHidden());
        QCOMPARE(bright->pointCount(0), 0);
        QVERIFY(bright->pointCount(1) > 0);
        const auto outcome = window.lastOutcome();
        QVERIFY(outcome);
        const ui::ChainReport &flymc = outcome->chains.at(1);
        QCOMPARE(flymc.method, core::TestMethod::Firefly);
        // Every iteration is drawn, in bins of equal size: the lines' means are the chain's own.
        const core::ChainResult &chain = *flymc.result;
        QCOMPARE(static_cast<qint64>(chain.brightPoints.size()), config.samples);
        double chainBright = 0.0, chainRead = 0.0;
        for (std::size_t t = 0; t < chain.brightPoints.size(); ++t) {
            chainBright += static_cast<double>(chain.brightPoints[t]) / static_cast<double>(config.samples);
            chainRead += static_cast<double>(chain.batchSize[t]) / static_cast<double>(config.samples);
        }
        const QList<QPointF> brightLine = bright->points(1), readLine = bright->readPoints(1);
        QCOMPARE(readLine.size(), brightLine.size());
        QCOMPARE(brightLine.size() * bright->binSize(1), config.samples);
        double lineBright = 0.0, lineRead = 0.0, previous = 0.0;
        for (qsizetype k = 0; k < brightLine.size(); ++k) {
            QCOMPARE(brightLine[k].x(), previous + static_cast<double>(bright->binSize(1)));
            QCOMPARE(readLine[k].x(), brightLine[k].x());
            previous = brightLine[k].x();
            lineBright += brightLine[k].y() / static_cast<double>(brightLine.size());
            lineRead += readLine[k].y() / static_cast<double>(readLine.size());
        }
        QVERIFY(std::abs(lineBright - chainBright) < 1e-9);
        QVERIFY(std::abs(lineRead - chainRead) < 1e-9);
        // Bounds tight at the mode leave few of the N points bright, so the reads settle near
        // the z-update's q_db·N proposals plus the bright points at θ′.
        const double proposedBright = config.flymcDarkToBright * static_cast<double>(config.nData);
        QVERIFY2(chainBright > 0.0 && chainBright < config.nData / 100.0, qPrintable(QString::number(chainBright)));
        QVERIFY2(std::abs(chainRead - proposedBright - chainBright) < 0.2 * proposedBright,
                 qPrintable(QStringLiteral("%1 read, %2 proposed bright, %3 bright")
                                .arg(chainRead)
                                .arg(proposedBright)
                                .arg(chainBright)));
        qInfo("FlyMC: %.2f of %lld points bright on average, %.1f read per iteration against q_db N = %.0f",
              chainBright, static_cast<long long>(config.nData), chainRead, proposedBright);
        window.results()->setCurrentIndex(ui::ResultsView::tabIndex(QStringLiteral("traces")));
        QTest::qWait(200); // the charts draw on the next turns of the event loop
        testruns::saveScreenshot(window, QStringLiteral("flymc-bright-points.png"));

        QVERIFY(window.startRun(smallConfig(core::TestMethod::Minibatch, 300)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QVERIFY(!bright->isActive());
        QVERIFY(bright->isHidden());
    }

    // The paper's mixture (N = 10^6): from the last edit of T to the new run's first drawn
    // snapshot, auto-run's pause included. Reported, not asserted (timing is for benchmarks).
    void autoRunLatencyAtThePapersScale()
    {
        QuietWindow window;
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QVERIFY(window.startRunFromControls());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const qint64 before = snapshots.count();
        QElapsedTimer latency;
        latency.start();
        window.controls()->temperatureBox()->setValue(5000.0);
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > before, kRunTimeoutMs);
        qInfo("N = %lld: T 10000 → 5000 after a run; the new run's first snapshot drawn %lld ms after the edit "
              "(auto-run waits %d ms of it)",
              static_cast<long long>(window.controls()->config().nData), static_cast<long long>(latency.elapsed()),
              ui::MainWindow::kAutoRunDelayMs);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QCOMPARE(window.lastOutcome()->config().temperature, 5000.0);
    }

private:
    // For a person to look at: MHX_SCREENSHOT_DIR=DIR keeps the window as the test left it.
    // The points of a chart's "pinned run" line (the first, if several).
    static QList<QPointF> pinnedPoints(QChart *chart)
    {
        for (QAbstractSeries *series : chart->series())
            if (series->name() == QStringLiteral("pinned run"))
                return static_cast<QLineSeries *>(series)->points();
        return {};
    }

    QTemporaryDir m_cacheDir;
};

MHX_GUI_TEST_MAIN(tst_Explorer)
#include "tst_explorer.moc"
