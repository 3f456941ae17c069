// The cost prediction of a temperature change (batch_prediction.h) against the batches the
// minibatch test then reads: chains at the old and the new temperature on the same data, the
// prediction made from the old chain's mean batch.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>

#include "core/acceptance/batch_prediction.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/data/worst_case_data.h"
#include "core/models/gaussian_mean_model.h"
#include "core/proposals/random_walk_proposal.h"

using namespace core;

namespace {

constexpr std::int64_t kDataSize = 20'000;
constexpr double kFirstBatch = 100.0;

struct Suite {
    static inline std::shared_ptr<const CorrectionDistribution> correction;
    static inline std::unique_ptr<GaussianMeanModel> model;

    void setup()
    {
        CorrectionParams params;
        params.grid = 2000;
        correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
        model = std::make_unique<GaussianMeanModel>(generateWorstCaseGaussian(kDataSize, 9), 1.0);
    }
};

// The mean batch of a chain at `temperature` with a random walk of `step` (after 500
// iterations of warm-up from the posterior mean).
double meanBatch(double temperature, double step)
{
    MinibatchSettings settings;
    settings.initialBatch = static_cast<DataIndex>(kFirstBatch);
    settings.batchGrowth = static_cast<DataIndex>(kFirstBatch);
    MinibatchBarkerTest test(Suite::correction, settings);
    const RandomWalkProposal proposal(step);
    ChainSettings chain;
    chain.samples = 6000;
    chain.seed = 5;
    chain.temperature = temperature;
    chain.initialTheta = Vector::Constant(1, Suite::model->posteriorMean(temperature));
    const ChainResult result = runChain(*Suite::model, proposal, test, chain);
    double points = 0.0;
    for (std::int64_t t = 500; t < result.completed; ++t)
        points += static_cast<double>(result.batchSize[static_cast<std::size_t>(t)]);
    return points / static_cast<double>(result.completed - 500);
}

} // namespace

BOOST_TEST_GLOBAL_FIXTURE(Suite);

// At the same temperature the prediction is the measured batch, and it stays within [m, N].
BOOST_AUTO_TEST_CASE(noChangePredictsTheMeasuredBatch)
{
    for (const bool factor : {true, false})
        for (const double batch : {150.0, 5000.0, 19'000.0}) {
            BatchPredictionInputs in{batch, 3.0, 3.0, 20'000.0, 100.0, 100.0, 1, factor, true};
            // The law's mean batch moves in steps of g / 400 rows (400 quantiles, batches in steps of g).
            BOOST_TEST(std::abs(predictedMeanBatch(in) - batch) <= 0.5, batch << (factor ? " factor: " : ": ") << predictedMeanBatch(in));
        }
    BatchPredictionInputs hotter{5000.0, 1.0, 1e6, 20'000.0, 100.0, 100.0, 1, true, true};
    BOOST_TEST(predictedMeanBatch(hotter) == 100.0);
    BatchPredictionInputs colder{5000.0, 1.0, 1e-6, 20'000.0, 100.0, 100.0, 1, true, false};
    BOOST_TEST(predictedMeanBatch(colder) <= 20'000.0);
    BOOST_TEST(predictedMeanBatch(colder) > 19'990.0);
}

// T falls from 10 to 2 (a fifth), the step following √T as a re-learned scale does, and from 4
// to 2 with the step kept (s² fixed, b₀ ∝ 1/T²). The measured batches here are large parts of
// N, where the finite-population factor matters most.
BOOST_AUTO_TEST_CASE(predictionMatchesTheBatchesRead)
{
    struct Case {
        double from, to;
        bool stepFollows;
    };
    for (const Case c : {Case{10.0, 2.0, true}, Case{4.0, 2.0, false}}) {
        const double fromStep = std::sqrt(Suite::model->posteriorVariance(c.from));
        const double toStep = c.stepFollows ? fromStep * std::sqrt(c.to / c.from) : fromStep;
        const double before = meanBatch(c.from, fromStep);
        const double after = meanBatch(c.to, toStep);
        const BatchPredictionInputs in{before, c.from, c.to, static_cast<double>(kDataSize), kFirstBatch, kFirstBatch,
                                       1, true, c.stepFollows};
        const double predicted = predictedMeanBatch(in);
        const double ratio = c.from / c.to;
        const double withoutTheFactor = std::min(before * (c.stepFollows ? ratio : ratio * ratio), double(kDataSize));
        BOOST_TEST_MESSAGE("T " << c.from << " -> " << c.to << (c.stepFollows ? " (step follows)" : " (step kept)")
                                << ": measured " << before << " -> " << after << ", predicted " << predicted
                                << ", without the factor " << withoutTheFactor);
        BOOST_TEST(std::abs(predicted / after - 1.0) < 0.1, "predicted " << predicted << " vs " << after);
        BOOST_TEST(std::abs(predicted - after) < std::abs(withoutTheFactor - after));
    }
}
