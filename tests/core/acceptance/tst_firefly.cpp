// Firefly Monte Carlo (firefly_test.h): at a fixed move θ → θ', with z drawn from p(z | θ) and
// then updated, FlyMC accepts with Σ_z p(z | θ) min(1, π(θ', z)/π(θ, z)), enumerated here over
// every z of three points, which satisfies detailed balance in θ; a chain run with it has the
// exact posterior of a one-parameter logistic regression (KS against the grid), for two q_db;
// its state carries across calls; and the broken variant "the z-update without the
// dark-to-bright move" (every point ends dark, the chain samples the bounds' posterior) is caught.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/acceptance/firefly_test.h"
#include "core/chain/chain_runner.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/models/collapsible_bound.h"
#include "core/models/control_variates.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/random_walk_proposal.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/grid_posterior.h"
#include "tests/support/small_logistic_models.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

Vector point(double value) { return Vector::Constant(1, value); }

// The joint target's pieces for a one-feature model without bias, written out independently of
// the kernel: log B_i (Jaakkola–Jordan at ξ_i = y_i x_i θ̂, ξ rounded to float as the kernel
// stores it) and log L̃_i = log(exp((ℓ_i − log B_i)/T) − 1).
struct PointTerms {
    double logBound = 0.0, logWeight = 0.0;
};

PointTerms terms(const LogisticRegressionModel &model, DataIndex i, double theta, double anchor, double temperature)
{
    const double x = model.data().features(i, 0);
    const double sign = model.data().labels[static_cast<std::size_t>(i)] ? 1.0 : -1.0;
    const double u = sign * x * theta;
    const double xi = static_cast<float>(sign * x * anchor);
    const double a = std::tanh(0.5 * xi) / (4.0 * xi);
    const double logBound = -std::log1p(std::exp(-xi)) + 0.5 * (u - xi) - a * (u * u - xi * xi);
    const double logLikelihood = -std::log1p(std::exp(-u));
    return {logBound, std::log(std::exp((logLikelihood - logBound) / temperature) - 1.0)};
}

// Σ_z p(z | θ) min(1, π(θ', z)/π(θ, z)) over the 2^N brightness patterns.
double fireflyProbability(const LogisticRegressionModel &model, double from, double to, double temperature)
{
    const double anchor = findPosteriorMode(model, temperature).mode[0];
    const int n = static_cast<int>(model.dataSize());
    double total = 0.0;
    for (int pattern = 0; pattern < (1 << n); ++pattern) {
        double probability = 1.0;
        double delta = model.logPrior(point(to)) - model.logPrior(point(from));
        for (int i = 0; i < n; ++i) {
            const PointTerms at = terms(model, i, from, anchor, temperature);
            const PointTerms there = terms(model, i, to, anchor, temperature);
            const double bright = std::exp(at.logWeight) / (1.0 + std::exp(at.logWeight));
            const bool lit = (pattern >> i) & 1;
            probability *= lit ? bright : 1.0 - bright;
            delta += (there.logBound - at.logBound) / temperature + (lit ? there.logWeight - at.logWeight : 0.0);
        }
        total += probability * std::min(1.0, std::exp(delta));
    }
    return total;
}

// FlyMC whose z-update never brightens a dark point.
class FireflyWithoutDarkToBright final : public FireflyTest {
public:
    using FireflyTest::FireflyTest;

protected:
    std::int64_t brightenDarkPoints(const Vector &, Rng &) override { return 0; }
};

struct ChainCheck {
    double p = 0.0, mean = 0.0, acceptance = 0.0, points = 0.0;
    std::int64_t bright = 0;
    double draws = 0.0;               // thinned draws: 4,000
    teststats::VarianceCheck variance; // against the grid's, on their ESS
    double ess = 0.0;
};

