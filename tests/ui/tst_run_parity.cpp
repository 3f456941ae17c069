// The window and the CLI are callers of one run service: the same request through the GUI's
// worker (on its thread, observed through queued signals) and through core::runRequest (as the
// CLI calls it) must give the same chains and the same summary, up to wall-clock figures.
#include <QtTest>

#include <QSignalSpy>
#include <QThread>

#include "tests/support/gui_test_main.h"
#include "core/experiment/reports/run_report.h"
#include "core/experiment/service/run_service.h"
#include "tests/support/small_runs.h"
#include "ui/files/run_export.h"
#include "ui/run/sampler_worker.h"

namespace {

// Figures that measure the machine, not the chain, and where the correction table came from
// (the first of the two runs solves it, the second reads the cache).
void dropTimings(nlohmann::ordered_json &json)
{
    json.erase("program");
    json.erase("correction_from_cache");
    json.erase("data_seconds");
    for (auto &setup : json["control_variates_setup"])
        setup.erase("seconds");
    for (auto &chain : json["chains"])
        for (const char *key : {"wall_seconds", "full_scan_seconds", "iterations_per_second", "ess_per_second",
                                "ess_per_sampling_second", "classifier_evaluations", "classifier_seconds"})
            chain.erase(key);
    if (json.contains("pooled"))
        for (auto &pooled : json["pooled"])
            for (const char *key : {"wall_seconds", "ess_per_second"})
                pooled.erase(key);
}

} // namespace

class tst_RunParity : public QObject {
    Q_OBJECT

private slots:
    void workerAndServiceAgree_data()
    {
        QTest::addColumn<QString>("dataset");
        QTest::newRow("mixture, two methods, two chains") << QStringLiteral("gmm");
        QTest::newRow("worst-case Gaussian") << QStringLiteral("worst-case");
    }

    void workerAndServiceAgree()
    {
        QFETCH(QString, dataset);
        ui::RunRequest request;
        request.config = testruns::smallConfig(core::TestMethod::Minibatch, 800);
        request.config.dataset = dataset.toStdString();
        request.config.correction.grid = 1000;
        if (dataset == QLatin1String("worst-case")) {
            request.config.temperature = 1.0;
            request.config.step = 1.0 / std::sqrt(static_cast<double>(request.config.nData));
        }
        request.methods = {core::TestMethod::Minibatch, core::TestMethod::Barker};
        request.chains = 2;
        request.parallel = true;

        QThread thread;
        auto *worker = new ui::SamplerWorker;
        worker->moveToThread(&thread);
        connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
        thread.start();
        QSignalSpy finished(worker, &ui::SamplerWorker::finished);
        QSignalSpy failed(worker, &ui::SamplerWorker::runFailed);
        QSignalSpy snapshots(worker, &ui::SamplerWorker::snapshot);
        QVERIFY(QMetaObject::invokeMethod(worker, [worker, request] { worker->startRequest(request); },
                                          Qt::QueuedConnection));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, testruns::kRunTimeoutMs);
        thread.quit();
        thread.wait();
        QCOMPARE(failed.count(), 0);
        QVERIFY(snapshots.count() >= 4);
        const auto fromWindow = finished.at(0).at(0).value<ui::RunOutcome>();

        const core::RunOutcome fromCli = core::runRequest(request);
        QCOMPARE(fromWindow.chains.size(), fromCli.chains.size());
        for (std::size_t k = 0; k < fromCli.chains.size(); ++k)
            QVERIFY(fromWindow.chains[k].result->samples == fromCli.chains[k].result->samples);
        nlohmann::ordered_json window = core::runSummaryJson(fromWindow, ui::kProgramName);
        nlohmann::ordered_json cli = core::runSummaryJson(fromCli, "mh-explorer-cli run");
        dropTimings(window);
        dropTimings(cli);
        QVERIFY2(window == cli, (window.dump(1) + "\n---\n" + cli.dump(1)).c_str());
    }
};

MHX_GUI_TEST_MAIN(tst_RunParity)
#include "tst_run_parity.moc"
