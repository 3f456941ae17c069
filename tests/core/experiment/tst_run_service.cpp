// The run service (core/experiment/run_service.h) is the one path from a request to figures
// for the CLI and the GUI: these tests hold it to what both rely on. Parallel and sequential
// runs give the same chains; the observer sees every step in order; a stop or a failure ends
// the request cleanly; the posterior is measured over the final segment at its own temperature;
// and a samples file's header gives back the settings that made it.
#include <QtTest>

#include <mutex>
#include <set>

#include "core/experiment/run_record.h"
#include "core/experiment/run_report.h"
#include "core/experiment/run_service.h"
#include "tests/support/small_runs.h"

using namespace core;

namespace {

RunRequest twoMethodsTwoChains(bool parallel)
{
    RunRequest request;
    request.config = testruns::smallConfig(TestMethod::Minibatch, 600);
    request.config.correction.grid = 1000;
    request.methods = {TestMethod::Minibatch, TestMethod::Barker};
    request.chains = 2;
    request.parallel = parallel;
    request.threads = parallel ? 2 : 0;
    return request;
}

// Records the calls, as the CLI's progress bars and the GUI's worker see them.
class RecordingObserver : public RunObserver {
public:
    std::mutex mutex;
    std::vector<RunStage> stages;
    bool dataReadyBeforeChains = true;
    bool sawData = false;
    std::set<int> started, finished;
    std::map<int, std::int64_t> lastProgress;

    void stageStarted(RunStage stage, const std::string &) override
    {
        const std::lock_guard lock(mutex);
        stages.push_back(stage);
    }
    void dataReady(const DatasetInstance &, const RunOutcome &outcome) override
    {
        const std::lock_guard lock(mutex);
        sawData = outcome.dataSize > 0 && outcome.componentNames.size() == 2;
    }
    void chainStarted(int channel, const RunConfig &) override
    {
        const std::lock_guard lock(mutex);
        dataReadyBeforeChains = dataReadyBeforeChains && sawData;
        started.insert(channel);
    }
    void chainProgress(int channel, const ChainResult &, std::int64_t, std::int64_t last) override
    {
        const std::lock_guard lock(mutex);
        lastProgress[channel] = last;
    }
    void chainFinished(const ChainReport &report) override
    {
        const std::lock_guard lock(mutex);
        QVERIFY(finished.insert(report.channel).second);
    }
};

} // namespace

class tst_RunService : public QObject {
    Q_OBJECT

private slots:
    void parallelChainsEqualSequentialOnes()
    {
        const RunOutcome sequential = runRequest(twoMethodsTwoChains(false));
        const RunOutcome parallel = runRequest(twoMethodsTwoChains(true));
        QCOMPARE(sequential.chains.size(), std::size_t{4});
        QCOMPARE(parallel.chains.size(), std::size_t{4});
        std::set<std::uint64_t> seeds;
        for (std::size_t k = 0; k < 4; ++k) {
            const ChainReport &a = sequential.chains[k], &b = parallel.chains[k];
            QCOMPARE(a.channel, static_cast<int>(k));
            QCOMPARE(b.channel, static_cast<int>(k));
            QCOMPARE(a.method, k < 2 ? TestMethod::Minibatch : TestMethod::Barker);
            QCOMPARE(a.seed, std::uint64_t{7} + k % 2); // chain k of every method: seed + k
            seeds.insert(a.seed);
            QVERIFY(a.result->samples == b.result->samples);
            QCOMPARE(a.summary.meanBatch, b.summary.meanBatch);
            QCOMPARE(a.summary.acceptanceRate, b.summary.acceptanceRate);
            QCOMPARE(a.bulkEss, b.bulkEss);
            QVERIFY(a.hasPosteriorMetrics && b.hasPosteriorMetrics);
            QCOMPARE(a.posterior.totalVariation, b.posterior.totalVariation);
            QCOMPARE(a.splitRhat, b.splitRhat);
            QVERIFY(std::isfinite(a.splitRhat));
        }
        QCOMPARE(seeds.size(), std::size_t{2});
        // One R-hat per method, over its chains.
        QCOMPARE(sequential.chains[0].splitRhat, sequential.chains[1].splitRhat);
        QVERIFY(sequential.usedCorrection && sequential.correctionLinf < 1e-4);
        QVERIFY(sequential.posterior);
        QCOMPARE(sequential.posterior->temperature(), 200.0);
    }