ChainCheck runAgainstGrid(const LogisticRegressionModel &model, FireflyTest &test, double step, std::uint64_t seed,
                          const teststats::GridPosterior &exact, double temperature = 1.0)
{
    const RandomWalkProposal proposal(step);
    ChainSettings settings;
    settings.samples = 121000;
    settings.seed = seed;
    settings.temperature = temperature;
    settings.initialTheta = findPosteriorMode(model, temperature).mode;
    const ChainResult chain = runChain(model, proposal, test, settings);
    std::vector<double> thinned;
    for (std::int64_t t = 1000; t < chain.completed; t += 30)
        thinned.push_back(chain.samples(t, 0));
    ChainCheck check;
    check.p = teststats::ksPValue(teststats::ksStatistic(thinned, [&](double x) { return exact.cdf(x); }), thinned.size());
    check.mean = std::accumulate(thinned.begin(), thinned.end(), 0.0) / static_cast<double>(thinned.size());
    check.acceptance =
        std::accumulate(chain.accepted.begin(), chain.accepted.end(), 0.0) / static_cast<double>(chain.completed);
    check.points = std::accumulate(chain.batchSize.begin(), chain.batchSize.end(), 0.0) / static_cast<double>(chain.completed);
    check.bright = test.brightCount();
    check.draws = static_cast<double>(thinned.size());
    check.ess = effectiveSampleSize(ChainDraws{thinned});
    check.variance = teststats::varianceAgainst(thinned, exact.variance(), check.ess, 1e-4);
    return check;
}

// The variance within the χ² test's bounds on the draws' ESS (about ±10 % at 3,000: an sd off by
// 5 % is at the test's edge, one off by 10 % is rejected; at least 2,500 required).
void expectTheGridVariance(const ChainCheck &c)
{
    BOOST_TEST(c.variance.consistent(), "variance ratio " << c.variance.ratio << " outside [" << c.variance.lower << ", "
                                                          << c.variance.upper << "] (ESS " << c.ess << ")");
    BOOST_TEST(c.variance.upper < 1.12, "too few effective draws (" << c.ess << ") to resolve a 5 % error in sd");
}

} // namespace

// Three points, moves both ways, two q_db and four temperatures (0.5, 1, 20 and 100, the logistic
// default): each replicate starts a fresh
// kernel (z ~ p(z | θ), then its z-update and the test), so the frequency is the exact marginal
// probability, and the exact probabilities satisfy p(θ) a(θ, θ') = p(θ') a(θ', θ).
BOOST_AUTO_TEST_CASE(fireflyAcceptsWithItsExactProbability)
{
    const auto model = testdata::oneFeatureLogistic({0.7F, -1.3F, 2.1F}, {1, 0, 1}, 1.0);
    Rng rng(3);
    const int repetitions = 100'000;
    for (double temperature : {1.0, 0.5, 20.0, 100.0}) {
        // The bounds' anchor, found once per T and handed to each fresh kernel (as a run hands
        // its kernels the request's mode): the same mode the kernel would find itself.
        const Vector anchor = findPosteriorMode(*model, temperature).mode;
        for (double qdb : {0.3, 1.0}) {
            for (const auto &[a, b] : {std::pair{0.2, 1.4}, std::pair{1.4, 0.2}, std::pair{-0.6, 0.9}}) {
                int accepted = 0;
                for (int r = 0; r < repetitions; ++r) {
                    FireflyTest test(FireflySettings{qdb});
                    test.useAnchor(anchor, temperature);
                    const Vector from = point(a), to = point(b);
                    const TestProblem problem{*model, from, to, temperature, model->logPrior(to) - model->logPrior(from)};
                    accepted += test.decide(problem, rng).accepted;
                }
                const double rate = static_cast<double>(accepted) / repetitions;
                const double exact = fireflyProbability(*model, a, b, temperature);
                const double back = fireflyProbability(*model, b, a, temperature);
                const double logPosteriorRatio = model->logPrior(point(b)) - model->logPrior(point(a))
                                                 + (model->logLikelihoodSum(point(b)) - model->logLikelihoodSum(point(a)))
                                                       / temperature;
                BOOST_TEST_MESSAGE("FlyMC T " << temperature << " q_db " << qdb << " " << a << " -> " << b << ": accepted "
                                              << rate << " vs " << exact);
                BOOST_TEST_INFO("T " << temperature << " q_db " << qdb << " " << a << " -> " << b << ": " << rate << " vs "
                                     << exact);
                BOOST_TEST(std::abs(rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, repetitions));
                BOOST_TEST(exact == back * std::exp(logPosteriorRatio), boost::test_tools::tolerance(1e-9));
            }
        }
    }
}

