// Effective samples per second and data points per effective sample, the speed figures every
// report shows. The ESS counts the target's rows only; the time and the data it is divided
// into are the whole chain's, burn-in included, since a user pays for the burn-in too. A
// burn-in at the target (--burn-in without --anneal-from) is never written or counted, and
// multi-chain runs add pooled figures: one bulk ESS over all of a method's chains together.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/experiment/reports/run_record.h"
#include "core/experiment/reports/run_report.h"
#include "core/experiment/service/run_service.h"
#include "core/io/samples_csv_reader.h"
#include "tests/support/small_runs.h"
#include "tests/support/temporary_directory.h"

using namespace core;

namespace {

std::vector<double> targetRows(const ChainResult &chain, int component, std::int64_t first)
{
    std::vector<double> values;
    for (std::int64_t t = first; t < chain.completed; ++t)
        values.push_back(chain.samples(t, component));
    return values;
}

std::int64_t pointsRead(const ChainResult &chain, std::int64_t first)
{
    std::int64_t points = 0;
    for (auto t = static_cast<std::size_t>(first); t < static_cast<std::size_t>(chain.completed); ++t)
        points += chain.batchSize[t] + chain.fullScanPoints[t];
    return points;
}

std::size_t columnIndex(const SamplesTable &table, const std::string &name)
{
    const auto it = std::find(table.columns.begin(), table.columns.end(), name);
    BOOST_TEST_REQUIRE((it != table.columns.end()), name);
    return static_cast<std::size_t>(it - table.columns.begin());
}

} // namespace

