// Continuous mode, offscreen: Run until stopped keeps sampling and shows a moving window of the
// latest samples; a new T shows in the cloud's spread without a restart; a new σ or method
// continues the chain as a new segment; a new N restarts; the speed limit holds.
#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

#include "ui/charts/batch_size_histogram.h"
#include "ui/run/continuous_controls.h"
#include "ui/panel/control_panel.h"
#include "ui/main_window.h"
#include "ui/charts/posterior_chart.h"
#include "ui/pages/results_view.h"
#include "ui/run/run_controller.h"
#include "ui/run/run_status_strip.h"
#include "ui/run/sampler_worker.h"
#include "ui/run/stale_banner.h"
#include "ui/charts/trace_chart.h"
#include "tests/support/gui_test_main.h"
#include "tests/support/small_runs.h"
#include "tests/support/window_screenshot.h"

using testruns::kRunTimeoutMs;
using testruns::smallConfig;

namespace {

double spreadOfFirstComponent(const QVector<QPointF> &points)
{
    double mean = 0.0;
    for (const QPointF &p : points)
        mean += p.x();
    mean /= static_cast<double>(points.size());
    double sum = 0.0;
    for (const QPointF &p : points)
        sum += (p.x() - mean) * (p.x() - mean);
    return std::sqrt(sum / static_cast<double>(points.size() - 1));
}

} // namespace