// One weight, prior N(0, 1), N = 3000: FlyMC at q_db = 0.01 and 0.1 has the grid posterior as its
// stationary distribution; without the dark-to-bright move it does not.
BOOST_AUTO_TEST_CASE(fireflyChainsHaveTheExactPosteriorAndTheBrokenZUpdateIsCaught)
{
    // Covariates of sd 3: points far out in x, where the bound tuned at θ̂ bends more than log σ,
    // so that the bounds' posterior differs from the exact one and points do light up.
    std::vector<float> x;
    std::vector<int> y;
    Rng data(51);
    for (int i = 0; i < 3000; ++i) {
        x.push_back(static_cast<float>(3.0 * data.normal()));
        y.push_back(data.uniform01() < 1.0 / (1.0 + std::exp(-x.back())) ? 1 : 0);
    }
    const auto model = testdata::oneFeatureLogistic(x, y, 1.0);
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    const double laplaceSd = 1.0 / std::sqrt(-(makeTaylorProxies(*model, anchor, 2)->hessianSum()(0, 0) - 1.0));
    const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd);
    std::uint64_t seed = 70;
    for (double qdb : {0.01, 0.1}) {
        FireflyTest test(FireflySettings{qdb});
        const ChainCheck c = runAgainstGrid(*model, test, 1.5 * laplaceSd, ++seed, exact);
        BOOST_TEST_MESSAGE("FlyMC q_db " << qdb << ": KS p = " << c.p << ", mean " << c.mean << " vs " << exact.mean()
                                         << ", acceptance " << c.acceptance << ", likelihoods per iteration " << c.points
                                         << ", bright at the end " << c.bright << " of 3000; variance ratio "
                                         << c.variance.ratio << " (ESS " << c.ess << ")");
        BOOST_TEST_INFO("q_db " << qdb << ": KS p = " << c.p);
        BOOST_TEST(c.p > 1e-4);
        BOOST_TEST(std::abs(c.mean - exact.mean()) < teststats::zCritical(1e-4) * laplaceSd / std::sqrt(c.draws));
        expectTheGridVariance(c);
        BOOST_TEST(c.points < 3000.0 / 2); // it reads a fraction of the data
    }
    FireflyWithoutDarkToBright broken(FireflySettings{0.01});
    const ChainCheck c = runAgainstGrid(*model, broken, 1.5 * laplaceSd, 80, exact);
    BOOST_TEST_MESSAGE("FlyMC without the dark-to-bright move: KS p = " << c.p << ", mean " << c.mean << " vs "
                                                                        << exact.mean() << ", bright at the end " << c.bright);
    BOOST_TEST(c.p < 1e-6);
}

// The same data at T = 0.5, 20 and 100: the chain's draws follow the tempered grid posterior
// p(θ) exp(Σ ℓ_i(θ)/T), with the bounds tuned at its mode, so that the bounds' product and the
// bright points' weights are tested with their 1/T in a chain as well as in the exact
// probability above. Resolution: KS at p > 1e-4 over 4,000 thinned draws, the mean within
// 3.9 sd/√4000, the variance within about ±10 % (on their ESS, measured 2,940 to 3,730); about 1 s a chain.
BOOST_AUTO_TEST_CASE(fireflyChainsHaveTheTemperedPosterior)
{
    std::vector<float> x;
    std::vector<int> y;
    Rng data(51);
    for (int i = 0; i < 3000; ++i) {
        x.push_back(static_cast<float>(3.0 * data.normal()));
        y.push_back(data.uniform01() < 1.0 / (1.0 + std::exp(-x.back())) ? 1 : 0);
    }
    const auto model = testdata::oneFeatureLogistic(x, y, 1.0);
    std::uint64_t seed = 90;
    for (double temperature : {0.5, 20.0, 100.0}) {
        const Vector anchor = findPosteriorMode(*model, temperature).mode;
        const double laplaceSd =
            1.0 / std::sqrt(-(makeTaylorProxies(*model, anchor, 2)->hessianSum()(0, 0) / temperature - 1.0));
        const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd,
                                             temperature);
        FireflyTest test(FireflySettings{0.01});
        const ChainCheck c = runAgainstGrid(*model, test, 1.5 * laplaceSd, ++seed, exact, temperature);
        BOOST_TEST_MESSAGE("FlyMC at T " << temperature << ": KS p = " << c.p << ", mean " << c.mean << " vs "
                                         << exact.mean() << ", acceptance " << c.acceptance
                                         << ", likelihoods per iteration " << c.points << "; variance ratio "
                                         << c.variance.ratio << " (ESS " << c.ess << ")");
        BOOST_TEST_INFO("T " << temperature << ": KS p = " << c.p << ", mean " << c.mean << " vs " << exact.mean());
        BOOST_TEST(c.p > 1e-4);
        BOOST_TEST(std::abs(c.mean - exact.mean()) < teststats::zCritical(1e-4) * laplaceSd / std::sqrt(c.draws));
        expectTheGridVariance(c);
    }
}