    void observerSeesEveryStepInOrder()
    {
        RecordingObserver observer;
        const RunRequest request = twoMethodsTwoChains(true);
        const RunOutcome outcome = runRequest(request, observer);
        QVERIFY(!outcome.stopped);
        const std::vector<RunStage> expected = {RunStage::Data, RunStage::Correction, RunStage::Sampling,
                                                RunStage::Diagnostics};
        QVERIFY(observer.stages == expected);
        QVERIFY(observer.dataReadyBeforeChains);
        QCOMPARE(observer.started, (std::set<int>{0, 1, 2, 3}));
        QCOMPARE(observer.finished, (std::set<int>{0, 1, 2, 3}));
        for (int channel = 0; channel < 4; ++channel)
            QCOMPARE(observer.lastProgress[channel], request.config.samples);
    }

    void stopBeforeTheChainsReportsStopped()
    {
        std::stop_source stop;
        stop.request_stop();
        RunControls controls;
        controls.stop = stop.get_token();
        const RunOutcome outcome = runRequest(twoMethodsTwoChains(false), controls);
        QVERIFY(outcome.stopped);
        QVERIFY(outcome.chains.empty());
        QVERIFY(!outcome.posterior);
    }

    void stopDuringTheChainsKeepsWhatRan()
    {
        // The observer stops the request once the first chain has 100 rows.
        struct Stopper : RunObserver {
            std::stop_source stop;
            void chainProgress(int, const ChainResult &, std::int64_t, std::int64_t last) override
            {
                if (last >= 100)
                    stop.request_stop();
            }
        } stopper;
        RunRequest request = twoMethodsTwoChains(false);
        request.config.samples = 200'000;
        RunControls controls;
        controls.stop = stopper.stop.get_token();
        const RunOutcome outcome = runRequest(request, stopper, controls);
        QVERIFY(outcome.stopped);
        QCOMPARE(outcome.chains.size(), std::size_t{1}); // the others never started
        QVERIFY(outcome.chains[0].result->stopped);
        QVERIFY(outcome.chains[0].summary.iterations < 200'000);
        QVERIFY(!outcome.chains[0].hasPosteriorMetrics); // a stopped chain is not measured
    }

    void droppedSamplesKeepTheFigures()
    {
        RunRequest request = twoMethodsTwoChains(false);
        request.keepSamples = false;
        const RunOutcome outcome = runRequest(request);
        QCOMPARE(outcome.chains.size(), std::size_t{4});
        for (const ChainReport &chain : outcome.chains) {
            QCOMPARE(chain.result->samples.rows(), Eigen::Index{0});
            QCOMPARE(chain.result->completed, request.config.samples);
            QVERIFY(chain.summary.meanBatch > 0.0);
            QVERIFY(chain.hasPosteriorMetrics);
            QVERIFY(std::isnan(chain.splitRhat));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writeRunSamples(outcome, "/tmp/never-written.csv", "test"));
    }

    // After an annealing burn-in the chain targets config.temperature from segment 2 on: the
    // metrics cover exactly those rows, against the posterior at that temperature.
    void posteriorMetricsCoverTheFinalSegment()
    {
        RunRequest request = RunRequest::single(testruns::smallConfig(TestMethod::Barker, 1500));
        request.config.burnIn = 500;
        request.config.annealFrom = 20'000.0;
        const RunOutcome outcome = runRequest(request);
        const ChainReport &chain = outcome.chains.front();
        QVERIFY(chain.hasPosteriorMetrics);
        QCOMPARE(chain.posterior.samples, std::int64_t{1000});
        QCOMPARE(chain.result->finalSegmentStart(), std::int64_t{500});
        QCOMPARE(outcome.posterior->temperature(), 200.0);
    }

    void invalidRequestsAreRefusedBeforeAnyWork_data()
    {
        QTest::addColumn<int>("chains");
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("repeatMethod");
        QTest::addColumn<QString>("named");
        QTest::newRow("no chains") << 0 << 0 << false << "chains";
        QTest::newRow("too many chains") << RunRequest::kMaxChains + 1 << 0 << false << "chains";
        QTest::newRow("negative threads") << 1 << -1 << false << "threads";
        QTest::newRow("repeated method") << 1 << 0 << true << "methods";
    }

    void invalidRequestsAreRefusedBeforeAnyWork()
    {
        QFETCH(int, chains);
        QFETCH(int, threads);
        QFETCH(bool, repeatMethod);
        QFETCH(QString, named);
        RunRequest request = twoMethodsTwoChains(false);
        request.chains = chains;
        request.threads = threads;
        if (repeatMethod)
            request.methods = {TestMethod::Barker, TestMethod::Barker};
        RecordingObserver observer;
        try {
            runRequest(request, observer);
            QFAIL("no exception");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString(error.what()).startsWith(named), error.what());
        }
        QVERIFY(observer.stages.empty());
    }

