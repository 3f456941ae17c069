// The run lifecycle without a window (QT_QPA_PLATFORM=offscreen): RunController's states and
// transitions for start, finish, pause, step, stop, restart, reset, failure and shutdown, with
// real (small) runs on its worker thread.
#include <QSignalSpy>
#include <QStringList>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/run/run_controller.h"
#include "ui/run/sampler_worker.h"
#include "tests/support/small_runs.h"

namespace {

using testruns::kRunTimeoutMs;
using testruns::smallConfig;

constexpr std::int64_t kLongRun = 1'000'000; // far more than any test waits for

ui::RunRequest barkerRun(std::int64_t samples)
{
    return ui::RunRequest::single(smallConfig(core::TestMethod::Barker, samples));
}

// The states a stateChanged spy has seen, by name, so that a failed comparison reads well.
QStringList statesSeen(const QSignalSpy &spy)
{
    QStringList names;
    for (const QList<QVariant> &arguments : spy)
        names.append(QString::fromLatin1(ui::runStateName(arguments.at(0).value<ui::RunState>())));
    return names;
}

ui::RunOutcome outcomeAt(const QSignalSpy &spy, int index)
{
    return spy.at(index).at(0).value<ui::RunOutcome>();
}

} // namespace

namespace ui {
// QCOMPARE prints states by name.
char *toString(RunState state)
{
    return qstrdup(runStateName(state));
}
} // namespace ui