// The kernel's state carries across calls: a second run that continues the first (as the laps of
// a run do) starts from the same bright set, with no new O(N) pass; a change of temperature
// starts one.
BOOST_AUTO_TEST_CASE(fireflyStateCarriesAcrossLaps)
{
    const auto model = testdata::syntheticLogistic(5000, 2, true, 9);
    FireflyTest test(FireflySettings{0.01});
    Rng rng(4);
    Vector theta = findPosteriorMode(*model, 1.0).mode;
    Vector proposed = theta;
    proposed[0] += 0.01;
    const TestProblem first{*model, theta, proposed, 1.0, 0.0};
    const Decision opening = test.decide(first, rng);
    BOOST_TEST(opening.fullScanPoints >= 5000);
    const Vector &current = opening.accepted ? proposed : theta;
    const Vector back = current - Vector::Constant(current.size(), 0.005);
    const Decision next = test.decide(TestProblem{*model, current, back, 1.0, 0.0}, rng);
    BOOST_TEST(next.fullScanPoints == 0);
    BOOST_TEST(next.pointsUsed < 5000);
    const Decision hotter = test.decide(TestProblem{*model, next.accepted ? back : current, current, 2.0, 0.0}, rng);
    BOOST_TEST(hotter.fullScanPoints >= 5000);
}

// Logistic regression's collapsible lower bound (collapsible_bound.h), which FlyMC reads only
// through its two functions: every gap log L_i − log B_i is ≥ 0 and 0 where the point's margin
// equals its margin at the anchor (the bound touches there), and the closed-form product agrees
// with the per-point bounds summed over the data: differences of logProduct between two θ equal
// Σ_i l_i(θ', θ) − Σ_i [gap_i(θ) − gap_i(θ')], with l_i the model's own ratios, to rounding
// (1e-11 of the sum of the terms' sizes). A bound whose sums b or A were built from a subset of
// the rows, with a wrong curvature, or from other values of the features than the ratios read
// (on images the float k/255 where the kernels read the byte k times 1/255), fails it.
void checkCollapsibleBound(const LogisticRegressionModel &model, double spread)
{
    BOOST_TEST(model.capabilities().has(ModelCapability::CollapsibleLowerBound));
    const Vector anchor = findPosteriorMode(model, 1.0).mode;
    const auto bound = model.collapsibleLowerBound(anchor);
    BOOST_REQUIRE(bound);
    const auto n = model.dataSize();
    std::vector<DataIndex> rows(static_cast<std::size_t>(n));
    std::iota(rows.begin(), rows.end(), DataIndex{0});
    double maxGapAtAnchor = 0.0;
    for (DataIndex i = 0; i < n; ++i)
        maxGapAtAnchor = std::max(maxGapAtAnchor, bound->logGap(i, anchor));
    // ξ_i is stored in float, so the bound touches at a margin within float rounding of it.
    BOOST_TEST(maxGapAtAnchor < 1e-6);

    Rng rng(23);
    for (int trial = 0; trial < 5; ++trial) {
        Vector theta = anchor, other = anchor;
        for (Eigen::Index j = 0; j < anchor.size(); ++j) {
            theta[j] += spread * rng.normal();
            other[j] += spread * rng.normal();
        }
        std::vector<double> ratios(static_cast<std::size_t>(n));
        model.logLikelihoodRatios(other, theta, rows, ratios);
        double perPoint = 0.0, size = 0.0, minGap = 0.0;
        for (DataIndex i = 0; i < n; ++i) {
            const double gapTheta = bound->logGap(i, theta), gapOther = bound->logGap(i, other);
            minGap = std::min({minGap, gapTheta, gapOther});
            const double term = ratios[static_cast<std::size_t>(i)] - (gapTheta - gapOther);
            perPoint += term;
            size += std::abs(ratios[static_cast<std::size_t>(i)]) + gapTheta + gapOther;
        }
        BOOST_TEST(minGap >= 0.0);
        const double closedForm = bound->logProduct(theta) - bound->logProduct(other);
        BOOST_TEST(std::abs(closedForm - perPoint) <= 1e-11 * size,
                   "trial " << trial << ": closed form " << closedForm << ", per point " << perPoint << ", apart by "
                            << std::abs(closedForm - perPoint) << " of " << size);
    }
}

