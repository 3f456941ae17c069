// The trade-off sweep (core/experiment/sweep/sweep.h): the axis is read and checked before any work,
// each point is exactly the run the service makes at that value (nothing leaks between points,
// threads change timings only), the figures move the way the paper says they trade (σ: smaller
// batches for a larger correction error), a stop ends the sweep at once, and the CSV has the
// documented columns with empty cells where a figure does not apply.
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <mutex>
#include <set>

#include "core/experiment/service/run_service.h"
#include "core/experiment/sweep/sweep.h"
#include "core/experiment/reports/sweep_report.h"
#include "tests/support/small_runs.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;
namespace tt = boost::test_tools;

namespace core {
// For failure messages.
std::ostream &operator<<(std::ostream &out, TestMethod method) { return out << methodName(method); }
} // namespace core

namespace {

// The mixture at the paper's N/T = 100 on 20 000 points, with a coarse correction grid so that
// every σ solves in well under a second.
SweepRequest mixtureSweep(const std::string &setting, double from, double to, int count)
{
    SweepRequest request;
    request.base.config = testruns::smallConfig(TestMethod::Minibatch, 1500);
    request.base.config.correction.grid = 1000;
    request.base.methods = {TestMethod::Minibatch};
    request.base.chains = 1;
    request.axis = {setting, from, to, count, false};
    request.threads = 1;
    return request;
}

std::string messageOf(const std::function<void()> &action)
{
    try {
        action();
    } catch (const std::invalid_argument &error) {
        return error.what();
    }
    return "no exception";
}

// Records what the sweep tells its observer.
struct RecordingSweepObserver : SweepObserver {
    std::mutex mutex;
    std::set<int> started;
    std::vector<std::vector<SweepRow>> finished; // by point
    std::vector<std::vector<SweepPooled>> pooled; // by point
    explicit RecordingSweepObserver(int points)
        : finished(static_cast<std::size_t>(points)), pooled(static_cast<std::size_t>(points))
    {
    }
    void pointStarted(int index, int, double) override
    {
        const std::lock_guard lock(mutex);
        started.insert(index);
    }
    void pointFinished(int index, int, const std::vector<SweepRow> &rows,
                       const std::vector<SweepPooled> &pooledTrials) override
    {
        const std::lock_guard lock(mutex);
        finished[static_cast<std::size_t>(index)] = rows;
        pooled[static_cast<std::size_t>(index)] = pooledTrials;
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(axisIsReadFromNameFromToCount)
{
    const SweepAxis axis = parseSweepAxis("sigma=0.4:1.7:8");
    BOOST_TEST((axis.setting) == ("sigma"));
    BOOST_TEST((axis.from) == (0.4));
    BOOST_TEST((axis.to) == (1.7));
    BOOST_TEST((axis.count) == (8));
    BOOST_TEST(!axis.logSpacing);
    BOOST_TEST((parseSweepAxis("temperature=1e5:1000:5").to) == (1000.0)); // descending is fine
}

const std::vector<std::string> kBadAxes = {"sigma",          "=0.4:1.7:8",     "sigma=0.4:1.7",  "sigma=a:1.7:8",
                                           "sigma=0.4:1.7:1", "sigma=0.4:1.7:2.5", "sigma=0.4:1.7:8:9",
                                           "sigma=0.4:1.7:",  "sigma=0.4:inf:8", "sigma=0.4:1.7:1001", "sigma=:1:3"};

BOOST_DATA_TEST_CASE(badAxesAreRefusedNamingVary, data::make(kBadAxes), text)
{
    const std::string message = messageOf([&] { parseSweepAxis(text); });
    BOOST_TEST(message.starts_with("vary: "), message);
}

BOOST_AUTO_TEST_CASE(onlyNumericSettingsOfTheDatasetCanBeVaried)
{
    BOOST_TEST((findSweepSetting("sigma", "gmm").key) == ("sigma"));
    BOOST_TEST((findSweepSetting("batch-growth", "gmm").key) == ("batch_growth")); // the flag names it too
    BOOST_TEST((findSweepSetting("n-data", "gmm").key) == ("n_data_requested"));
    const std::string unknown = messageOf([] { findSweepSetting("frobnicate", "gmm"); });
    BOOST_TEST(unknown.starts_with("vary: unknown setting 'frobnicate'"), unknown);
    for (const char *allowed : {"sigma", "lambda", "temperature", "step", "batch", "batch_growth", "delta",
                                "epsilon", "gamma", "n_data_requested (n-data)"})
        BOOST_TEST(unknown.find(allowed) != std::string::npos, allowed);
    for (const char *text : {"dataset", "method", "solver", "no-fpc", "step_meaning"}) {
        const std::string message = messageOf([&] { findSweepSetting(text, "gmm"); });
        BOOST_TEST(message.find("is not a numeric setting") != std::string::npos, message);
    }
    for (const char *text : {"seed", "data-seed"}) {
        const std::string message = messageOf([&] { findSweepSetting(text, "gmm"); });
        BOOST_TEST(message.find("is a random stream") != std::string::npos, message);
    }
    // The generated data's size means nothing for images read from files.
    BOOST_CHECK_THROW(findSweepSetting("n-data", "logreg"), std::invalid_argument);
    BOOST_TEST((findSweepSetting("prior-sd", "logreg").key) == ("prior_sd"));
    BOOST_CHECK_THROW(findSweepSetting("prior-sd", "gmm"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(pointsAreSpacedEvenlyOrGeometricallyWithExactEnds)
{
    // A copy: GCC 14 takes a reference returned by a call with temporary string arguments for
    // a possibly dangling one (-Wdangling-reference), though the table outlives the test.
    const SettingSpec sigma = findSweepSetting("sigma", "gmm");
    const std::vector<double> linear = sweepValues({"sigma", 0.4, 1.7, 8, false}, sigma);
    BOOST_TEST_REQUIRE((linear.size()) == (std::size_t{8}));
    BOOST_TEST((linear.front()) == (0.4));
    BOOST_TEST((linear.back()) == (1.7));
    for (std::size_t i = 1; i < linear.size(); ++i)
        BOOST_TEST((linear[i] - linear[i - 1]) == (1.3 / 7.0), tt::tolerance(1e-12));

    const SettingSpec temperature = findSweepSetting("temperature", "gmm");
    const std::vector<double> geometric = sweepValues({"temperature", 1000.0, 100'000.0, 5, true}, temperature);
    BOOST_TEST_REQUIRE((geometric.size()) == (std::size_t{5}));
    BOOST_TEST((geometric.front()) == (1000.0));
    BOOST_TEST((geometric.back()) == (100'000.0));
    for (std::size_t i = 1; i < geometric.size(); ++i)
        BOOST_TEST((geometric[i] / geometric[i - 1]) == (std::sqrt(10.0)), tt::tolerance(1e-12));

    // An integer setting runs at whole values.
    const std::vector<double> batches = sweepValues({"batch", 10.0, 1000.0, 5, true}, findSweepSetting("batch", "gmm"));
    BOOST_TEST((batches == std::vector<double>{10.0, 32.0, 100.0, 316.0, 1000.0}));
}

BOOST_AUTO_TEST_CASE(anInvalidPointIsNamedBeforeAnyWork)
{
    SweepRequest request = mixtureSweep("sigma", 0.5, 2.5, 3); // 0.5, 1.5, 2.5: σ must be < 1.8138
    RecordingSweepObserver observer(3);
    const std::string message = messageOf([&] { runSweep(request, observer); });
    BOOST_TEST(message.starts_with("vary: point 3 of 3 (sigma = 2.5): sigma must be in"), message);
    BOOST_TEST(observer.started.empty());

    request = mixtureSweep("batch", 1.0, 100.0, 4); // the table's own check: m >= 2
    const std::string batch = messageOf([&] { validate(request); });
    BOOST_TEST(batch.starts_with("vary: point 1 of 4 (batch = 1): batch must be in [2,"), batch);

    request = mixtureSweep("temperature", -1.0, 100.0, 4);
    request.axis.logSpacing = true;
    const std::string log = messageOf([&] { validate(request); });
    BOOST_TEST(log.starts_with("vary: log spacing needs FROM, TO > 0"), log);

    // A problem of the request itself is reported as it is, not charged to a point.
    request = mixtureSweep("sigma", 0.5, 1.5, 3);
    request.base.methods = {TestMethod::Barker, TestMethod::Barker};
    const std::string methods = messageOf([&] { validate(request); });
    BOOST_TEST(methods.starts_with("methods:"), methods);
}

// Each row is the run the service makes at that value from the base settings: nothing one
// point sets reaches another, and running points in parallel changes only the timings.
BOOST_AUTO_TEST_CASE(eachPointIsTheRunAtItsValue)
{
    SweepRequest request = mixtureSweep("step", 0.05, 0.45, 3);
    request.base.methods = {TestMethod::Minibatch, TestMethod::Barker};
    request.base.chains = 2;
    request.base.config.samples = 300;
    RecordingSweepObserver sequentialObserver(3), parallelObserver(3);
    const SweepOutcome sequential = runSweep(request, sequentialObserver);
    request.threads = 2;
    const SweepOutcome parallel = runSweep(request, parallelObserver);

    BOOST_TEST_REQUIRE((sequential.rows.size()) == (std::size_t{3 * 2 * 2})); // points × methods × trials
    BOOST_TEST_REQUIRE((parallel.rows.size()) == (sequential.rows.size()));
    BOOST_TEST(!sequential.stopped);
    BOOST_TEST((sequential.pointsCompleted) == (3));
    const std::vector<double> steps = {0.05, 0.25, 0.45};
    BOOST_TEST((sequential.values == steps));
    // The runs alone share their data and exact posterior too: that sharing changes no figure
    // is tst_run_input_cache's to show, and each reference costs a second (more under ASan).
    RunInputCache inputs;
    for (int point = 0; point < 3; ++point) {
        RunRequest alone = request.base;
        alone.config.step = steps[static_cast<std::size_t>(point)];
        RunObserver silent;
        const RunOutcome expected = runRequest(alone, silent, {}, &inputs);
        BOOST_TEST_REQUIRE((expected.chains.size()) == (std::size_t{4}));
        BOOST_TEST((parallelObserver.finished[static_cast<std::size_t>(point)].size()) == (std::size_t{4}));
        for (std::size_t k = 0; k < 4; ++k) {
            const SweepRow &row = sequential.rows[static_cast<std::size_t>(point) * 4 + k];
            const SweepRow &twin = parallel.rows[static_cast<std::size_t>(point) * 4 + k];
            const ChainReport &chain = expected.chains[k];
            BOOST_TEST((row.setting) == ("step"));
            BOOST_TEST((row.value) == (alone.config.step));
            BOOST_TEST((row.method) == (chain.method));
            BOOST_TEST((row.trial) == (chain.chainIndex));
            BOOST_TEST((row.meanBatch) == (chain.summary.meanBatch()));
            BOOST_TEST((row.acceptanceRate) == (chain.summary.acceptanceRate()));
            BOOST_TEST((row.posteriorTv) == (chain.posterior.totalVariation));
            BOOST_TEST((row.dataPointsPerEss) == (chain.dataPointsPerEss));
            BOOST_TEST(((row.splitRhat == chain.splitRhat) || (std::isnan(row.splitRhat) && std::isnan(chain.splitRhat))));
            BOOST_TEST((row.mixing.level == checkMixing(chain).level));
            BOOST_TEST((row.mixing.figures) == (checkMixing(chain).figures));
            BOOST_TEST((twin.value) == (row.value));
            BOOST_TEST((twin.meanBatch) == (row.meanBatch));
            BOOST_TEST((twin.acceptanceRate) == (row.acceptanceRate));
            BOOST_TEST((twin.posteriorTv) == (row.posteriorTv));
            BOOST_TEST((parallelObserver.finished[static_cast<std::size_t>(point)][k].meanBatch) == (row.meanBatch));
            // Figures that do not apply: no correction table for Barker, no classifier here.
            BOOST_TEST((std::isnan(row.correctionLinf)) == (row.method == TestMethod::Barker));
            BOOST_TEST(std::isnan(row.testAccuracy));
        }
    }
    // Each point's pooled trials reach the observer as the outcome holds them: a live chart
    // can plot pooled ESS per second point by point.
    BOOST_TEST_REQUIRE((sequential.pooled.size()) == (std::size_t{3 * 2})); // points × methods
    for (int point = 0; point < 3; ++point) {
        const auto &seen = parallelObserver.pooled[static_cast<std::size_t>(point)];
        BOOST_TEST_REQUIRE((seen.size()) == (std::size_t{2}));
        for (std::size_t m = 0; m < 2; ++m) {
            const SweepPooled &kept = parallel.pooled[static_cast<std::size_t>(point) * 2 + m];
            BOOST_TEST((seen[m].value) == (steps[static_cast<std::size_t>(point)]));
            BOOST_TEST((seen[m].figures.method) == (request.base.methods[m]));
            BOOST_TEST((seen[m].figures.chains) == (2));
            BOOST_TEST((seen[m].figures.essBulkMin) == (kept.figures.essBulkMin));
            BOOST_TEST((seen[m].figures.essPerSecond) == (kept.figures.essPerSecond));
        }
    }
    // A larger step is accepted less often, on the same random streams.
    BOOST_TEST(sequential.rows[0].acceptanceRate > sequential.rows[8].acceptanceRate);
}

// A step the preset derived from N follows N from point to point, as `compare --n-data` at each
// value would give it; a step the user gave, or a sweep of another setting, leaves it alone.
BOOST_AUTO_TEST_CASE(aStepDerivedFromNFollowsNAcrossAnNDataSweep)
{
    SweepRequest request;
    request.base = RunRequest::single(RunConfig{});
    request.base.config.dataset = "tall-logreg";
    request.base.config.nData = 1'000'000;
    request.base.config.step = 1.0 / std::sqrt(1e6);
    BOOST_TEST(stepIsInverseRootOfDataSize(request.base.config));
    request.axis = parseSweepAxis("n-data=10000:10000000:4");
    request.axis.logSpacing = true;

    request.stepFollowsDataSize = true;
    for (double n : {1e4, 1e5, 1e7}) {
        const RunRequest point = sweepPointRequest(request, n);
        BOOST_TEST(point.config.nData == static_cast<std::int64_t>(n));
        BOOST_TEST(point.config.step == 1.0 / std::sqrt(n));
        BOOST_TEST(stepIsInverseRootOfDataSize(point.config));
    }
    request.stepFollowsDataSize = false; // the user's --step
    BOOST_TEST(sweepPointRequest(request, 1e4).config.step == 1e-3);

    request.stepFollowsDataSize = true;
    request.axis = parseSweepAxis("temperature=1:4:2");
    BOOST_TEST(sweepPointRequest(request, 4.0).config.step == 1e-3);
    request.base.config.step = 0.002;
    BOOST_TEST(!stepIsInverseRootOfDataSize(request.base.config));
}

// Seita et al., "Minibatch Acceptance Test", Sec. 4–5: a larger σ lets the test stop at a larger
// variance, so at smaller batches, while the correction's CDF error grows. Up to σ = 1 the NNLS
// table sits at its solver's floor (about 1e-8 at this grid, not monotone from one σ to the next);
// above it the error rises by orders of magnitude.
BOOST_AUTO_TEST_CASE(largerSigmaGivesSmallerBatchesAndALargerCorrectionError)
{
    SweepRequest request = mixtureSweep("sigma", 0.5, 1.5, 5);
    request.base.methods = {TestMethod::Minibatch, TestMethod::Barker};
    request.threads = 2;
    SweepObserver silent;
    const SweepOutcome outcome = runSweep(request, silent);
    BOOST_TEST_REQUIRE((outcome.rows.size()) == (std::size_t{5 * 2}));
    for (std::size_t point = 1; point < 5; ++point) {
        const SweepRow &before = outcome.rows[2 * (point - 1)], &row = outcome.rows[2 * point];
        BOOST_TEST((row.method) == (TestMethod::Minibatch));
        BOOST_TEST(row.meanBatch < before.meanBatch, "sigma " << row.value << ": " << row.meanBatch << " after " << before.meanBatch);
        if (row.value > 1.0)
            BOOST_TEST(row.correctionLinf > before.correctionLinf,
                       "sigma " << row.value << ": " << row.correctionLinf << " after " << before.correctionLinf);
        else
            BOOST_TEST(row.correctionLinf < 1e-6, "sigma " << row.value << ": " << row.correctionLinf);
        // The exact test reads all the data whatever σ.
        BOOST_TEST((outcome.rows[2 * point + 1].meanBatch) == (20'000.0));
    }
    BOOST_TEST(outcome.rows[8].correctionLinf > 1000.0 * outcome.rows[0].correctionLinf);
    for (const SweepRow &row : outcome.rows) {
        BOOST_TEST(std::isfinite(row.posteriorTv)); // the mixture has an exact posterior
        BOOST_TEST(row.essBulkMin > 0.0);
        BOOST_TEST(row.dataPointsPerEss > 0.0);
        BOOST_TEST(row.wallSeconds > 0.0);
    }
}

// SGLD's bias grows with its step where nothing corrects it (measured: TV 0.12 at h = 0.12, 0.59 at
// h = 0.25; sd ratio 0.96, then 1.33; beyond h ≈ 0.3 it diverges on this mixture): against the exact posterior (TV) and
// against the full-data reference run beside it at each point (the mean's shift and the sds'
// ratio, trials pooled), which is itself at shift 0 and ratio 1.
BOOST_AUTO_TEST_CASE(sgldsDistanceFromTheReferenceGrowsWithItsStep)
{
    SweepRequest request = mixtureSweep("step", 0.12, 0.25, 2);
    request.base.config.samples = 20'000;
    request.base.config.burnIn = 2'000;
    request.base.methods = {TestMethod::Sgld, TestMethod::Barker};
    request.threads = 2;
    SweepObserver silent;
    const SweepOutcome outcome = runSweep(request, silent);
    BOOST_TEST_REQUIRE(outcome.rows.size() == std::size_t{4});
    const SweepRow &small = outcome.rows[0], &large = outcome.rows[2];
    BOOST_TEST_REQUIRE(small.method == TestMethod::Sgld);
    for (const SweepRow *reference : {&outcome.rows[1], &outcome.rows[3]}) {
        BOOST_TEST(reference->referenceShift == 0.0);
        BOOST_TEST(reference->referenceSdRatio == 1.0);
    }
    BOOST_TEST(large.posteriorTv > small.posteriorTv + 0.1, small.posteriorTv << " then " << large.posteriorTv);
    BOOST_TEST(large.referenceSdRatio > small.referenceSdRatio + 0.1,
               small.referenceSdRatio << " then " << large.referenceSdRatio);
    BOOST_TEST(std::abs(small.referenceSdRatio - 1.0) < 0.15, small.referenceSdRatio);
}

// SGHMC at h = 0.2 on this mixture runs away (θ grows until its moves are refused as
// non-finite), yet a rank-based ESS still counts its wandering draws: the row must say that its
// chain has not mixed, with the split R-hat that says so, and the note under the table must
// name it. At h = 0.05 the same chain mixes (measured: R-hat 1.001 and 1.134, min ESS 1,086 and 5).
BOOST_AUTO_TEST_CASE(aRunawayChainsRowSaysItHasNotMixed)
{
    SweepRequest request = mixtureSweep("step", 0.05, 0.2, 2);
    request.base.config.samples = 100'000;
    request.base.methods = {TestMethod::Sghmc};
    request.threads = 2;
    SweepObserver silent;
    const SweepOutcome outcome = runSweep(request, silent);
    BOOST_TEST_REQUIRE(outcome.rows.size() == std::size_t{2});
    const SweepRow &small = outcome.rows[0], &large = outcome.rows[1];
    BOOST_TEST((small.mixing.level == Mixing::Mixed), small.splitRhat << " " << small.essBulkMin);
    BOOST_TEST(small.splitRhat < 1.01);
    BOOST_TEST((large.mixing.level == Mixing::NotConverged || large.mixing.level == Mixing::NotMixed));
    BOOST_TEST(large.splitRhat > 1.01, large.splitRhat);
    const std::string note = sweepMixingNote(outcome);
    BOOST_TEST(note.find("step = 0.2 sghmc trial 0: not ") != std::string::npos, note);
    BOOST_TEST(note.find("step = 0.05") == std::string::npos, note);
}

BOOST_AUTO_TEST_CASE(aStopEndsTheSweepAtOnce)
{
    // Chains of 5·10⁶ iterations (minutes per point): only a stop ends them this soon.
    struct StopEarly : SweepObserver {
        std::stop_source stop;
        int finishedPoints = 0;
        void pointProgress(int, std::int64_t done, std::int64_t) override
        {
            if (done >= 200)
                stop.request_stop();
        }
        void pointFinished(int, int, const std::vector<SweepRow> &, const std::vector<SweepPooled> &) override
        {
            ++finishedPoints;
        }
    } observer;
    SweepRequest request = mixtureSweep("step", 0.1, 0.3, 4);
    request.base.config.samples = 5'000'000;
    request.threads = 2;
    const SweepOutcome outcome = runSweep(request, observer, {observer.stop.get_token()});
    BOOST_TEST(outcome.stopped);
    BOOST_TEST(outcome.rows.empty()); // a point cut short gives no rows
    BOOST_TEST((outcome.pointsCompleted) == (0));
    BOOST_TEST((observer.finishedPoints) == (0));

    // A stop after the first point keeps its rows and starts no other.
    struct StopAfterFirst : SweepObserver {
        std::stop_source stop;
        std::set<int> started;
        void pointStarted(int index, int, double) override { started.insert(index); }
        void pointFinished(int, int, const std::vector<SweepRow> &, const std::vector<SweepPooled> &) override
        {
            stop.request_stop();
        }
    } afterFirst;
    request = mixtureSweep("step", 0.1, 0.3, 4);
    request.base.config.samples = 300;
    const SweepOutcome partial = runSweep(request, afterFirst, {afterFirst.stop.get_token()});
    BOOST_TEST(partial.stopped);
    BOOST_TEST((partial.pointsCompleted) == (1));
    BOOST_TEST((partial.rows.size()) == (std::size_t{1}));
    BOOST_TEST((afterFirst.started) == (std::set<int>{0}));
}

BOOST_AUTO_TEST_CASE(aFailingPointIsRethrown)
{
    SweepRequest request = mixtureSweep("temperature", 50.0, 100.0, 3);
    request.base.config.dataset = "logreg";
    request.base.config.logreg.csv = "/nonexistent-directory/rows.csv";
    SweepObserver silent;
    BOOST_CHECK_THROW(runSweep(request, silent), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(csvHasTheDocumentedColumnsAndEmptyCellsForMissingFigures)
{
    SweepOutcome outcome;
    outcome.settingKey = "sigma";
    SweepRow minibatch;
    minibatch.setting = "sigma";
    minibatch.value = 0.5;
    minibatch.meanBatch = 812.5;
    minibatch.acceptanceRate = 0.25;
    minibatch.correctionLinf = 1e-7;
    minibatch.posteriorTv = 0.125;
    minibatch.essBulkMin = 40;
    minibatch.essPerSecond = 80;
    minibatch.dataPointsPerEss = 60'000;
    minibatch.wallSeconds = 0.5;
    SweepRow barker = minibatch;
    barker.method = TestMethod::Barker;
    barker.trial = 1;
    barker.correctionLinf = std::nan("");
    barker.splitRhat = 1.25;
    barker.mixing = {Mixing::NotMixed, "split R-hat 1.2500 > 1.01; min bulk ESS 40 < 100"};
    outcome.rows = {minibatch, barker};
    const std::string csv = sweepCsv(outcome);
    BOOST_TEST(csv == "setting,value,method,trial,mean_batch,acceptance_rate,correction_linf,posterior_tv,"
                      "ess_bulk_min,ess_per_second,data_points_per_ess,test_accuracy,wall_seconds,reference_shift,"
                      "reference_sd_ratio,r_hat,mixing\n"
                      "sigma,0.5,minibatch,0,812.5,0.25,1e-07,0.125,40,80,60000,,0.5,,,,\n"
                      "sigma,0.5,barker,1,812.5,0.25,,0.125,40,80,60000,,0.5,,,1.25,not mixed\n");
    // The table leaves out the figure no row has (test accuracy) and keeps the others.
    const std::string table = sweepTableText(outcome);
    BOOST_TEST(table.find("test acc") == std::string::npos, table);
    BOOST_TEST(table.find("corr L-inf") != std::string::npos, table);
    // The chain that has not mixed is named under the table with the figures that break the rule.
    BOOST_TEST(table.find("not mixed") != std::string::npos, table);
    const std::string note = sweepMixingNote(outcome);
    BOOST_TEST(note.find("sigma = 0.5 barker trial 1: not mixed, split R-hat 1.2500 > 1.01; min bulk ESS 40 < 100")
                   != std::string::npos,
               note);
    BOOST_TEST(note.find("minibatch") == std::string::npos, note);
    outcome.rows = {minibatch};
    BOOST_TEST(sweepMixingNote(outcome).empty());
    outcome.rows = {minibatch, barker};

    testfiles::TemporaryDirectory directory;
    const std::string path = directory.filePath("rows.csv");
    writeSweepCsv(outcome, path);
    BOOST_TEST(testfiles::readFile(path) == csv);
    BOOST_CHECK_THROW(writeSweepCsv(outcome, directory.filePath("missing/rows.csv")), std::runtime_error);
    BOOST_TEST((std::distance(std::filesystem::directory_iterator(directory.path()), std::filesystem::directory_iterator())) == (1)); // no leftovers
}