class tst_RunController : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    void startsIdle()
    {
        ui::RunController runs;
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QVERIFY(!runs.isActive());
        QVERIFY(!runs.isShutDown());
        QVERIFY(runs.isWorkerThreadRunning());
        // Nothing to pause, resume, step, stop or restart.
        QVERIFY(!runs.pause());
        QVERIFY(!runs.resume());
        QVERIFY(!runs.step());
        runs.stop();
        QVERIFY(!runs.scheduleRestart(QStringLiteral("N")));
        QVERIFY(!runs.isRestartPending());
        QCOMPARE(runs.state(), ui::RunState::Idle);
    }

    void runGoesThroughPreparingAndRunningToIdle()
    {
        ui::RunController runs;
        QSignalSpy states(&runs, &ui::RunController::stateChanged);
        QSignalSpy starting(&runs, &ui::RunController::runStarting);
        QSignalSpy chains(&runs, &ui::RunController::chainsStarted);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QSignalSpy failed(&runs, &ui::RunController::runFailed);
        QVERIFY(runs.start(barkerRun(2000)));
        QCOMPARE(runs.state(), ui::RunState::Preparing);
        QVERIFY(runs.isActive());
        QCOMPARE(starting.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, kRunTimeoutMs);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QCOMPARE(statesSeen(states), (QStringList{"Preparing", "Running", "Idle"}));
        QCOMPARE(chains.count(), 1);
        const ui::RunOutcome outcome = outcomeAt(finished, 0);
        QVERIFY(!outcome.stopped);
        QCOMPARE(outcome.chains.front().summary.iterations, std::int64_t{2000});
        // Idle again: the next run is accepted.
        QVERIFY(runs.start(barkerRun(100)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QCOMPARE(runs.state(), ui::RunState::Idle);
    }

    void secondStartIsRefusedWhileRunning()
    {
        ui::RunController runs;
        QSignalSpy states(&runs, &ui::RunController::stateChanged);
        QSignalSpy starting(&runs, &ui::RunController::runStarting);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QVERIFY(!runs.start(barkerRun(100))); // still Preparing
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(!runs.start(barkerRun(100)));
        QCOMPARE(starting.count(), 1);
        QCOMPARE(runs.request().config.samples, kLongRun);
        runs.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(outcomeAt(finished, 0).config().samples, kLongRun);
        QCOMPARE(statesSeen(states), (QStringList{"Preparing", "Running", "Stopping", "Idle"}));
    }

    void pauseHoldsAndStepAdvances()
    {
        ui::RunController runs;
        QSignalSpy snapshots(runs.worker(), &ui::SamplerWorker::snapshot);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(!runs.step()); // only while paused
        QVERIFY(runs.pause());
        QCOMPARE(runs.state(), ui::RunState::Paused);
        QVERIFY(runs.worker()->isPaused());
        QVERIFY(!runs.pause()); // already paused
        QTest::qWait(300);      // let a snapshot already on its way arrive
        const auto held = snapshots.count();
        QTest::qWait(300);
        QCOMPARE(snapshots.count(), held);
        QVERIFY(runs.step());
        QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), held + 1, 5000);
        QCOMPARE(runs.state(), ui::RunState::Paused);
        // Steps in quick succession each show: the snapshot interval (40 ms) must not swallow the
        // second and third, which would then stay unseen until the run resumed.
        for (int step = 0; step < 3; ++step)
            QVERIFY(runs.step());
        QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), held + 4, 5000);
        QTest::qWait(200);
        QCOMPARE(snapshots.count(), held + 4); // one each, and nothing more while paused
        QVERIFY(runs.resume());
        QCOMPARE(runs.state(), ui::RunState::Running);
        QVERIFY(!runs.worker()->isPaused());
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > held + 4, kRunTimeoutMs);
        // A stop also ends a pause.
        QVERIFY(runs.pause());
        runs.stop();
        QCOMPARE(runs.state(), ui::RunState::Stopping);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QVERIFY(outcomeAt(finished, 0).stopped);
    }

    // FlyMC's brightness variables are state carried from one iteration to the next (Maclaurin &
    // Adams 2014, Sec. 3). Paused, stepped one iteration at a time and resumed, a run must carry
    // that state through, and so make exactly the draws of the same run left alone.
    void fireflyPausedSteppedAndResumedMakesTheUninterruptedDraws()
    {
        core::RunConfig config;
        config.dataset = "tall-logreg";
        config.nData = 20'000;
        config.dimension = 3;
        config.method = core::TestMethod::Firefly;
        config.temperature = 1.0;
        config.step = 0.01;
        config.samples = 150'000;
        config.seed = 7;
        const auto drawsOf = [](const ui::RunOutcome &outcome) {
            const core::ChainResult &chain = *outcome.chains.front().result;
            return Eigen::MatrixXd(chain.samples.topRows(static_cast<Eigen::Index>(chain.completed)));
        };

        ui::RunController alone;
        QSignalSpy aloneFinished(&alone, &ui::RunController::runFinished);
        QVERIFY(alone.start(ui::RunRequest::single(config)));
        QTRY_COMPARE_WITH_TIMEOUT(aloneFinished.count(), 1, kRunTimeoutMs);
        const Eigen::MatrixXd expected = drawsOf(outcomeAt(aloneFinished, 0));
        QCOMPARE(expected.rows(), Eigen::Index{150'000});

        ui::RunController held;
        QSignalSpy snapshots(held.worker(), &ui::SamplerWorker::snapshot);
        QSignalSpy heldFinished(&held, &ui::RunController::runFinished);
        QVERIFY(held.start(ui::RunRequest::single(config)));
        QTRY_COMPARE_WITH_TIMEOUT(held.state(), ui::RunState::Running, kRunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        QVERIFY(held.pause());
        QTest::qWait(300); // let a snapshot already on its way arrive
        for (int step = 1; step <= 3; ++step) {
            const auto before = snapshots.count();
            QVERIFY(held.step());
            QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > before, kRunTimeoutMs);
        }
        QVERIFY(held.resume());
        QTRY_COMPARE_WITH_TIMEOUT(heldFinished.count(), 1, kRunTimeoutMs);
        const ui::RunOutcome outcome = outcomeAt(heldFinished, 0);
        QVERIFY(!outcome.stopped);
        const Eigen::MatrixXd draws = drawsOf(outcome);
        QCOMPARE(draws.rows(), expected.rows());
        QVERIFY2(draws == expected, "the paused run's draws differ from the uninterrupted run's");
        // The chain moved: the equality is not that of two chains stuck at their start.
        QVERIFY((expected.row(0) - expected.row(expected.rows() - 1)).norm() > 0.0);
    }

    void stopEndsInIdleWithStoppedOutcome()
    {
        ui::RunController runs;
        QSignalSpy states(&runs, &ui::RunController::stateChanged);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        runs.stop();
        QCOMPARE(runs.state(), ui::RunState::Stopping);
        QVERIFY(runs.isActive());
        QVERIFY(!runs.scheduleRestart(QStringLiteral("N"))); // the stop wins
        QVERIFY(!runs.pause());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(runs.state(), ui::RunState::Idle);
        const ui::RunOutcome outcome = outcomeAt(finished, 0);
        QVERIFY(outcome.stopped);
        QVERIFY(outcome.chains.front().summary.iterations > 0);
        QVERIFY(outcome.chains.front().summary.iterations < kLongRun);
        QCOMPARE(statesSeen(states), (QStringList{"Preparing", "Running", "Stopping", "Idle"}));
        QCOMPARE(runs.restartCount(), 0);
    }

    void restartDuringRunEndsInNewRun()
    {
        ui::RunController runs;
        ui::RunRequest next = barkerRun(kLongRun);
        next.config.nData = 30'000;
        runs.setRestartSource({[] { return QString(); }, [&runs, next] { return runs.start(next); }});
        QSignalSpy states(&runs, &ui::RunController::stateChanged);
        QSignalSpy starting(&runs, &ui::RunController::runStarting);
        QSignalSpy restarted(&runs, &ui::RunController::restarted);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(runs.scheduleRestart(QStringLiteral("N")));
        QVERIFY(runs.isRestartPending());
        QVERIFY(runs.scheduleRestart(QStringLiteral("the seed"))); // several edits, one restart
        QCOMPARE(runs.state(), ui::RunState::Running);             // until the delay runs out
        QTRY_COMPARE_WITH_TIMEOUT(runs.restartCount(), 1, kRunTimeoutMs);
        QCOMPARE(restarted.count(), 1);
        QCOMPARE(restarted.at(0).at(0).toString(), QStringLiteral("the seed"));
        QCOMPARE(starting.count(), 2);
        QCOMPARE(finished.count(), 0); // the stopped run gave way; it is not a result
        QVERIFY(runs.isActive());
        QCOMPARE(runs.request().config.nData, std::int64_t{30'000});
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QCOMPARE(statesSeen(states),
                 (QStringList{"Preparing", "Running", "Restarting", "Idle", "Preparing", "Running"}));
        runs.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(outcomeAt(finished, 0).config().nData, std::int64_t{30'000});
        QCOMPARE(runs.restartCount(), 1);
    }

    void restartWithoutSourceRunsTheSameRequestAgain()
    {
        ui::RunController runs;
        QSignalSpy starting(&runs, &ui::RunController::runStarting);
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(runs.scheduleRestart(QStringLiteral("N")));
        QTRY_COMPARE_WITH_TIMEOUT(runs.restartCount(), 1, kRunTimeoutMs);
        QCOMPARE(starting.count(), 2);
        QCOMPARE(starting.at(1).at(0).value<ui::RunRequest>().config.samples, kLongRun);
        QVERIFY(runs.isActive());
    }

    void restartThatCannotStartKeepsTheRun()
    {
        ui::RunController runs;
        bool startCalled = false;
        runs.setRestartSource({[] { return QStringLiteral("compare mode needs two methods"); },
                               [&startCalled] { return startCalled = true; }});
        QSignalSpy refused(&runs, &ui::RunController::restartRefused);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(runs.scheduleRestart(QStringLiteral("compare mode")));
        QTRY_COMPARE_WITH_TIMEOUT(refused.count(), 1, kRunTimeoutMs);
        QCOMPARE(refused.at(0).at(0).toString(), QStringLiteral("compare mode"));
        QCOMPARE(runs.state(), ui::RunState::Running);
        QCOMPARE(runs.restartCount(), 0);
        QVERIFY(!startCalled);
        runs.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QVERIFY(outcomeAt(finished, 0).stopped);
    }

    void stopDuringRestartKeepsTheOldRun()
    {
        ui::RunController runs;
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QSignalSpy states(&runs, &ui::RunController::stateChanged);
        // Stop as soon as the restart begins stopping the chains, before they have reported.
        connect(&runs, &ui::RunController::stateChanged, &runs, [&runs](ui::RunState state) {
            if (state == ui::RunState::Restarting)
                runs.stop();
        });
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(runs.scheduleRestart(QStringLiteral("N")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QVERIFY(outcomeAt(finished, 0).stopped);
        QCOMPARE(runs.restartCount(), 0);
        QCOMPARE(statesSeen(states), (QStringList{"Preparing", "Running", "Restarting", "Stopping", "Idle"}));
    }

    void resetStopsThenClears()
    {
        ui::RunController runs;
        QSignalSpy cleared(&runs, &ui::RunController::cleared);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        QSignalSpy states(&runs, &ui::RunController::stateChanged);
        runs.reset(); // nothing running: cleared at once
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(states.count(), 0);

        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        QVERIFY(runs.scheduleRestart(QStringLiteral("N")));
        runs.reset();
        QCOMPARE(runs.state(), ui::RunState::Resetting);
        QVERIFY(!runs.isRestartPending()); // a reset cancels a pending restart
        QCOMPARE(cleared.count(), 1);      // only once the chains have stopped
        QTRY_COMPARE_WITH_TIMEOUT(cleared.count(), 2, kRunTimeoutMs);
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(runs.restartCount(), 0);
        QCOMPARE(statesSeen(states), (QStringList{"Preparing", "Running", "Resetting", "Idle"}));
    }

    void failureReturnsToIdle()
    {
        ui::RunController runs;
        QSignalSpy failed(&runs, &ui::RunController::runFailed);
        QSignalSpy finished(&runs, &ui::RunController::runFinished);
        core::RunConfig bad = smallConfig(core::TestMethod::Barker, 100);
        bad.temperature = 0.0; // the controller leaves validation to its caller; the worker refuses
        QVERIFY(runs.start(ui::RunRequest::single(bad)));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kRunTimeoutMs);
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QCOMPARE(finished.count(), 0);
        QVERIFY(runs.start(barkerRun(100)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    }

    void shutDownJoinsAndRefusesRuns()
    {
        ui::RunController runs;
        QVERIFY(runs.start(barkerRun(kLongRun)));
        QTRY_COMPARE_WITH_TIMEOUT(runs.state(), ui::RunState::Running, kRunTimeoutMs);
        runs.shutDown();
        QVERIFY(runs.isShutDown());
        QVERIFY(!runs.isWorkerThreadRunning());
        QCOMPARE(runs.state(), ui::RunState::Idle);
        QVERIFY(runs.worker() == nullptr);
        QTest::qWait(50); // late queued signals are harmless
        QVERIFY(!runs.start(barkerRun(10)));
        QVERIFY(!runs.pause());
        runs.stop();
        QCOMPARE(runs.state(), ui::RunState::Idle);
    }

private:
    QTemporaryDir m_cacheDir;
};

MHX_GUI_TEST_MAIN(tst_RunController)
#include "tst_run_controller.moc"
