// AustereMH in the desktop app: the non-conservative variant and the conservative one under an
// error bound both need the design grid, which the worker loads or tabulates (and caches)
// before the chains start; a missing bound is reported before anything runs.
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "core/acceptance/austere_design_cache.h"
#include "ui/panel/control_panel.h"
#include "ui/main_window.h"
#include "ui/run/run_status_strip.h"
#include "tests/support/small_runs.h"

using testruns::kRunTimeoutMs;
using testruns::smallConfig;

class tst_AustereRuns : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    void nonConservativeNeedsABound()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy failed(&window, &ui::MainWindow::runFailed);
        core::RunConfig config = smallConfig(core::TestMethod::AustereNonConservative, 200);
        QVERIFY(!window.startRun(config));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(window.lastError().contains(QStringLiteral("AustereMH |ΔP| bound")), qPrintable(window.lastError()));
        QVERIFY(!window.isRunning());
    }

    // austere-nc and austere-c under a bound side by side: one grid serves both, the
    // conservative design is chosen from a pilot, and the second run takes the grid from the cache.
    void compareRunsWithTheDesignGrid()
    {
        core::RunConfig config = smallConfig(core::TestMethod::AustereNonConservative, 300);
        config.austereErrorBound = 0.01;
        ui::RunRequest request = ui::RunRequest::single(config);
        request.methods = {core::TestMethod::AustereNonConservative, core::TestMethod::AustereConservative};
        for (int round = 0; round < 2; ++round) {
            ui::MainWindow window;
            window.setShowErrorDialogs(false);
            QSignalSpy finished(&window, &ui::MainWindow::runFinished);
            QSignalSpy failed(&window, &ui::MainWindow::runFailed);
            QVERIFY(window.startRequest(request));
            QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() == 1, kRunTimeoutMs);
            QVERIFY2(failed.isEmpty(), qPrintable(window.lastError()));
            const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
            QVERIFY(!outcome.stopped);
            QCOMPARE(outcome.chains.size(), std::size_t{2});
            // The non-conservative test reads the full data every iteration to design itself.
            const core::ChainSummary &adaptive = outcome.chains[0].summary;
            QCOMPARE(outcome.chains[0].method, core::TestMethod::AustereNonConservative);
            QCOMPARE(adaptive.fullScanPoints, adaptive.iterations * config.nData);
            QVERIFY(adaptive.meanBatch() > 0.0 && adaptive.meanBatch() <= static_cast<double>(config.nData));
            const QString note = QString::fromStdString(outcome.austereNote);
            QVERIFY2(note.contains(QStringLiteral("AustereMH(c) design m = ")), qPrintable(note));
            QVERIFY(window.statusText().contains(note));
            const QString grid = round == 0 ? QStringLiteral("tabulated and cached") : QStringLiteral("from the cache");
            QVERIFY2(note.contains(grid), qPrintable(note));
            // The chosen design is part of the run's settings, so exports record it.
            const core::RunConfig used = outcome.request.channelConfig(1);
            QVERIFY(used.austere.batch >= 50 && used.austere.batch <= 500);
        }
        QVERIFY(core::AustereDesignCache::fromEnvironment().load(config.nData).has_value());
    }

    // AustereMH(c) under a bound chose its design for the run's T: a new T restarts the run
    // (with a new design) instead of silently breaking the bound.
    void boundedDesignRestartsOnTemperatureChange()
    {
        core::RunConfig config = smallConfig(core::TestMethod::AustereConservative, 1'000'000);
        config.austereErrorBound = 0.01;
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
        QSignalSpy segments(&window, &ui::MainWindow::segmentStarted);
        QVERIFY(window.startRun(config));
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
        window.controls()->temperatureBox()->setValue(400.0);
        QTRY_COMPARE_WITH_TIMEOUT(window.restartCount(), 1, kRunTimeoutMs);
        QVERIFY2(window.statusStrip()->notice().contains(QStringLiteral("AustereMH(c)'s design")),
                 qPrintable(window.statusStrip()->notice()));
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QCOMPARE(segments.count(), 0); // no live segment: a new run at the new T
        QCOMPARE(finished.at(0).at(0).value<ui::RunOutcome>().config().temperature, 400.0);
    }

private:
    QTemporaryDir m_cacheDir;
};

MHX_GUI_TEST_MAIN(tst_AustereRuns)
#include "tst_austere_runs.moc"