// After an annealing burn-in the ESS is the final segment's, but its time and data are the
// whole chain's: the burn-in's reads are charged to the ESS (the figure a final-segment
// definition would give is visibly smaller here).
BOOST_AUTO_TEST_CASE(essFiguresCoverTheWholeRun)
{
    RunRequest request = RunRequest::single(testruns::smallConfig(TestMethod::Minibatch, 1500));
    request.config.correction.grid = 1000;
    request.config.burnIn = 500;
    request.config.annealFrom = 20'000.0;
    const RunOutcome outcome = runRequest(request);
    const ChainReport &chain = outcome.chains.front();
    const ChainResult &result = *chain.result;
    BOOST_TEST_REQUIRE((chain.bulkEss.size()) == (std::size_t{2}));
    const std::int64_t allPoints = pointsRead(result, 0), finalSegmentPoints = pointsRead(result, 500);
    BOOST_TEST(finalSegmentPoints < allPoints);
    const double minEss = std::min(chain.bulkEss[0], chain.bulkEss[1]);
    BOOST_TEST((chain.essBulkMin) == (minEss));
    BOOST_TEST((chain.dataPointsPerEss) == (static_cast<double>(allPoints) / minEss),
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST((chain.essPerSecond) == (minEss / result.wallSeconds), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(result.segments.back().startSeconds > 0.0); // so a final-segment figure would differ
    BOOST_TEST((chain.essBulkMedian) == (0.5 * (chain.bulkEss[0] + chain.bulkEss[1])),
               boost::test_tools::tolerance(1e-12));
    // The data total the figure divides is the one the reports give.
    BOOST_TEST((chain.summary.dataPointsUsed() + chain.summary.fullScanPoints + chain.summary.burnInPointsRead)
               == (allPoints));
    BOOST_TEST((outcome.totalPointsRead()) == (allPoints));
    const nlohmann::ordered_json json = runSummaryJson(outcome, "test")["chains"][0];
    BOOST_TEST((json["ess_bulk_min"].get<double>()) == (chain.essBulkMin));
    BOOST_TEST((json["data_points_per_ess"].get<double>()) == (chain.dataPointsPerEss));
    BOOST_TEST((json["ess_per_second"].get<double>()) == (chain.essPerSecond));
    BOOST_TEST((json["ess_bulk_median"].get<double>()) == (chain.essBulkMedian));
    BOOST_TEST((json["burn_in_iterations"].get<std::int64_t>()) == (std::int64_t{500}));
}

// --burn-in B alone: the first B iterations run at the target and are then forgotten, except
// for what they cost. The samples file has samples − B rows, the first of them iteration B;
// ESS, acceptance and the posterior metrics describe those rows only; the header gives the
// same run back.
BOOST_AUTO_TEST_CASE(plainBurnInIsNeverWrittenNorCounted)
{
    RunRequest request = RunRequest::single(testruns::smallConfig(TestMethod::Barker, 1500));
    request.config.burnIn = 500;
    const RunOutcome outcome = runRequest(request);
    const ChainReport &chain = outcome.chains.front();
    const ChainResult &result = *chain.result;
    BOOST_TEST_REQUIRE((result.completed) == (std::int64_t{1500}));
    BOOST_TEST_REQUIRE((chain.bulkEss.size()) == (std::size_t{2}));
    BOOST_TEST((chain.bulkEss[0]) == (bulkEffectiveSampleSize({targetRows(result, 0, 500)})));
    BOOST_TEST((chain.summary.iterations) == (std::int64_t{1000}));
    BOOST_TEST((chain.summary.burnInIterations) == (std::int64_t{500}));
    std::int64_t accepted = 0;
    for (std::size_t t = 500; t < 1500; ++t)
        accepted += result.accepted[t];
    BOOST_TEST((chain.summary.acceptanceRate()) == (static_cast<double>(accepted) / 1000.0));
    BOOST_TEST(chain.hasPosteriorMetrics);
    BOOST_TEST((chain.posterior.samples) == (std::int64_t{1000}));
    BOOST_TEST((chain.dataPointsPerEss) == (static_cast<double>(pointsRead(result, 0)) / chain.essBulkMin),
               boost::test_tools::tolerance(1e-12));

    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("samples.csv");
    writeRunSamples(outcome, path, "test");
    const SamplesTable table = readSamplesCsv(path);
    BOOST_TEST_REQUIRE((table.draws()) == (std::size_t{1000}));
    const std::size_t theta1 = columnIndex(table, "theta.1"), theta2 = columnIndex(table, "theta.2");
    BOOST_TEST((table.values[theta1].front()) == (result.samples(500, 0)));
    BOOST_TEST((table.values[theta2].back()) == (result.samples(1499, 1)));
    double acceptStat = 0.0;
    for (double a : table.values[columnIndex(table, "accept_stat__")])
        acceptStat += a;
    BOOST_TEST((acceptStat) == (static_cast<double>(accepted)));
    bool firstIterationNoted = false;
    for (const auto &[key, value] : table.metadata) {
        BOOST_TEST(!key.starts_with("segment."), key << " = " << value); // rows need no segment to be read
        firstIterationNoted = firstIterationNoted || (key == "first_iteration" && value == "500");
    }
    BOOST_TEST(firstIterationNoted);
    const RunConfig back = runConfigFromMetadata(table.metadata);
    BOOST_TEST((back.burnIn) == (std::int64_t{500}));
    BOOST_TEST((back.annealFrom) == (0.0));
    BOOST_TEST((back.samples) == (std::int64_t{1500}));
}

// Two chains per method: the pooled bulk ESS is the multi-chain estimator over both chains'
// rows together; pooled ESS/s divides it by the longest chain's wall time when the chains ran
// at once and by the sum when they ran one after the other; pooled points per ESS divides all
// the data both chains read. A request that keeps no samples (compare, sweep) gets the same
// pooled ESS.
BOOST_AUTO_TEST_CASE(pooledFiguresCoverEveryChainOfAMethod)
{
    for (const bool parallel : {false, true}) {
        RunRequest request;
        request.config = testruns::smallConfig(TestMethod::Minibatch, 600);
        request.config.correction.grid = 1000;
        request.methods = {TestMethod::Minibatch, TestMethod::Barker};
        request.chains = 2;
        request.parallel = parallel;
        request.threads = parallel ? 2 : 0;
        const RunOutcome outcome = runRequest(request);
        BOOST_TEST_REQUIRE((outcome.pooled.size()) == (std::size_t{2}));
        for (std::size_t m = 0; m < 2; ++m) {
            const PooledEss &pooled = outcome.pooled[m];
            const ChainReport &first = outcome.chains[2 * m], &second = outcome.chains[2 * m + 1];
            BOOST_TEST((pooled.method == request.methods[m]));
            BOOST_TEST((pooled.chains) == (2));
            BOOST_TEST_REQUIRE((pooled.bulkEss.size()) == (std::size_t{2}));
            for (int k = 0; k < 2; ++k)
                BOOST_TEST((pooled.bulkEss[static_cast<std::size_t>(k)])
                           == (bulkEffectiveSampleSize({targetRows(*first.result, k, 0), targetRows(*second.result, k, 0)})));
            const double minEss = std::min(pooled.bulkEss[0], pooled.bulkEss[1]);
            BOOST_TEST((pooled.essBulkMin) == (minEss));
            const double wall = parallel ? std::max(first.result->wallSeconds, second.result->wallSeconds)
                                         : first.result->wallSeconds + second.result->wallSeconds;
            BOOST_TEST((pooled.wallSeconds) == (wall), boost::test_tools::tolerance(1e-12));
            BOOST_TEST((pooled.essPerSecond) == (minEss / wall), boost::test_tools::tolerance(1e-12));
            const double points = static_cast<double>(pointsRead(*first.result, 0) + pointsRead(*second.result, 0));
            BOOST_TEST((pooled.dataPointsPerEss) == (points / minEss), boost::test_tools::tolerance(1e-12));
            // Acceptance and mean batch over both chains' kept rows counted one by one: the
            // iteration-weighted mean of the chains' own (test_tally.h).
            std::int64_t iterations = 0, accepted = 0, testPoints = 0;
            for (const ChainReport *chain : {&first, &second})
                for (std::int64_t t = chain->result->burnInRows(); t < chain->result->completed; ++t) {
                    ++iterations;
                    accepted += chain->result->accepted[static_cast<std::size_t>(t)];
                    testPoints += chain->result->batchSize[static_cast<std::size_t>(t)];
                }
            BOOST_TEST((pooled.tests.iterations) == (iterations));
            BOOST_TEST((pooled.tests.acceptanceRate())
                       == (static_cast<double>(accepted) / static_cast<double>(iterations)));
            BOOST_TEST((pooled.tests.meanBatch()) == (static_cast<double>(testPoints) / static_cast<double>(iterations)));
            const auto kept = [](const ChainReport &c) { return static_cast<double>(c.summary.iterations); };
            BOOST_TEST((pooled.tests.meanBatch())
                           == ((kept(first) * first.summary.meanBatch() + kept(second) * second.summary.meanBatch())
                               / (kept(first) + kept(second))),
                       boost::test_tools::tolerance(1e-12));
        }
        const nlohmann::ordered_json json = runSummaryJson(outcome, "test");
        BOOST_TEST_REQUIRE((json["pooled"].size()) == (std::size_t{2}));
        BOOST_TEST((json["pooled"][1]["method"].get<std::string>()) == (std::string("barker")));
        BOOST_TEST((json["pooled"][1]["ess_bulk_min"].get<double>()) == (outcome.pooled[1].essBulkMin));
        BOOST_TEST((json["pooled"][1]["ess_per_second"].get<double>()) == (outcome.pooled[1].essPerSecond));
        BOOST_TEST((json["pooled"][1]["acceptance_rate"].get<double>()) == (outcome.pooled[1].tests.acceptanceRate()));
        BOOST_TEST((json["pooled"][1]["mean_batch"].get<double>()) == (outcome.pooled[1].tests.meanBatch()));

        request.keepSamples = false;
        const RunOutcome withoutRows = runRequest(request);
        BOOST_TEST_REQUIRE((withoutRows.pooled.size()) == (std::size_t{2}));
        for (std::size_t m = 0; m < 2; ++m)
            BOOST_TEST((withoutRows.pooled[m].bulkEss == outcome.pooled[m].bulkEss));
    }
}

// One chain per method: nothing to pool.
BOOST_AUTO_TEST_CASE(oneChainHasNoPooledFigures)
{
    RunRequest request = RunRequest::single(testruns::smallConfig(TestMethod::Barker, 400));
    const RunOutcome outcome = runRequest(request);
    BOOST_TEST(outcome.pooled.empty());
    BOOST_TEST(!runSummaryJson(outcome, "test").contains("pooled"));
}

// A chain that rejected every proposal repeats its first state. The estimator's convention
// would count those repeats as independent draws (an ESS of all its rows, and an ESS per second
// of its iteration rate); a stuck chain has learned nothing, so its figures say 0.
BOOST_AUTO_TEST_CASE(aChainThatNeverMovedHasNoEffectiveSamples)
{
    RunRequest request = RunRequest::single(testruns::smallConfig(TestMethod::Metropolis, 300));
    request.config.nData = 2000; // the full-data test reads every row: keep it cheap under sanitizers
    request.config.temperature = 20.0;
    request.config.step = 1000.0; // every candidate lands where the posterior is nil
    const RunOutcome outcome = runRequest(request);
    const ChainReport &chain = outcome.chains.front();
    BOOST_TEST(chain.summary.acceptanceRate() == 0.0);
    BOOST_TEST_REQUIRE(chain.bulkEss.size() == std::size_t{2});
    for (double ess : chain.bulkEss)
        BOOST_TEST(ess == 0.0);
    BOOST_TEST(chain.essBulkMin == 0.0);
    BOOST_TEST(chain.essPerSecond == 0.0);
    BOOST_TEST(std::isnan(chain.dataPointsPerEss));

    // Draws that moved keep the estimator's value.
    const ChainDraws moving{{0.1, 0.4, 0.2, 0.9, 0.3, 0.5, 0.8, 0.7}};
    BOOST_TEST(samplerBulkEss(moving) == bulkEffectiveSampleSize(moving));
    BOOST_TEST(samplerBulkEss({{2.0, 2.0, 2.0, 2.0, 2.0, 2.0}}) == 0.0);
}

// A classifier's figures span every weight, not only the two the charts plot: the run has as
// many effective samples as its slowest coordinate. Here a feature the labels do not depend on
// and that is zero on every row (a blank border pixel) leaves its weight to the prior, which the
// random walk explores far more slowly than the plotted, well-determined weights.
BOOST_AUTO_TEST_CASE(essFiguresSpanEveryCoordinateOfAClassifier)
{
    testfiles::TemporaryDirectory directory;
    std::ostringstream rows;
    rows << "label,a,b,c,blank\n";
    std::mt19937 rng(5);
    std::normal_distribution<double> normal;
    for (int i = 0; i < 400; ++i) {
        const double a = normal(rng), b = normal(rng), c = normal(rng);
        rows << (a - b + 0.5 * normal(rng) > 0 ? 1 : 0) << ',' << a << ',' << b << ',' << c << ",0\n";
    }
    const std::string csv = directory.filePath("rows.csv");
    testfiles::writeFile(csv, rows.str());

    RunRequest request;
    request.config = testruns::smallConfig(TestMethod::Barker, 4000);
    request.config.burnIn = 1000; // from θ = 0 to the well-determined weights' mode
    request.config.dataset = "logreg";
    request.config.logreg.csv = csv;
    request.config.logreg.testSize = 100;
    request.config.logreg.model.priorSd = 1.0;
    request.config.temperature = 1.0;
    request.config.step = 0.1;
    request.methods = {TestMethod::Barker};
    request.chains = 2;
    for (const bool keepSamples : {true, false}) {
        request.keepSamples = keepSamples;
        const RunOutcome outcome = runRequest(request);
        BOOST_TEST_REQUIRE((outcome.dimension) == (4));
        BOOST_TEST_REQUIRE((outcome.components.size()) == (std::size_t{2}));
        for (const ChainReport &chain : outcome.chains) {
            BOOST_TEST((chain.essCoordinates) == (4));
            BOOST_TEST_REQUIRE((chain.bulkEss.size()) == (std::size_t{2}));
            BOOST_TEST(chain.essBulkMin <= *std::min_element(chain.bulkEss.begin(), chain.bulkEss.end()));
            if (keepSamples) {
                const std::vector<double> every = bulkEssPerComponent(*chain.result);
                BOOST_TEST((chain.essBulkMin) == (*std::min_element(every.begin(), every.end())));
                // The unplotted weights hold the minimum.
                BOOST_TEST(chain.essBulkMin < *std::min_element(chain.bulkEss.begin(), chain.bulkEss.end()));
                BOOST_TEST((chain.essPerSecond) == (chain.essBulkMin / chain.result->wallSeconds),
                           boost::test_tools::tolerance(1e-12));
            }
        }
        BOOST_TEST_REQUIRE((outcome.pooled.size()) == (std::size_t{1}));
        const PooledEss &pooled = outcome.pooled.front();
        BOOST_TEST((pooled.essCoordinates) == (4));
        BOOST_TEST_REQUIRE((pooled.bulkEss.size()) == (std::size_t{2}));
        if (keepSamples) {
            const ChainResult &first = *outcome.chains[0].result, &second = *outcome.chains[1].result;
            double least = 1e300;
            for (int k = 0; k < 4; ++k)
                least = std::min(least, samplerBulkEss({targetRows(first, k, first.finalSegmentStart()),
                                                        targetRows(second, k, second.finalSegmentStart())}));
            BOOST_TEST((pooled.essBulkMin) == (least));
            for (std::size_t k = 0; k < 2; ++k)
                BOOST_TEST((pooled.bulkEss[k])
                           == (samplerBulkEss({targetRows(first, outcome.components[k], first.finalSegmentStart()),
                                               targetRows(second, outcome.components[k], second.finalSegmentStart())})));
        }
        for (const ChainReport &chain : outcome.chains)
            BOOST_TEST(!chain.rowsForPooling); // released once pooled
        const nlohmann::ordered_json json = runSummaryJson(outcome, "test");
        BOOST_TEST((json["chains"][0]["ess_coordinates"].get<int>()) == (4));
        BOOST_TEST((json["pooled"][0]["ess_coordinates"].get<int>()) == (4));
    }
}
