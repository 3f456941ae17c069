// The run service (core/experiment/service/run_service.h) is the one path from a request to figures
// for the CLI and the GUI: these tests hold it to what both rely on. Parallel and sequential
// runs give the same chains; the observer sees every step in order; a stop or a failure ends
// the request cleanly; the posterior is measured over the final segment at its own temperature;
// and a samples file's header gives back the settings that made it.
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <map>
#include <mutex>
#include <set>

#include "core/experiment/reports/run_record.h"
#include "core/experiment/reports/run_report.h"
#include "core/experiment/service/run_service.h"
#include "tests/support/small_runs.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace core {
// For failure messages.
std::ostream &operator<<(std::ostream &out, TestMethod method) { return out << methodName(method); }
} // namespace core

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
    bool duplicateFinish = false;
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
        duplicateFinish = duplicateFinish || !finished.insert(report.channel).second;
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(parallelChainsEqualSequentialOnes)
{
    const RunOutcome sequential = runRequest(twoMethodsTwoChains(false));
    const RunOutcome parallel = runRequest(twoMethodsTwoChains(true));
    BOOST_TEST((sequential.chains.size()) == (std::size_t{4}));
    BOOST_TEST((parallel.chains.size()) == (std::size_t{4}));
    std::set<std::uint64_t> seeds;
    for (std::size_t k = 0; k < 4; ++k) {
        const ChainReport &a = sequential.chains[k], &b = parallel.chains[k];
        BOOST_TEST((a.channel) == (static_cast<int>(k)));
        BOOST_TEST((b.channel) == (static_cast<int>(k)));
        BOOST_TEST((a.method) == (k < 2 ? TestMethod::Minibatch : TestMethod::Barker));
        BOOST_TEST((a.seed) == (std::uint64_t{7} + k % 2)); // chain k of every method: seed + k
        seeds.insert(a.seed);
        BOOST_TEST((a.result->samples == b.result->samples));
        BOOST_TEST((a.summary.meanBatch()) == (b.summary.meanBatch()));
        BOOST_TEST((a.summary.acceptanceRate()) == (b.summary.acceptanceRate()));
        BOOST_TEST((a.bulkEss == b.bulkEss));
        BOOST_TEST((a.hasPosteriorMetrics && b.hasPosteriorMetrics));
        BOOST_TEST((a.posterior.totalVariation) == (b.posterior.totalVariation));
        BOOST_TEST((a.splitRhat) == (b.splitRhat));
        BOOST_TEST(std::isfinite(a.splitRhat));
    }
    BOOST_TEST((seeds.size()) == (std::size_t{2}));
    // One R-hat per method, over its chains.
    BOOST_TEST((sequential.chains[0].splitRhat) == (sequential.chains[1].splitRhat));
    BOOST_TEST((sequential.usedCorrection && sequential.correctionLinf < 1e-4));
    BOOST_TEST(sequential.posterior);
    BOOST_TEST((sequential.posterior->temperature()) == (200.0));
}

BOOST_AUTO_TEST_CASE(observerSeesEveryStepInOrder)
{
    RecordingObserver observer;
    const RunRequest request = twoMethodsTwoChains(true);
    const RunOutcome outcome = runRequest(request, observer);
    BOOST_TEST(!outcome.stopped);
    const std::vector<RunStage> expected = {RunStage::Data, RunStage::Correction, RunStage::Sampling,
                                            RunStage::Diagnostics};
    BOOST_TEST((observer.stages == expected));
    BOOST_TEST(observer.dataReadyBeforeChains);
    BOOST_TEST((observer.started) == ((std::set<int>{0, 1, 2, 3})));
    BOOST_TEST((observer.finished) == ((std::set<int>{0, 1, 2, 3})));
    for (int channel = 0; channel < 4; ++channel)
        BOOST_TEST((observer.lastProgress[channel]) == (request.config.samples));
}

BOOST_AUTO_TEST_CASE(stopBeforeTheChainsReportsStopped)
{
    std::stop_source stop;
    stop.request_stop();
    RunControls controls;
    controls.stop = stop.get_token();
    const RunOutcome outcome = runRequest(twoMethodsTwoChains(false), controls);
    BOOST_TEST(outcome.stopped);
    BOOST_TEST(outcome.chains.empty());
    BOOST_TEST(!outcome.posterior);
}

BOOST_AUTO_TEST_CASE(stopDuringTheChainsKeepsWhatRan)
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
    BOOST_TEST(outcome.stopped);
    BOOST_TEST((outcome.chains.size()) == (std::size_t{1})); // the others never started
    BOOST_TEST(outcome.chains[0].result->stopped);
    BOOST_TEST(outcome.chains[0].summary.iterations < 200'000);
    BOOST_TEST(!outcome.chains[0].hasPosteriorMetrics); // a stopped chain is not measured
}

BOOST_AUTO_TEST_CASE(droppedSamplesKeepTheFigures)
{
    RunRequest request = twoMethodsTwoChains(false);
    request.keepSamples = false;
    const RunOutcome outcome = runRequest(request);
    request.keepSamples = true;
    const RunOutcome kept = runRequest(request);
    BOOST_TEST((outcome.chains.size()) == (std::size_t{4}));
    BOOST_TEST_REQUIRE((kept.chains.size()) == (std::size_t{4}));
    for (std::size_t k = 0; k < outcome.chains.size(); ++k) {
        const ChainReport &chain = outcome.chains[k];
        BOOST_TEST((chain.result->samples.rows()) == (Eigen::Index{0}));
        BOOST_TEST((chain.result->completed) == (request.config.samples));
        BOOST_TEST(chain.summary.meanBatch() > 0.0);
        BOOST_TEST(chain.hasPosteriorMetrics);
        // The split R-hat (each method's two chains, pooled) is measured before the rows go,
        // so a sweep's rows can say whether their chains mixed.
        BOOST_TEST(std::isfinite(chain.splitRhat));
        BOOST_TEST((chain.splitRhat) == (kept.chains[k].splitRhat));
    }
    BOOST_CHECK_THROW(writeRunSamples(outcome, "/tmp/never-written.csv", "test"), std::invalid_argument);
}

