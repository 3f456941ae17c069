// Sharing a run's data and exact posterior between runs (core/experiment/inputs/run_input_cache.h):
// runs that share them report bit for bit the figures of runs that make their own, the key is
// the data settings (nothing else, nothing less), a temperature gets its own reference, and
// concurrent runs asking for the same data get one data set.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <thread>

#include "core/correction/cancelled.h"
#include "core/experiment/inputs/run_input_cache.h"
#include "core/experiment/service/run_service.h"
#include "core/experiment/sweep/sweep.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/random/rng.h"
#include "tests/support/small_runs.h"
#include "tests/support/temporary_directory.h"

using namespace core;

namespace core {
// For failure messages.
std::ostream &operator<<(std::ostream &out, TestMethod method) { return out << methodName(method); }
} // namespace core

namespace {

// The mixture at the paper's N/T = 100 on 4 000 points, with a coarse correction grid: every
// run alone builds its own exact posterior, whose cost grows with the distinct data values.
RunConfig smallMixture(TestMethod method, std::int64_t samples)
{
    RunConfig config = testruns::smallConfig(method, samples);
    config.nData = 4000;
    config.temperature = 40.0;
    return config;
}

SweepRequest mixtureSweep(const std::string &setting, double from, double to, int count)
{
    SweepRequest request;
    request.base.config = smallMixture(TestMethod::Minibatch, 800);
    request.base.config.correction.grid = 1000;
    request.base.methods = {TestMethod::Minibatch};
    request.base.chains = 2;
    request.axis = {setting, from, to, count, false};
    request.threads = 2; // points after the first run two at a time, sharing one entry
    return request;
}

// Equal bits, or both "does not apply".
bool sameFigure(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// Every figure of a row that does not measure time, against the same channel of a run made on
// its own data.
void checkRowIsTheRunAlone(const SweepRow &row, const ChainReport &alone, const RunOutcome &aloneOutcome)
{
    BOOST_TEST((row.method) == (alone.method));
    BOOST_TEST((row.trial) == (alone.chainIndex));
    BOOST_TEST((row.meanBatch) == (alone.summary.meanBatch()));
    BOOST_TEST((row.acceptanceRate) == (alone.summary.acceptanceRate()));
    BOOST_TEST_REQUIRE(alone.hasPosteriorMetrics);
    BOOST_TEST((row.posteriorTv) == (alone.posterior.totalVariation));
    BOOST_TEST((row.correctionLinf) == (aloneOutcome.correctionLinf));
    BOOST_TEST(sameFigure(row.essBulkMin, *std::min_element(alone.bulkEss.begin(), alone.bulkEss.end())));
    BOOST_TEST(sameFigure(row.dataPointsPerEss, alone.dataPointsPerEss));
    BOOST_TEST(sameFigure(row.testAccuracy, alone.testAccuracy));
}

void checkSweepMatchesRunsAlone(const SweepRequest &request)
{
    SweepObserver silent;
    const SweepOutcome sweep = runSweep(request, silent);
    const auto perPoint = static_cast<std::size_t>(request.base.chains);
    BOOST_TEST_REQUIRE((sweep.rows.size()) == (sweep.values.size() * perPoint));
    // The first point makes the shared data (and its reference) as a run alone would; the
    // later points are the ones that use what it made.
    for (std::size_t point = 1; point < sweep.values.size(); ++point) {
        RunRequest alone = sweepPointRequest(request, sweep.values[point]);
        const RunOutcome expected = runRequest(alone); // its own data and reference
        BOOST_TEST_REQUIRE((expected.chains.size()) == (perPoint));
        for (std::size_t k = 0; k < perPoint; ++k) {
            BOOST_TEST_CONTEXT(request.axis.setting << " = " << sweep.values[point] << ", trial " << k)
            {
                checkRowIsTheRunAlone(sweep.rows[point * perPoint + k], expected.chains[k], expected);
            }
        }
    }
}

// Records the model a run was given.
struct ModelObserver : RunObserver {
    std::shared_ptr<const Model> model;
    void dataReady(const DatasetInstance &dataset, const RunOutcome &) override { model = dataset.model; }
};

} // namespace

// A sweep over σ shares one data set and one reference across all its points (the first point
// makes them, the others run two at a time on them); each row is still exactly the run alone.
BOOST_AUTO_TEST_CASE(aSweepThatSharesEverythingGivesTheFiguresOfRunsAlone)
{
    checkSweepMatchesRunsAlone(mixtureSweep("sigma", 0.6, 1.4, 3));
}

// Over T the data are shared and each point is measured against the posterior at its own
// temperature: a reference reused across temperatures would change posterior_tv.
BOOST_AUTO_TEST_CASE(aSweepOverTemperatureMeasuresEachPointAtItsTemperature)
{
    checkSweepMatchesRunsAlone(mixtureSweep("temperature", 30.0, 50.0, 2));
}

BOOST_AUTO_TEST_CASE(runsOnTheSameDataShareTheModelAndReference)
{
    RunRequest request = RunRequest::single(smallMixture(TestMethod::Metropolis, 200));
    RunInputCache cache;
    ModelObserver first, second, hotter;
    const RunOutcome a = runRequest(request, first, {}, &cache);
    request.config.step = 0.3; // a kernel setting: same data, same target
    request.config.seed = 8;
    const RunOutcome b = runRequest(request, second, {}, &cache);
    request.config.temperature = 80.0; // same data, another target
    const RunOutcome c = runRequest(request, hotter, {}, &cache);

    BOOST_TEST_REQUIRE((first.model && second.model && hotter.model));
    BOOST_TEST((first.model.get()) == (second.model.get()));
    BOOST_TEST((first.model.get()) == (hotter.model.get()));
    BOOST_TEST_REQUIRE((a.posterior && b.posterior && c.posterior));
    BOOST_TEST((a.posterior.get()) == (b.posterior.get()));
    BOOST_TEST((c.posterior.get()) != (a.posterior.get()));
    BOOST_TEST((a.posterior->temperature()) == (40.0));
    BOOST_TEST((c.posterior->temperature()) == (80.0));
}

// The run service builds the exact posterior on an idle core while the chain runs. A stop ends
// that build and keeps nothing: the next request at the same temperature builds it whole.
BOOST_AUTO_TEST_CASE(aStoppedReferenceBuildKeepsNothing)
{
    const RunConfig config = smallMixture(TestMethod::Metropolis, 200);
    const auto prepared = prepareData(config);
    const Eigen::VectorXd &data = dynamic_cast<const GaussianMixtureModel &>(*prepared->dataset.model).data();
    const GaussianMixturePosterior alone(data, config.temperature);
    std::stop_source stop;
    stop.request_stop();
    BOOST_CHECK_THROW(prepared->references->at(config.temperature, stop.get_token()), Cancelled);
    const auto built = prepared->references->at(config.temperature);
    BOOST_TEST((built->binLogProbability().array() == alone.binLogProbability().array()).all());

    // A run stopped while its chain runs reports no posterior, and leaves its reference unbuilt
    // or whole: asked again, it is the exact posterior.
    struct StopAtFirstProgress : RunObserver {
        std::stop_source stop;
        void chainProgress(int, const ChainResult &, std::int64_t, std::int64_t) override { stop.request_stop(); }
    } observer;
    RunControls controls;
    controls.stop = observer.stop.get_token();
    RunInputCache cache;
    const RunOutcome stopped =
        runRequest(RunRequest::single(smallMixture(TestMethod::Metropolis, 2'000'000)), observer, controls, &cache);
    BOOST_TEST(stopped.stopped);
    BOOST_TEST(!stopped.posterior);
    const auto after = cache.data(config)->references->at(config.temperature);
    BOOST_TEST((after->binLogProbability().array() == alone.binLogProbability().array()).all());
}

// The key is what makeDataset reads: a change in the data's size or seed makes new data; a
// kernel or target setting does not.
BOOST_AUTO_TEST_CASE(theDataSettingsAreTheKey)
{
    RunInputCache cache(4);
    RunConfig config = testruns::smallConfig(TestMethod::Minibatch, 100);
    const auto base = cache.data(config);
    RunConfig kernel = config;
    kernel.correction.sigma = 0.5;
    kernel.temperature = 1000.0;
    kernel.step = 0.4;
    kernel.seed = 99;
    kernel.minibatch.initialBatch = 300;
    BOOST_TEST((cache.data(kernel).get()) == (base.get()));

    RunConfig size = config;
    size.nData = 10'000;
    const auto smaller = cache.data(size);
    BOOST_TEST((smaller.get()) != (base.get()));
    BOOST_TEST((smaller->dataset.model->dataSize()) == (10'000));
    RunConfig seed = config;
    seed.dataSeed = 2;
    BOOST_TEST((cache.data(seed).get()) != (base.get()));
    RunConfig worstCase = config;
    worstCase.dataset = "worst-case";
    const auto other = cache.data(worstCase);
    BOOST_TEST((other.get()) != (base.get()));
    BOOST_TEST(!other->references); // no exact posterior grid for this dataset
    BOOST_TEST(base->references);
}

// Logistic regression: every field of the data spec is part of the key, the prior's too (it is
// part of the model).
BOOST_AUTO_TEST_CASE(aLogisticModelsPriorIsPartOfTheKey)
{
    testfiles::TemporaryDirectory directory;
    const std::string csv = directory.filePath("rows.csv");
    {
        std::ofstream file(csv);
        Rng rng(3);
        file << "label,x,y\n";
        for (int i = 0; i < 60; ++i)
            file << (i % 2) << ',' << (i % 2 ? 1.0 : -1.0) + rng.normal() << ',' << rng.normal() << '\n';
    }
    RunConfig config;
    config.dataset = "logreg";
    config.logreg.csv = csv;
    config.logreg.testSize = 20;
    RunInputCache cache(4);
    const auto flat = cache.data(config);
    BOOST_TEST((cache.data(config).get()) == (flat.get()));
    RunConfig prior = config;
    prior.logreg.model.priorSd = 2.0;
    const auto withPrior = cache.data(prior);
    BOOST_TEST((withPrior.get()) != (flat.get()));
    BOOST_TEST((withPrior->dataset.classifier->options().priorSd) == (2.0));
    RunConfig split = config;
    split.logreg.splitSeed = 5;
    BOOST_TEST((cache.data(split).get()) != (flat.get()));
}

// Only `capacity` data sets stay alive between runs, the most recently used.
BOOST_AUTO_TEST_CASE(theLeastRecentlyUsedDataAreDropped)
{
    RunConfig a = testruns::smallConfig(TestMethod::Minibatch, 100);
    RunConfig b = a;
    b.dataSeed = 2;
    RunInputCache one(1);
    std::weak_ptr<const PreparedData> onlyA = one.data(a);
    BOOST_TEST(!onlyA.expired()); // the cache keeps it for the next run
    one.data(b);
    BOOST_TEST(onlyA.expired()); // replaced, and nobody else held it: freed

    RunInputCache two(2);
    std::weak_ptr<const PreparedData> keptA = two.data(a);
    two.data(b);
    BOOST_TEST_REQUIRE(!keptA.expired());
    BOOST_TEST((two.data(a).get()) == (keptA.lock().get()));
    BOOST_CHECK_THROW(RunInputCache(0), std::invalid_argument);
}

// Runs on two threads asking for the same data at once wait for one build.
BOOST_AUTO_TEST_CASE(concurrentRunsGetOneDataSet)
{
    RunInputCache cache;
    const RunConfig config = testruns::smallConfig(TestMethod::Minibatch, 100);
    std::shared_ptr<const PreparedData> left, right;
    {
        std::jthread one([&] { left = cache.data(config); });
        std::jthread other([&] { right = cache.data(config); });
    }
    BOOST_TEST_REQUIRE((left && right));
    BOOST_TEST((left.get()) == (right.get()));
}
