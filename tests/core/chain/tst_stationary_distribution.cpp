// Chains on a model with a known posterior (the mean of Gaussian data, flat prior, tempered)
// must reproduce that posterior: mean, variance and a KS test on thinned samples.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

constexpr double kTemperature = 20.0;

// Suite-wide state, set up once before the first test case.
struct Suite {
    static inline std::shared_ptr<const CorrectionDistribution> correction;
    static inline std::unique_ptr<GaussianMeanModel> model;

    void setup()
    {
        CorrectionParams params;
        params.grid = 2000;
        correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
        // N/T = 1000, so Λ_i has sd ≈ 1000 |θ' − θ| and the minibatch test must grow its batch.
        Rng rng(2024);
        Eigen::VectorXd x(20000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        model = std::make_unique<GaussianMeanModel>(x, 1.0);
    }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

// 61,000 iterations from the posterior mean, thinned by 30 after 1000 burn-in: about 2000
// nearly independent draws. The proposal sd equals the posterior sd, the efficient 1-D
// random walk of Seita et al., "Minibatch Acceptance Test", Sec. 2.1.
std::vector<double> thinnedChain(const RunConfig &config, double temperature = kTemperature)
{
    auto test = makeAcceptanceTest(config, Suite::correction);
    const RandomWalkProposal proposal(std::sqrt(Suite::model->posteriorVariance(temperature)));
    ChainSettings settings;
    settings.samples = 61000;
    settings.seed = 99;
    settings.temperature = temperature;
    const ChainResult chain = runChain(*Suite::model, proposal, *test, settings);
    std::vector<double> thinned;
    for (std::int64_t t = 1000; t < chain.completed; t += 30)
        thinned.push_back(chain.samples(t, 0));
    return thinned;
}

struct MethodRow {
    std::string method;
    double temperature;
};
std::ostream &operator<<(std::ostream &out, const MethodRow &row) { return out << row.method << " T=" << row.temperature; }

// Each test at T = 20, and at T = 0.5 and T = 100 (the logistic default) as well: a test that
// drops a 1/T samples the posterior at T = 1, whose sd is √T times smaller (4.5 at T = 20), far
// outside the variance check's 1e-4 interval (about ±12 % of the variance over 2,000 draws). The
// minibatch test at T = 0.5 would need b > 2N here (sd Λ_i ≈ √(N/T) at this step): it would
// only run the full-data fallback, which the Barker row checks. About 0.3 s a row.
std::vector<MethodRow> methodRows()
{
    std::vector<MethodRow> rows;
    for (const char *method : {"mh", "barker", "minibatch"})
        for (double temperature : {0.5, 20.0, 100.0})
            if (!(std::string(method) == "minibatch" && temperature < 1.0))
                rows.push_back({method, temperature});
    return rows;
}

BOOST_DATA_TEST_CASE(matchesPosterior, data::make(methodRows()), row)
{
    RunConfig config;
    config.method = parseMethod(row.method);
    const double mean = Suite::model->posteriorMean(row.temperature);
    const double sd = std::sqrt(Suite::model->posteriorVariance(row.temperature));
    const std::vector<double> thinned = thinnedChain(config, row.temperature);
    const double n = static_cast<double>(thinned.size());
    const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
    const double sampleMean = values.mean();
    const double sampleVariance = (values - sampleMean).square().sum() / (n - 1.0);

    const double alpha = 1e-4;
    const double meanTolerance = teststats::zCritical(alpha) * sd / std::sqrt(n);
    BOOST_TEST(std::abs(sampleMean - mean) < meanTolerance,
               "mean " << sampleMean << " vs " << mean << " (tolerance " << meanTolerance << ")");
    const double ratio = sampleVariance / (sd * sd) * (n - 1.0);
    BOOST_TEST((ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2)),
               "variance " << sampleVariance << " vs " << sd * sd);
    const boost::math::normal posterior(mean, sd);
    const double d = teststats::ksStatistic(thinned, [&](double v) { return boost::math::cdf(posterior, v); });
    const double p = teststats::ksPValue(d, thinned.size());
    BOOST_TEST(p > alpha, "KS D = " << d << ", p = " << p);
}

// Without the correction the test is Barker's smeared by the batch noise, which breaks
// detailed balance: with σ = 1.8 (so s²_Δ* up to 3.24) the chain's spread is visibly too wide.
BOOST_AUTO_TEST_CASE(naiveTestIsBiased)
{
    RunConfig config;
    config.method = TestMethod::NaiveBarker;
    config.correction.sigma = 1.8;
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    const std::vector<double> thinned = thinnedChain(config);
    const double n = static_cast<double>(thinned.size());
    const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
    const double sampleVariance = (values - values.mean()).square().sum() / (n - 1.0);
    const double ratio = sampleVariance / (sd * sd) * (n - 1.0);
    BOOST_TEST(ratio > teststats::chiSquaredUpper(n - 1.0, 1e-4),
               "naive variance " << sampleVariance << " vs true " << sd * sd << ": bias not detected");
}

BOOST_AUTO_TEST_CASE(stopTokenStopsEarly)
{
    RunConfig config;
    config.method = TestMethod::Barker;
    auto test = makeAcceptanceTest(config, Suite::correction);
    const RandomWalkProposal proposal(0.01);
    ChainSettings settings;
    settings.samples = 1'000'000;
    settings.temperature = kTemperature;
    settings.progressInterval = std::chrono::milliseconds(0);
    std::stop_source source;
    std::int64_t reported = 0;
    const ChainResult chain = runChain(*Suite::model, proposal, *test, settings, source.get_token(),
                                       [&](const ChainResult &, std::int64_t first, std::int64_t last) {
                                           BOOST_TEST(first == reported); // contiguous, non-overlapping
                                           reported = last;
                                           if (last >= 640)
                                               source.request_stop();
                                       });
    BOOST_TEST(chain.stopped);
    BOOST_TEST((chain.completed >= 640 && chain.completed < 1000));
    BOOST_TEST(reported == chain.completed);
}

BOOST_AUTO_TEST_CASE(rejectsBadSettings)
{
    RunConfig config;
    config.method = TestMethod::Barker;
    auto test = makeAcceptanceTest(config, Suite::correction);
    const RandomWalkProposal proposal(0.01);
    ChainSettings settings;
    settings.temperature = 0.0;
    BOOST_CHECK_THROW(runChain(*Suite::model, proposal, *test, settings), std::invalid_argument);
    settings.temperature = -1.0;
    BOOST_CHECK_THROW(runChain(*Suite::model, proposal, *test, settings), std::invalid_argument);
    settings.temperature = 1.0;
    settings.samples = 0;
    BOOST_CHECK_THROW(runChain(*Suite::model, proposal, *test, settings), std::invalid_argument);
    BOOST_CHECK_THROW(RandomWalkProposal(0.0), std::invalid_argument);
    BOOST_CHECK_THROW(RandomWalkProposal(-0.1), std::invalid_argument);
    Eigen::VectorXd bad(3);
    bad << 1.0, std::nan(""), 2.0;
    BOOST_CHECK_THROW(GaussianMeanModel(bad, 1.0), std::invalid_argument);
}