// After an annealing burn-in the chain targets config.temperature from segment 2 on: the
// metrics cover exactly those rows, against the posterior at that temperature.
BOOST_AUTO_TEST_CASE(posteriorMetricsCoverTheFinalSegment)
{
    RunRequest request = RunRequest::single(testruns::smallConfig(TestMethod::Barker, 1500));
    request.config.burnIn = 500;
    request.config.annealFrom = 20'000.0;
    const RunOutcome outcome = runRequest(request);
    const ChainReport &chain = outcome.chains.front();
    BOOST_TEST(chain.hasPosteriorMetrics);
    BOOST_TEST((chain.posterior.samples) == (std::int64_t{1000}));
    BOOST_TEST((chain.result->finalSegmentStart()) == (std::int64_t{500}));
    BOOST_TEST((outcome.posterior->temperature()) == (200.0));
}

struct InvalidRequestRow {
    std::string name;
    int chains;
    int threads;
    bool repeatMethod;
    std::string named; ///< how the message starts
};
std::ostream &operator<<(std::ostream &out, const InvalidRequestRow &row) { return out << row.name; }

const std::vector<InvalidRequestRow> kInvalidRequests = {
    {"no chains", 0, 0, false, "chains"},
    {"too many chains", RunRequest::kMaxChains + 1, 0, false, "chains"},
    {"negative threads", 1, -1, false, "threads"},
    {"repeated method", 1, 0, true, "methods"},
};

BOOST_DATA_TEST_CASE(invalidRequestsAreRefusedBeforeAnyWork, data::make(kInvalidRequests), row)
{
    const int chains = row.chains, threads = row.threads;
    const bool repeatMethod = row.repeatMethod;
    const std::string named = row.named;
    RunRequest request = twoMethodsTwoChains(false);
    request.chains = chains;
    request.threads = threads;
    if (repeatMethod)
        request.methods = {TestMethod::Barker, TestMethod::Barker};
    RecordingObserver observer;
    try {
        runRequest(request, observer);
        BOOST_FAIL("no exception");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).starts_with(named), error.what());
    }
    BOOST_TEST(observer.stages.empty());
}

// Every setting runSettings writes comes back from the header, so a samples file can be
// run again; a value that does not parse is named by its key.
BOOST_AUTO_TEST_CASE(settingsComeBackFromTheHeader)
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
    BOOST_TEST((toMetadata(runSettings(back)) == header));
    BOOST_TEST((back.temperature) == (config.temperature));
    BOOST_TEST((back.seed) == (config.seed));
    BOOST_TEST((back.logreg.classes == config.logreg.classes));

    CsvMetadata broken = header;
    for (auto &[key, value] : broken)
        if (key == "samples")
            value = "12x";
    try {
        runConfigFromMetadata(broken);
        BOOST_FAIL("no exception");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).starts_with("samples"), error.what());
    }
    BOOST_CHECK_THROW(runConfigFromMetadata({{"description", "no settings"}}), std::invalid_argument);

    // A user's table with its label column, delimiter and standardisation reads back as given;
    // a file written before standardisation existed replays with it off, as it was run.
    RunConfig table;
    table.dataset = "logreg";
    table.logreg.csv = "diabetes.csv";
    table.logreg.labelColumn = "Outcome";
    table.logreg.delimiter = ";";
    table.logreg.dropMissing = true;
    table.logreg.standardize = true;
    const CsvMetadata tableHeader = toMetadata(runSettings(table));
    const RunConfig tableBack = runConfigFromMetadata(tableHeader);
    BOOST_TEST(tableBack.logreg.labelColumn == "Outcome");
    BOOST_TEST(tableBack.logreg.delimiter == ";");
    BOOST_TEST(tableBack.logreg.dropMissing);
    BOOST_TEST(tableBack.logreg.standardize);
    CsvMetadata older;
    for (const auto &entry : tableHeader)
        if (entry.first != "standardize" && entry.first != "label_column" && entry.first != "delimiter"
            && entry.first != "drop_missing")
            older.push_back(entry);
    const RunConfig olderBack = runConfigFromMetadata(older);
    BOOST_TEST(!olderBack.logreg.standardize);
    BOOST_TEST(olderBack.logreg.labelColumn.empty());
}

// The summary's schema: settings at the top, one entry per chain with the figures both
// programs report.
BOOST_AUTO_TEST_CASE(summaryHasOneEntryPerChain)
{
    const RunOutcome outcome = runRequest(twoMethodsTwoChains(false));
    const nlohmann::ordered_json json = runSummaryJson(outcome, "test");
    BOOST_TEST((json["methods"].get<std::string>()) == (std::string("minibatch,barker")));
    BOOST_TEST((json["chains"].size()) == (std::size_t{4}));
    for (std::size_t k = 0; k < 4; ++k) {
        const auto &chain = json["chains"][k];
        BOOST_TEST((chain["mean_batch"].get<double>()) == (outcome.chains[k].summary.meanBatch()));
        BOOST_TEST((chain["r_hat"].get<double>()) == (outcome.chains[k].splitRhat));
        BOOST_TEST((chain["ess_bulk"].size()) == (std::size_t{2}));
        BOOST_TEST((chain["posterior_tv"].get<double>()) == (outcome.chains[k].posterior.totalVariation));
    }
}
