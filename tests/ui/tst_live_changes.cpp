// Changing settings during a run, offscreen: temperature, step and the acceptance test (σ,
// method, …) apply to the running chain as new, marked segments; the data restart the run;
// Reset clears everything.
#include <QComboBox>
#include <QElapsedTimer>
#include <QLocale>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/panel/compare_box.h"
#include "ui/run/continuous_controls.h"
#include "ui/panel/control_panel.h"
#include "ui/pages/diagnostics_table.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "core/chain/chain_runner.h"
#include "core/experiment/reports/run_report.h"
#include "ui/files/run_export.h"
#include "ui/run/run_status_strip.h"
#include "ui/run/scripted_run.h"
#include "ui/charts/trace_chart.h"
#include "tests/support/small_runs.h"

using testruns::kRunTimeoutMs;
using testruns::smallConfig;

class tst_LiveChanges : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    // Edits go through the panel's boxes as a user's would: T, then the step, each becomes a
    // segment starting after the iterations already shown, drawn as a dashed line.
    void temperatureAndStepMakeSegments()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        // The worker emits its images on its own threads (the sampler's and the heat-map
        // render's), and a QSignalSpy on it would append there while this thread polls it:
        // count them on this thread instead, through a queued connection.
        int images = 0;
        connect(window.worker(), &ui::SamplerWorker::posteriorImageReady, &window, [&images] { ++images; });
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(images, 1, kRunTimeoutMs);
        const qint64 before = snapshots.last().at(0).toLongLong();

        window.controls()->temperatureBox()->setValue(400.0);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 1, kRunTimeoutMs);
        auto first = segments.at(0).at(1).value<core::ChainSegment>();
        QCOMPARE(first.temperature, 400.0);
        QCOMPARE(first.step, 0.15);
        QVERIFY(first.start >= before);
        QTRY_COMPARE_WITH_TIMEOUT(images, 2, kRunTimeoutMs); // heat map of the new target
        QVERIFY(window.statusText().contains(QStringLiteral("Temperature")));

        window.controls()->proposalStepBox()->setValue(0.3);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 2, kRunTimeoutMs);
        const auto second = segments.at(1).at(1).value<core::ChainSegment>();
        QCOMPARE(second.temperature, 400.0);
        QCOMPARE(second.step, 0.3);
        QVERIFY(second.start > first.start);
        QCOMPARE(window.results()->traceChart()->segmentMarkCount(), 2);

        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
        const auto &chain = *outcome.chains.front().result;
        QCOMPARE(chain.segments.size(), std::size_t(3));
        QCOMPARE(chain.segments[1].start, first.start);
        QCOMPARE(window.restartCount(), 0);
    }

    // The scripted mid-run change with the adaptive proposal: T falls tenfold after the
    // burn-in. The strip predicts the cost at once, the step is rescaled by √(1/10) in a marked
    // re-learning segment, and the final segment's acceptance is back near the burn-in's
    // target, where the old frozen step collapsed it; the strip shows that segment's figures
    // beside the run's while it runs.
    void adaptiveStepFollowsALiveTemperature()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        core::RunConfig config = smallConfig(core::TestMethod::Minibatch, 60'000);
        config.proposal = core::ProposalKind::Adaptive;
        config.burnIn = 6000;
        QVERIFY(window.startRun(config));
        // After the burn-in: the change hits a frozen, learned step.
        QTRY_VERIFY_WITH_TIMEOUT(!snapshots.isEmpty() && snapshots.last().at(0).toLongLong() > 8000, kRunTimeoutMs);
        QVERIFY(window.applyLiveTemperature(20.0));
        const QString prediction = window.statusStrip()->prediction();
        QVERIFY2(prediction.contains(QStringLiteral("T 200 → 20")) && prediction.contains(QStringLiteral("predicted")),
                 qPrintable(prediction));
        QTRY_VERIFY_WITH_TIMEOUT(window.statusStrip()->figuresText().contains(QStringLiteral("since iteration")),
                                 kRunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
        const core::ChainResult &chain = *outcome.chains.front().result;
        QCOMPARE(chain.segments.size(), std::size_t(4)); // burn-in, T = 200, re-learning, T = 20
        QVERIFY(chain.segments[0].burnIn);
        QVERIFY(chain.segments[2].relearning);
        QCOMPARE(chain.segments[2].temperature, 20.0);
        QVERIFY(std::abs(chain.segments[2].step / chain.segments[1].step - std::sqrt(0.1)) < 1e-12);
        QCOMPARE(chain.segments[3].start - chain.segments[2].start, core::relearnLength(config.burnIn));
        QVERIFY(!chain.segments[3].relearning);
        QCOMPARE(chain.finalSegmentStart(), chain.segments[3].start);
        qint64 accepted = 0;
        for (std::int64_t t = chain.segments[3].start; t < chain.completed; ++t)
            accepted += chain.accepted[static_cast<std::size_t>(t)];
        const double rate = static_cast<double>(accepted) / static_cast<double>(chain.completed - chain.segments[3].start);
        QVERIFY2(std::abs(rate - config.adaptTarget) < 0.07, qPrintable(QString::number(rate)));
        // The trace marks both: where the re-learning began and where the figures start.
        QCOMPARE(segments.count(), 3);
    }

    // The cost row's measured pace is the pace since the change alone. T falls from 200 to 0.5 on
    // N = 20,000, so each test then reads most of N and the chain slows many times over; a pace
    // taken over the last second straddled the change at first and reported the old speed
    // (4,436 it/s measured where the chain ran about 100). The row's figure must agree with the
    // iterations counted here from the first snapshot of the new segment over the time since.
    void measuredCostIsTheChangesOwnPace()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Minibatch, 50'000'000)));
        QTRY_VERIFY_WITH_TIMEOUT(!snapshots.isEmpty() && snapshots.last().at(0).toLongLong() > 20'000, kRunTimeoutMs);
        // Counted from the first snapshot that shows the new segment: the iterations before it
        // may have run at the old speed (the chain takes the change at its next iteration).
        QElapsedTimer sinceChange;
        qint64 before = -1;
        bool changed = false;
        connect(&window, &ui::MainWindow::segmentStarted, &window, [&changed] { changed = true; });
        connect(&window, &ui::MainWindow::snapshotApplied, &window, [&](qint64 completed) {
            if (changed && before < 0) {
                before = completed;
                sinceChange.start();
            }
        });
        QVERIFY(window.applyLiveTemperature(0.5));
        QTRY_VERIFY_WITH_TIMEOUT(window.statusStrip()->prediction().contains(QStringLiteral("Measured since")),
                                 kRunTimeoutMs);
        QVERIFY(before >= 0);
        const double seconds = static_cast<double>(sinceChange.elapsed()) / 1000.0;
        const qint64 after = snapshots.last().at(0).toLongLong();
        const QString row = window.statusStrip()->prediction();
        window.stopRun();
        const QRegularExpressionMatch match =
            QRegularExpression(QStringLiteral("([0-9][0-9,.]*) it/s over all chains")).match(row);
        QVERIFY2(match.hasMatch(), qPrintable(row));
        const double shown = QLocale().toDouble(match.captured(1));
        // The row's pace and the count here start at the same snapshot, so the two agree within
        // a factor that allows for the snapshots' timing; the old speed is tens of times faster.
        const double counted = static_cast<double>(after - before) / seconds;
        QVERIFY2(shown < 3.0 * counted + 10.0 && shown > counted / 3.0,
                 qPrintable(QStringLiteral("shown %1 it/s, counted %2 since the change (%3 s): %4")
                                .arg(shown)
                                .arg(counted)
                                .arg(seconds)
                                .arg(row)));
    }

    // A complete run with a change: the posterior metrics, ESS and exports follow the segments.
    void completedRunReportsFinalSegment()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Minibatch, 150'000)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        QVERIFY(window.applyLiveTemperature(300.0));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
        QVERIFY(!outcome.stopped);
        QCOMPARE(segments.count(), 1);
        const ui::ChainReport &report = outcome.chains.front();
        const core::ChainResult &chain = *report.result;
        QCOMPARE(chain.segments.size(), std::size_t(2));
        const std::int64_t start = chain.finalSegmentStart();
        QVERIFY(start > 0 && start < chain.completed);
        QVERIFY(report.hasPosteriorMetrics);
        QCOMPARE(report.posterior.samples, chain.completed - start);
        QCOMPARE(report.bulkEss.size(), std::size_t{2});
        // The diagnostics row says its figures belong to another target than the settings'.
        const ui::DiagnosticsTable *table = window.results()->diagnosticsTable();
        QString rowText;
        for (int column = 0; column < table->columnCount(); ++column)
            if (const QTableWidgetItem *cell = table->item(0, column))
                rowText += cell->text() + QLatin1Char('|');
        QVERIFY2(rowText.contains(QStringLiteral("T = 300, step 0.15; 2 segments")), qPrintable(rowText));

        QTemporaryDir dir;
        const QStringList files = ui::writeRunSamples(outcome, dir.filePath(QStringLiteral("samples.csv")));
        QFile csv(files.front());
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        QVERIFY(text.contains(QStringLiteral("# segment.2 = start=%1 temperature=300 step=0.15").arg(start)));
        // lp__ of a row after the change is the tempered log-posterior at T = 300.
        const QStringList rows = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const qsizetype header = rows.indexOf(rows.filter(QStringLiteral("lp__")).front());
        const QStringList last = rows[header + chain.completed].split(QLatin1Char(','));
        const double theta1 = chain.samples(chain.completed - 1, 0), theta2 = chain.samples(chain.completed - 1, 1);
        QCOMPARE(last.front().toDouble(), outcome.posterior->logDensity(theta1, theta2, 300.0));
        const QString json = QString::fromStdString(core::runSummaryJson(outcome, ui::kProgramName).dump(2));
        QVERIFY2(json.contains(QStringLiteral("\"segments\": 2")), qPrintable(json));
    }

    // Compare mode, one chain after the other: a change during the first chain reaches the
    // second from its first iteration, and its samples file says so.
    void laterChainsStartWithTheNewValues()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        ui::RunRequest request = ui::RunRequest::single(smallConfig(core::TestMethod::Barker, 20'000));
        request.methods = {core::TestMethod::Barker, core::TestMethod::Minibatch};
        QVERIFY(window.startRequest(request));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        QVERIFY(window.applyLiveTemperature(300.0));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
        QCOMPARE(outcome.chains.size(), std::size_t{2});
        const core::ChainResult &second = *outcome.chains[1].result;
        QCOMPARE(second.segments.size(), std::size_t(1));
        QCOMPARE(second.segments[0].temperature, 300.0);
        QVERIFY(outcome.chains[1].hasPosteriorMetrics); // measured against the T = 300 posterior

        QTemporaryDir dir;
        const QStringList files = ui::writeRunSamples(outcome, dir.filePath(QStringLiteral("s.csv")));
        QCOMPARE(files.size(), qsizetype{2});
        QFile csv(files[1]);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        QVERIFY2(text.contains(QStringLiteral("# segment.1 = start=0 temperature=300 step=0.15")), qPrintable(text.left(1500)));
    }

    // The scripted mode's half-way temperature change, used for documentation figures.
    void scriptedRunChangesTemperatureHalfWay()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        ui::ScriptOptions options;
        options.request = ui::RunRequest::single(smallConfig(core::TestMethod::Minibatch, 100'000));
        options.midRunTemperature = 500.0;
        ui::ScriptedRun script(&window, options);
        QSignalSpy done(&script, &ui::ScriptedRun::done);
        script.start();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kRunTimeoutMs);
        QCOMPARE(done.at(0).at(0).toInt(), 0);
        const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
        const core::ChainResult &chain = *outcome.chains.front().result;
        QCOMPARE(chain.segments.size(), std::size_t(2));
        QVERIFY(chain.segments[1].start >= 50'000);
        QCOMPARE(chain.segments[1].temperature, 500.0);
        QCOMPARE(window.controls()->temperatureBox()->value(), 500.0);
        QCOMPARE(window.results()->traceChart()->segmentMarkCount(), 1);
    }

    // σ and the method change the acceptance test, not the target: a fixed-length run goes on
    // from where it is as a new segment, keeps its iteration count, and its report names the
    // test it ended with.
    void kernelChangesContinueAFixedLengthRun()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        const std::int64_t samples = 400'000;
        // At most 20,000 iterations a second, so that the run (20 s at least, stopped below) is
        // still sampling when both changes land on a fast machine: σ's new correction table is
        // solved first, which takes seconds on a loaded one.
        window.continuousControls()->setPace(20'000.0);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Minibatch, samples)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);

        window.controls()->correctionBox()->sigmaBox()->setValue(0.6);
        // Read as soon as the change is applied: the run's end would replace the message.
        QTRY_VERIFY2_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("within 64 iterations")),
                                  qPrintable(window.statusText()), kRunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 1, kRunTimeoutMs);
        const auto sigmaSegment = segments.at(0).at(1).value<core::ChainSegment>();
        QVERIFY(sigmaSegment.kernelChanged);
        window.controls()->methodBox()->setCurrentIndex(window.controls()->methodBox()->findData(QStringLiteral("barker")));
        QTRY_COMPARE_WITH_TIMEOUT(segments.count(), 2, kRunTimeoutMs);
        QCOMPARE(window.restartCount(), 0);
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

        const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
        const ui::ChainReport &report = outcome.chains.front();
        QVERIFY((report.method == core::TestMethod::Barker));
        const core::ChainResult &chain = *report.result;
        QCOMPARE(chain.firstIteration, std::int64_t(0));
        QVERIFY(chain.completed > sigmaSegment.start && chain.completed < samples);
        QCOMPARE(chain.segments.size(), std::size_t(3));
        QCOMPARE(chain.segments[1].start, sigmaSegment.start);
        QVERIFY(chain.segments[1].kernelChanged && chain.segments[2].kernelChanged);
        // The iterations before the change read minibatches; those after the switch to the
        // exact Barker test read all 20,000 points each.
        QVERIFY(chain.batchSize.front() < 20'000);
        QCOMPARE(chain.batchSize[static_cast<std::size_t>(chain.completed - 1)], 20'000);
        QCOMPARE(window.results()->traceChart()->segmentMarkCount(), 2);
    }

    void otherSettingsRestart()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        window.controls()->dataSizeBox()->setValue(30'000);
        QVERIFY(window.statusText().contains(QStringLiteral("restart")));
        QVERIFY(window.runController()->isRestartPending());
        QTRY_COMPARE_WITH_TIMEOUT(window.restartCount(), 1, kRunTimeoutMs);
        QVERIFY(window.isRunning());
        QVERIFY(window.runState() == ui::RunState::Preparing || window.runState() == ui::RunState::Running);
        QVERIFY2(window.statusStrip()->notice().contains(QStringLiteral("Restarted because N changed")),
                 qPrintable(window.statusStrip()->notice()));
        QCOMPARE(finished.count(), 0); // the stopped run gave way; it is not reported as a result
        const qsizetype shownBefore = snapshots.count();
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > shownBefore, kRunTimeoutMs);
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(finished.at(0).at(0).value<ui::RunOutcome>().config().nData, std::int64_t(30'000));
    }

    // Settings that cannot start do not stop the run: the user is told, and it goes on.
    void invalidSettingsDoNotStopTheRun()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        ui::CompareBox *compare = window.controls()->compareBox();
        compare->setMethods({core::TestMethod::Barker}); // one ticked method: compare mode cannot run
        compare->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(window.lastError().contains(QStringLiteral("cannot restart")), kRunTimeoutMs);
        QVERIFY(window.isRunning());
        QCOMPARE(window.runState(), ui::RunState::Running);
        QCOMPARE(window.restartCount(), 0);
        const qsizetype shown = snapshots.count();
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > shown, kRunTimeoutMs); // still sampling
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QVERIFY(finished.at(0).at(0).value<ui::RunOutcome>().stopped);
    }

    void resetClearsChartsAndResults()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy resets(&window, &ui::MainWindow::resetDone);
        QCOMPARE(window.controls()->runButtons()->button(ui::RunButtons::Reset)->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 2000)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QVERIFY(window.plottedSampleCount() > 0);
        QVERIFY(window.lastOutcome().has_value());
        window.controls()->runButtons()->button(ui::RunButtons::Reset)->click();
        QCOMPARE(resets.count(), 1);
        QCOMPARE(window.plottedSampleCount(), qsizetype{0});
        QVERIFY(!window.lastOutcome().has_value());

        // Mid-run: the chains stop first, then everything clears; nothing is reported.
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        window.resetRun();
        QCOMPARE(window.runState(), ui::RunState::Resetting);
        QTRY_COMPARE_WITH_TIMEOUT(resets.count(), 2, kRunTimeoutMs);
        QCOMPARE(window.runState(), ui::RunState::Idle);
        QVERIFY(!window.isRunning());
        QCOMPARE(window.plottedSampleCount(), qsizetype{0});
        QCOMPARE(finished.count(), 1);
        QVERIFY(window.controls()->runButtons()->button(ui::RunButtons::Run)->isEnabled());
    }

private:
    QTemporaryDir m_cacheDir;
};

MHX_GUI_TEST_MAIN(tst_LiveChanges)
#include "tst_live_changes.moc"