BOOST_AUTO_TEST_CASE(logisticCollapsibleBoundIsTightAtTheAnchorAndItsProductIsTheSum)
{
    checkCollapsibleBound(*testdata::syntheticLogistic(3000, 3, true, 17), 0.8);
}

// The same on pixel data (every feature a byte k stored as k/255), where the model's kernels
// read the bytes: the bound must be built from the same values.
BOOST_AUTO_TEST_CASE(logisticCollapsibleBoundOnPixelsReadsWhatTheKernelsRead)
{
    auto data = std::make_shared<ClassificationData>();
    constexpr int kRows = 3000, kFeatures = 16;
    data->features.resize(kRows, kFeatures);
    Rng rng(31);
    for (int i = 0; i < kRows; ++i) {
        double margin = -1.0;
        for (int j = 0; j < kFeatures; ++j) {
            const auto byte = static_cast<int>(rng.uniform01() * 256.0) % 256;
            data->features(i, j) = static_cast<float>(byte) / 255.0F;
            margin += (j % 2 == 0 ? 0.6 : -0.4) * byte / 255.0;
        }
        data->labels.push_back(static_cast<std::uint8_t>(rng.uniform01() < 1.0 / (1.0 + std::exp(-margin))));
    }
    LogisticRegressionOptions options;
    options.bias = true;
    options.priorSd = 1.0;
    checkCollapsibleBound(LogisticRegressionModel(data, options), 0.5);
}

// A model with control variates reads Taylor residuals, which the base model's bound does not
// describe: it offers no collapsible lower bound, and FlyMC refuses it naming the capability and
// why, leaving the kernel to start afresh on a model that has one.
BOOST_AUTO_TEST_CASE(fireflyRefusesAModelWithControlVariates)
{
    const auto logistic = testdata::syntheticLogistic(500, 2, true, 3);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, 2));
    BOOST_TEST(!cv.capabilities().has(ModelCapability::CollapsibleLowerBound));
    BOOST_TEST(cv.capabilities().has(ModelCapability::TaylorRemainderBound) == logistic->capabilities().has(ModelCapability::TaylorRemainderBound));
    FireflyTest test;
    Rng rng(5);
    Vector proposed = anchor;
    proposed[0] += 0.01;
    try {
        test.decide(TestProblem{cv, anchor, proposed, 1.0, 0.0}, rng);
        BOOST_FAIL("flymc ran on a model with control variates");
    } catch (const std::invalid_argument &refusal) {
        const std::string message = refusal.what();
        BOOST_TEST(message.find("collapsible") != std::string::npos, message);
        BOOST_TEST(message.find("Taylor residual") != std::string::npos, message);
    }
    const Decision plain = test.decide(TestProblem{*logistic, anchor, proposed, 1.0, 0.0}, rng);
    BOOST_TEST(plain.fullScanPoints >= 500);
}