    // Every setting runSettings writes comes back from the header, so a samples file can be
    // run again; a value that does not parse is named by its key.
    void settingsComeBackFromTheHeader()
    {
        RunConfig config;
        config.dataset = "logreg";
        config.method = TestMethod::SubLhd;
        config.samples = 1234;
        config.seed = 18'446'744'073'709'551'615ull;
        config.dataSeed = 9;
        config.temperature = 0.1 + 0.2; // not exactly representable in decimal
        config.step = 1.0 / 3.0;
        config.burnIn = 100;
        config.annealFrom = 50.0;
        config.minibatch.initialBatch = 64;
        config.minibatch.finitePopulationCorrection = false;
        config.correction.sigma = 0.7;
        config.correction.solver = CorrectionSolver::Ridge;
        config.sublhd.batch = 64;
        config.sublhd.useModelBound = true;
        config.traceStride = 7;
        config.logreg.source = "fashion-mnist";
        config.logreg.classes = {3, 8};
        config.logreg.testSize = 321;
        config.logreg.splitSeed = 9;
        config.logreg.augmentTo = 5000;
        config.logreg.model.priorSd = 2.5;
        config.logreg.model.bias = true;
        const CsvMetadata header = toMetadata(runSettings(config));
        const RunConfig back = runConfigFromMetadata(header);
        QVERIFY(toMetadata(runSettings(back)) == header);
        QCOMPARE(back.temperature, config.temperature);
        QCOMPARE(back.seed, config.seed);
        QCOMPARE(back.logreg.classes, config.logreg.classes);

        CsvMetadata broken = header;
        for (auto &[key, value] : broken)
            if (key == "samples")
                value = "12x";
        try {
            runConfigFromMetadata(broken);
            QFAIL("no exception");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QString(error.what()).startsWith("samples"), error.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runConfigFromMetadata({{"description", "no settings"}}));
    }

    // The summary's schema: settings at the top, one entry per chain with the figures both
    // programs report.
    void summaryHasOneEntryPerChain()
    {
        const RunOutcome outcome = runRequest(twoMethodsTwoChains(false));
        const nlohmann::ordered_json json = runSummaryJson(outcome, "test");
        QCOMPARE(json["methods"].get<std::string>(), std::string("minibatch,barker"));
        QCOMPARE(json["chains"].size(), std::size_t{4});
        for (std::size_t k = 0; k < 4; ++k) {
            const auto &chain = json["chains"][k];
            QCOMPARE(chain["mean_batch"].get<double>(), outcome.chains[k].summary.meanBatch);
            QCOMPARE(chain["r_hat"].get<double>(), outcome.chains[k].splitRhat);
            QCOMPARE(chain["ess_bulk"].size(), std::size_t{2});
            QCOMPARE(chain["posterior_tv"].get<double>(), outcome.chains[k].posterior.totalVariation);
        }
    }
};

QTEST_APPLESS_MAIN(tst_RunService)
#include "tst_run_service.moc"