class tst_ContinuousMode : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    void runsUntilStoppedShowingAMovingWindow()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.show();
        // Every speed shown describes sampling: the first is measured from the chain's first
        // iteration, not from before the heat map and the correction table were made.
        QList<ui::RunSnapshot> speeds;
        QElapsedTimer clock;
        double preparedAt = -1.0, firstSpeedAt = -1.0; // arrival times, seconds from the start
        // The window is the receiver: snapshots still queued when it goes (a failed check
        // returns mid-run) go with it instead of reaching `speeds` after this function.
        connect(window.worker(), &ui::SamplerWorker::preparationProgress, &window,
                [&] { preparedAt = clock.nsecsElapsed() * 1e-9; });
        connect(window.worker(), &ui::SamplerWorker::snapshot, &window, [&](const ui::RunSnapshot &shot) {
            if (shot.iterationsPerSecond <= 0.0)
                return;
            if (speeds.isEmpty())
                firstSpeedAt = clock.nsecsElapsed() * 1e-9;
            speeds.append(shot);
        });
        clock.start();
        startContinuous(window, smallConfig(core::TestMethod::Minibatch, 2000));
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > 10'000, kRunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!speeds.isEmpty() && speeds.back().elapsedSeconds > 1.0, kRunTimeoutMs);
        // The clock of the speeds starts at the chain's first iteration, after the preparation
        // (the data, the exact posterior and, with this fresh cache, the correction table: about
        // 1.3 s here). Started before it, the first speed's sampling time would span nearly all
        // of the time until that snapshot arrived. Measured as arrival times, so the check
        // allows the preparation's last report to arrive late by up to half the preparation
        // (capped at 0.25 s): no speed ratio, which a loaded machine moves.
        const ui::RunSnapshot &first = speeds.front();
        QVERIFY(preparedAt > 0.0);
        const double lateness = std::min(0.25, 0.5 * preparedAt);
        QVERIFY2(first.elapsedSeconds <= firstSpeedAt - preparedAt + lateness,
                 qPrintable(QStringLiteral("preparation reported until %1 s, first speed at %2 s, its sampling time %3 s")
                                .arg(preparedAt)
                                .arg(firstSpeedAt)
                                .arg(first.elapsedSeconds)));
        QVERIFY(window.isRunning());
        window.chart()->flush();
        QVERIFY(window.chart()->drawnSamples().size() <= 2000);
        QVERIFY(window.chart()->drawnSamples().size() > 1000);
        window.results()->histogram()->flush();
        QCOMPARE(window.results()->histogram()->count(0), 2000);

        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const ui::RunOutcome outcome = *window.lastOutcome();
        QVERIFY(outcome.request.untilStopped);
        const core::ChainResult &chain = *outcome.chains.front().result;
        QCOMPARE(chain.completed, 2000);
        QVERIFY(chain.firstIteration + chain.completed > 10'000);
        QVERIFY(outcome.chains.front().hasPosteriorMetrics);
        QVERIFY2(window.statusText().contains(QStringLiteral("the figures describe the latest 2,000")),
                 qPrintable(window.statusText()));
        QCOMPARE(window.restartCount(), 0);
    }

    // A new T while the chain runs: the chain goes on (no restart) and the moving cloud takes
    // the new posterior's spread. On the worst case the posterior of θ is N(x̄, T/N), so T
    // 1 → 10 widens it by √10.
    void aNewTemperatureWidensTheMovingCloud()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.show();
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        core::RunConfig config;
        config.dataset = "worst-case";
        config.nData = 20'000;
        core::applyDatasetDefaults(config, false, false); // T = 1, step 1/√N
        config.step *= 3.0; // so that the chain also crosses the wider posterior quickly
        config.method = core::TestMethod::Minibatch;
        config.samples = 5000;
        startContinuous(window, config);
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > 20'000, kRunTimeoutMs);
        const double before = spreadOfFirstComponent(window.chart()->drawnSamples());

        window.controls()->temperatureBox()->setValue(10.0);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 1, kRunTimeoutMs);
        const qint64 changedAt = segments.front().at(1).value<core::ChainSegment>().start;
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > changedAt + 30'000, kRunTimeoutMs);
        const double after = spreadOfFirstComponent(window.chart()->drawnSamples());
        qInfo("θ spread in the window: %.5f at T = 1, %.5f at T = 10 (ratio %.2f; exact √10 = 3.16)", before, after,
              after / before);
        // 5000 correlated draws: a loose band around √10 that a missed change (ratio 1) fails.
        QVERIFY2(after > 2.2 * before && after < 4.5 * before, qPrintable(QString::number(after / before)));
        QVERIFY(window.staleBanner()->isHidden());
        QCOMPARE(window.restartCount(), 0);
        stop(window);
    }

    // The paper's mixture as a teacher shows it: T dragged from 200 to 2000 while the chain
    // runs, the cloud of T = 200 pinned under the new one (screenshots with MHX_SCREENSHOT_DIR).
    void aTemperatureDragOverAPinnedCloud()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.resize(1400, 900);
        window.show();
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        startContinuous(window, smallConfig(core::TestMethod::Minibatch, 3000));
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > 20'000, kRunTimeoutMs);
        window.results()->pinPosteriorSamples();
        QTRY_VERIFY_WITH_TIMEOUT(!window.chart()->posteriorImage().isNull(), kRunTimeoutMs);
        const QImage atT200 = window.chart()->posteriorImage().image;
        testruns::saveScreenshot(window, QStringLiteral("continuous-T200.png"));
        window.controls()->temperatureBox()->setValue(2000.0);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 1, kRunTimeoutMs);
        const qint64 changedAt = segments.front().at(1).value<core::ChainSegment>().start;
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > changedAt + 20'000, kRunTimeoutMs);
        // The heat map is the new target's, drawn under the running chain.
        QTRY_VERIFY_WITH_TIMEOUT(window.chart()->posteriorImage().image != atT200, kRunTimeoutMs);
        QVERIFY(window.chart()->pinnedSampleCount() > 0);
        QVERIFY(window.staleBanner()->isHidden());
        testruns::saveScreenshot(window, QStringLiteral("continuous-T2000-pinned.png"));
        QCOMPARE(window.restartCount(), 0);
        stop(window);
    }

    // σ and then the method change under the running chain: each continues it as a marked
    // segment; N cannot, and restarts the run.
    void kernelChangesContinueTheChainAndDataChangesRestart()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.show();
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        QSignalSpy starting(window.runController(), &ui::RunController::runStarting);
        // A window of 20,000 iterations: a change's mark stays in view while the window catches
        // up with a busy machine (with 2,000 a lagging window could scroll it out before the
        // check below).
        startContinuous(window, smallConfig(core::TestMethod::Minibatch, 20'000));
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > 5000, kRunTimeoutMs);

        window.controls()->correctionBox()->sigmaBox()->setValue(0.6);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 1, kRunTimeoutMs);
        QVERIFY(segments.back().at(1).value<core::ChainSegment>().kernelChanged);
        QCOMPARE(window.shownRequest()->config.correction.sigma, 0.6);
        QVERIFY(window.staleBanner()->isHidden());

        window.controls()->methodBox()->setCurrentIndex(
            window.controls()->methodBox()->findData(QStringLiteral("barker")));
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 2, kRunTimeoutMs);
        QVERIFY(segments.back().at(1).value<core::ChainSegment>().kernelChanged);
        QCOMPARE(window.restartCount(), 0);
        QCOMPARE(starting.count(), 1);
        // Marks scroll out with the window: the latest change is still in view.
        QVERIFY(window.results()->traceChart()->segmentMarkCount() >= 1);

        window.controls()->dataSizeBox()->setValue(30'000);
        QTRY_COMPARE_WITH_TIMEOUT(starting.count(), 2, kRunTimeoutMs);
        QCOMPARE(window.restartCount(), 1);
        m_completed = 0;
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > 1000, kRunTimeoutMs); // the new run samples
        const ui::RunOutcome stopped = stop(window);
        QVERIFY2(!stopped.chains.empty(), qPrintable(window.statusText()));
        QVERIFY((stopped.chains.front().method == core::TestMethod::Barker));
    }

    // The speed slider: 20 iterations a second holds; far right is full speed again.
    void theSpeedLimitHolds()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.show();
        window.continuousControls()->setPace(20.0);
        QCOMPARE(window.continuousControls()->pace(), 20.0);
        startContinuous(window, smallConfig(core::TestMethod::Barker, 1000));
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > 0, kRunTimeoutMs);
        const qint64 start = m_completed;
        QElapsedTimer clock;
        clock.start();
        QTest::qWait(1500);
        const double seconds = clock.elapsed() / 1000.0;
        const qint64 done = m_completed - start;
        qInfo("%lld iterations in %.2f s at a limit of 20 it/s", static_cast<long long>(done), seconds);
        QVERIFY2(done <= static_cast<qint64>(20.0 * (seconds + 0.2)) + 1, qPrintable(QString::number(done)));
        window.continuousControls()->speedSlider()->setValue(ui::ContinuousControls::kTopPosition);
        QCOMPARE(window.continuousControls()->pace(), 0.0);
        const qint64 unlimited = m_completed;
        QTRY_VERIFY_WITH_TIMEOUT(m_completed > unlimited + 5000, kRunTimeoutMs);
        stop(window);
    }

private:
    void startContinuous(ui::MainWindow &window, const core::RunConfig &config)
    {
        m_completed = 0;
        connect(&window, &ui::MainWindow::snapshotApplied, this, [this](qint64 completed) {
            m_completed = std::max(m_completed, completed);
        });
        window.controls()->setRequest(ui::RunRequest::single(config));
        window.setUntilStopped(true);
        QVERIFY(window.continuousControls()->untilStoppedAction()->isChecked());
        QVERIFY(window.startRunFromControls());
        QVERIFY(window.shownRequest()->untilStopped);
    }

    ui::RunOutcome stop(ui::MainWindow &window)
    {
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        window.stopRun();
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs); }();
        return window.lastOutcome().value_or(ui::RunOutcome{});
    }

    QTemporaryDir m_cacheDir;
    qint64 m_completed = 0;
};

MHX_GUI_TEST_MAIN(tst_ContinuousMode)
#include "tst_continuous_mode.moc"
