// The stochastic-gradient methods (sgld, sghmc, sgld+taylor1, sghmc+taylor1): on the Gaussian mean, whose
// posterior N(μ, σ²) is known and whose minibatch gradient is −P(θ − μ) + ζ with ζ independent
// of θ (mean 0, variance τ² = (N/(T s²))² (1 − B/N) S²/B), each chain is a linear recursion whose
// stationary law is known in closed form:
//   SGLD:  θ' − μ = (1 − εP/2)(θ − μ) + (ε/2)ζ + √ε ξ,  variance (ε + ε²τ²/4) / (1 − (1 − εP/2)²);
//   SGHMC: (v, θ − μ) ↦ A (v, θ − μ) + n (1, 1), n = εζ + √(2αε) ξ, A = [[1−α, −εP], [1−α, 1−εP]],
//          covariance Σ = A Σ Aᵀ + Var(n) 11ᵀ (solved here as a 4×4 linear system).
// The tests check the chains' mean (unbiased) and variance (inflated) against these at α = 10⁻⁴,
// that the exact posterior's variance is rejected where the bias is as large as here, that the
// bias shrinks with the step, and that SGLD-CV's and SGHMC-CV's gradients have no noise on this
// model (its residual gradients are all equal), so their variance is the full-gradient one at
// B = 100.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/acceptance/accept_every_move.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/control_variates.h"
#include "core/proposals/gradient_dynamics_forecast.h"
#include "core/proposals/stochastic_gradient_dynamics.h"
#include "tests/support/gaussian_mean_posterior.h"
#include "tests/support/gaussian_mean_proxies.h"
#include "tests/support/statistics.h"

using namespace core;

BOOST_TEST_GLOBAL_FIXTURE(GaussianMeanPosterior);

namespace {

double precision() { return 1.0 / GaussianMeanPosterior::model->posteriorVariance(kTemperature); }

// τ², the variance of the minibatch gradient's noise ζ at batch B (without replacement).
double gradientNoiseVariance(DataIndex batch)
{
    const Eigen::VectorXd &x = GaussianMeanPosterior::x;
    const double n = static_cast<double>(x.size());
    const double sampleVariance = (x.array() - x.mean()).square().sum() / (n - 1.0);
    const double scale = n / kTemperature; // N / (T s²), s² = 1
    return scale * scale * (1.0 - static_cast<double>(batch) / n) * sampleVariance / static_cast<double>(batch);
}

double sgldVariance(double epsilon, DataIndex batch)
{
    const double contraction = 1.0 - 0.5 * epsilon * precision();
    const double noise = batch < GaussianMeanPosterior::x.size() ? gradientNoiseVariance(batch) : 0.0;
    return (epsilon + 0.25 * epsilon * epsilon * noise) / (1.0 - contraction * contraction);
}

double sghmcVariance(double epsilon, double friction, DataIndex batch)
{
    Eigen::Matrix2d a;
    a << 1.0 - friction, -epsilon * precision(), 1.0 - friction, 1.0 - epsilon * precision();
    const double noise = batch < GaussianMeanPosterior::x.size() ? gradientNoiseVariance(batch) : 0.0;
    const double q = epsilon * epsilon * noise + 2.0 * friction * epsilon;
    // vec(Σ) = (I − A ⊗ A)⁻¹ vec(Q), column-major vec.
    Eigen::Matrix4d kron;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            kron.block<2, 2>(2 * i, 2 * j) = a(i, j) * a;
    const Eigen::Vector4d vecQ = Eigen::Vector4d::Constant(q);
    const Eigen::Vector4d vecSigma = (Eigen::Matrix4d::Identity() - kron).partialPivLu().solve(vecQ);
    return vecSigma[3]; // Σ(θ, θ)
}

struct Draws {
    std::vector<double> thinned;
    std::vector<std::int64_t> batchSizes;
    double acceptance = 0.0;
};

Draws run(const std::string &method, double step, StochasticGradientSettings settings, std::uint64_t seed,
          int thinning, const TaylorProxies *proxies = nullptr, int draws = 10000)
{
    RunConfig config;
    config.method = parseMethod(method);
    config.gradBatch = settings.gradBatch;
    auto test = makeAcceptanceTest(config, nullptr);
    StochasticGradientDynamics dynamics(*GaussianMeanPosterior::model, step, settings, proxies);
    ChainSettings chain;
    chain.samples = 1000 + static_cast<std::int64_t>(draws) * thinning;
    chain.seed = seed;
    chain.temperature = kTemperature;
    chain.initialTheta = Vector::Constant(1, GaussianMeanPosterior::posteriorMean());
    const ChainResult result = runChain(*GaussianMeanPosterior::model, dynamics, *test, chain);
    Draws out;
    for (std::int64_t t = 1000; t < result.completed; t += thinning)
        out.thinned.push_back(result.samples(t, 0));
    out.batchSizes = result.batchSize;
    out.acceptance = static_cast<double>(std::accumulate(result.accepted.begin(), result.accepted.end(), 0))
                     / static_cast<double>(result.completed);
    return out;
}

double sampleVariance(const std::vector<double> &v)
{
    const Eigen::Map<const Eigen::ArrayXd> a(v.data(), static_cast<Eigen::Index>(v.size()));
    return (a - a.mean()).square().sum() / static_cast<double>(v.size() - 1);
}

// The draws' mean against μ (z test) and their variance against `variance` (chi-squared), both
// at α = 10⁻⁴; KS against N(μ, variance). Returns whether the chi-squared test would accept
// `otherVariance` too (the exact posterior's, for a test that the bias is resolved).
bool expectStationaryLaw(const std::vector<double> &draws, double variance, double otherVariance)
{
    const double alpha = 1e-4;
    const double n = static_cast<double>(draws.size());
    const double mean = GaussianMeanPosterior::posteriorMean();
    const double sampleMean =
        Eigen::Map<const Eigen::ArrayXd>(draws.data(), static_cast<Eigen::Index>(draws.size())).mean();
    const double tolerance = teststats::zCritical(alpha) * std::sqrt(variance / n);
    BOOST_TEST(std::abs(sampleMean - mean) < tolerance, "mean " << sampleMean << " vs " << mean << " (tolerance "
                                                                 << tolerance << ")");
    const auto accepts = [&](double v) {
        const double ratio = sampleVariance(draws) * (n - 1.0) / v;
        return ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2);
    };
    BOOST_TEST(accepts(variance), "variance " << sampleVariance(draws) << " vs the closed form " << variance);
    const boost::math::normal law(mean, std::sqrt(variance));
    const double d = teststats::ksStatistic(draws, [&](double v) { return boost::math::cdf(law, v); });
    BOOST_TEST(teststats::ksPValue(d, draws.size()) > alpha, "KS D = " << d);
    return accepts(otherVariance);
}

// ε with ε P / 2 = a: the contraction per SGLD step is 1 − a.
double stepFor(double a) { return std::sqrt(2.0 * a / precision()); }

} // namespace

BOOST_AUTO_TEST_CASE(sgldMatchesItsClosedFormBiasWithFullAndMinibatchGradients)
{
    const double posteriorVariance = 1.0 / precision();
    for (const DataIndex batch : {DataIndex{20000}, DataIndex{100}}) {
        BOOST_TEST_INFO("B = " << batch);
        StochasticGradientSettings settings;
        settings.gradBatch = batch;
        const double h = stepFor(0.3);
        const Draws draws = run("sgld", h, settings, 11, 30);
        const double variance = sgldVariance(h * h, batch);
        BOOST_TEST(variance > 1.15 * posteriorVariance); // a bias the test must resolve
        BOOST_TEST(!expectStationaryLaw(draws.thinned, variance, posteriorVariance),
                   "the exact posterior's variance was not rejected: the test cannot see SGLD's bias");
        BOOST_TEST(draws.acceptance == 1.0);
        for (std::int64_t b : draws.batchSizes)
            BOOST_REQUIRE_EQUAL(b, batch); // the gradient rows are the iteration's points
    }
}

BOOST_AUTO_TEST_CASE(sgldsBiasShrinksWithTheStep)
{
    StochasticGradientSettings settings;
    settings.gradBatch = 100;
    std::vector<double> measured;
    for (const double a : {0.3, 0.03}) {
        const double h = stepFor(a);
        const double variance = sgldVariance(h * h, 100);
        // Smaller steps mix more slowly (1 − a per step): thin in proportion.
        const Draws draws = run("sgld", h, settings, 12, static_cast<int>(std::ceil(9.0 / a)), nullptr, 3000);
        expectStationaryLaw(draws.thinned, variance, variance);
        measured.push_back(sampleVariance(draws.thinned) * precision());
    }
    // Closed form (S² ≈ 1): inflation 2.8 at a = 0.3, 1.15 at a = 0.03.
    BOOST_TEST(measured[1] < measured[0] - 0.5, "variance / posterior variance " << measured[0] << " then " << measured[1]);
    BOOST_TEST(std::abs(measured[1] - 1.0) < 0.2);
}

BOOST_AUTO_TEST_CASE(sgldWithControlVariatesHasNoGradientNoiseOnTheGaussianMean)
{
    // Every residual gradient is (θ̂ − θ)/s², the same for each row: the CV estimate is exact.
    const GaussianMeanProxies proxies(0.9 * GaussianMeanPosterior::posteriorMean());
    StochasticGradientSettings settings;
    settings.gradBatch = 100;
    const double h = stepFor(0.3);
    const StochasticGradientDynamics dynamics(*GaussianMeanPosterior::model, h, settings, &proxies);
    Vector full(1), estimate(1);
    std::vector<DataIndex> all(static_cast<std::size_t>(GaussianMeanPosterior::x.size())), few{3, 77, 4096};
    std::iota(all.begin(), all.end(), DataIndex{0});
    const Vector theta = Vector::Constant(1, 0.47);
    const StochasticGradientDynamics plain(*GaussianMeanPosterior::model, h, settings);
    plain.gradientEstimate(theta, kTemperature, all, full);
    dynamics.gradientEstimate(theta, kTemperature, few, estimate);
    BOOST_TEST(estimate[0] == full[0], boost::test_tools::tolerance(1e-9));

    const Draws draws = run("sgld", h, settings, 13, 30, &proxies);
    const double fullGradient = sgldVariance(h * h, GaussianMeanPosterior::x.size());
    BOOST_TEST(!expectStationaryLaw(draws.thinned, fullGradient, sgldVariance(h * h, 100)),
               "the plain minibatch variance was not rejected: the control variates made no difference");
}

BOOST_AUTO_TEST_CASE(sghmcMatchesItsClosedFormStationaryVariance)
{
    const double posteriorVariance = 1.0 / precision();
    for (const DataIndex batch : {DataIndex{20000}, DataIndex{100}}) {
        BOOST_TEST_INFO("B = " << batch);
        StochasticGradientSettings settings;
        settings.dynamics = GradientDynamics::Hamiltonian;
        settings.gradBatch = batch;
        settings.friction = 0.5;
        // εP = 0.1: overdamped, relaxing in about α / (εP) = 5 steps.
        const double h = std::sqrt(0.1 / precision());
        const double variance = sghmcVariance(h * h, settings.friction, batch);
        const Draws draws = run("sghmc", h, settings, 14, 60);
        const bool exactAccepted = expectStationaryLaw(draws.thinned, variance, posteriorVariance);
        if (batch < 20000) {
            BOOST_TEST(variance > 1.3 * posteriorVariance);
            BOOST_TEST(!exactAccepted);
        }
    }
}

// SGHMC with control variates (sghmc+taylor1): the same exact CV gradient at B = 100, so its
// stationary variance is the full-gradient one of the recursion above, and the minibatch one
// (about 1.45 times larger here) is rejected.
BOOST_AUTO_TEST_CASE(sghmcWithControlVariatesHasTheFullGradientVariance)
{
    const GaussianMeanProxies proxies(0.9 * GaussianMeanPosterior::posteriorMean());
    StochasticGradientSettings settings;
    settings.dynamics = GradientDynamics::Hamiltonian;
    settings.gradBatch = 100;
    settings.friction = 0.5;
    const double h = std::sqrt(0.1 / precision());
    const double fullGradient = sghmcVariance(h * h, settings.friction, GaussianMeanPosterior::x.size());
    const double minibatch = sghmcVariance(h * h, settings.friction, 100);
    BOOST_TEST(minibatch > 1.3 * fullGradient); // a difference the test must resolve
    const Draws draws = run("sghmc", h, settings, 15, 60, &proxies);
    BOOST_TEST(!expectStationaryLaw(draws.thinned, fullGradient, minibatch),
               "the plain minibatch variance was not rejected: the control variates made no difference");
}

// The pre-run forecast (gradient_dynamics_forecast.h) solves the same recursions in d
// dimensions: on this one-dimensional posterior its spread is the closed forms' above (which
// the chains of the cases above follow), its autocorrelation time SGLD's AR(1)'s
// (1 + a)/(1 − a), a = 1 − εP/2, and the largest step it offers within a tolerance is on the
// tolerance's side, with the next step on its grid beyond it.
BOOST_AUTO_TEST_CASE(theForecastsSpreadIsTheClosedForm)
{
    const double posteriorVariance = 1.0 / precision();
    const Eigen::MatrixXd H = Eigen::MatrixXd::Constant(1, 1, precision());
    for (const DataIndex batch : {DataIndex{20000}, DataIndex{100}}) {
        const Eigen::MatrixXd V =
            Eigen::MatrixXd::Constant(1, 1, batch < GaussianMeanPosterior::x.size() ? gradientNoiseVariance(batch) : 0.0);
        for (double fraction : {0.01, 0.1, 0.3}) { // εP
            const double h = std::sqrt(fraction / precision());
            BOOST_TEST_INFO("B = " << batch << ", eps P = " << fraction);
            const GradientDynamicsForecast sgld = forecastGradientDynamics(GradientDynamics::Langevin, H, V, h, 0.1);
            BOOST_REQUIRE(sgld.stable);
            BOOST_TEST(sgld.sdRatio * sgld.sdRatio * posteriorVariance == sgldVariance(h * h, batch),
                       boost::test_tools::tolerance(1e-8));
            const double a = 1.0 - 0.5 * fraction;
            BOOST_TEST(sgld.autocorrelation == (1.0 + a) / (1.0 - a), boost::test_tools::tolerance(1e-8));
            const GradientDynamicsForecast sghmc = forecastGradientDynamics(GradientDynamics::Hamiltonian, H, V, h, 0.5);
            BOOST_REQUIRE(sghmc.stable);
            BOOST_TEST(sghmc.sdRatio * sghmc.sdRatio * posteriorVariance == sghmcVariance(h * h, 0.5, batch),
                       boost::test_tools::tolerance(1e-8));
        }
        // εP ≥ 4 makes SGLD's recursion expand: no stationary law.
        BOOST_TEST(!forecastGradientDynamics(GradientDynamics::Langevin, H, V, std::sqrt(4.5 / precision()), 0.1).stable);
        const double start = std::sqrt(1.0 / precision());
        const std::optional<double> within = largestStepWithin(GradientDynamics::Langevin, H, V, 0.1, 0.1, start);
        BOOST_REQUIRE(within.has_value());
        BOOST_TEST(forecastGradientDynamics(GradientDynamics::Langevin, H, V, *within, 0.1).sdRatio <= 1.1);
        if (*within < start)
            BOOST_TEST(forecastGradientDynamics(GradientDynamics::Langevin, H, V, *within * std::exp2(0.25), 0.1).sdRatio
                       > 1.1);
    }
}

// The forecast's iterations per effective draw are those of the chain's mean, and its reading of
// the bulk ESS (bulkEssAutocorrelation) is what the suite's estimate measures. SGHMC with little
// friction at a long step is a damped oscillation, where the two differ: 100 chains' means
// scatter as the forecast's τ says (χ² at α = 10⁻⁴) and not as the truncation's; the chains'
// bulk ESS, averaged, is the truncation's reading within 10 %.
BOOST_AUTO_TEST_CASE(theForecastSaysWhatTheBulkEssWillCount)
{
    const DataIndex batch = 100;
    const Eigen::MatrixXd H = Eigen::MatrixXd::Constant(1, 1, precision());
    const Eigen::MatrixXd V = Eigen::MatrixXd::Constant(1, 1, gradientNoiseVariance(batch));
    StochasticGradientSettings settings;
    settings.dynamics = GradientDynamics::Hamiltonian;
    settings.gradBatch = batch;
    settings.friction = 0.1;
    const double h = std::sqrt(0.2 / precision()); // εP = 0.2 > α²/4: underdamped
    const int length = 5000;
    const GradientDynamicsForecast forecast =
        forecastGradientDynamics(GradientDynamics::Hamiltonian, H, V, h, settings.friction, length);
    const std::optional<double> truncated = forecast.bulkEssAutocorrelation;
    BOOST_REQUIRE(forecast.stable);
    BOOST_REQUIRE(truncated.has_value());
    BOOST_TEST_MESSAGE("tau " << forecast.autocorrelation << ", truncated " << *truncated);
    BOOST_TEST(*truncated > 2.0 * forecast.autocorrelation);

    const int chains = 100;
    const double variance = sghmcVariance(h * h, settings.friction, batch);
    double squares = 0.0, essSum = 0.0;
    for (int chain = 0; chain < chains; ++chain) {
        const Draws draws = run("sghmc", h, settings, 500 + static_cast<std::uint64_t>(chain), 1, nullptr, length);
        const double mean = std::accumulate(draws.thinned.begin(), draws.thinned.end(), 0.0) / length;
        squares += (mean - GaussianMeanPosterior::posteriorMean()) * (mean - GaussianMeanPosterior::posteriorMean());
        essSum += bulkEffectiveSampleSize({draws.thinned});
    }
    // Σ (m_c − μ)² / (S τ / L) ~ χ² with `chains` degrees of freedom.
    const auto statistic = [&](double tau) { return squares * length / (variance * tau); };
    const double alpha = 1e-4;
    BOOST_TEST_MESSAGE("chi2 " << statistic(forecast.autocorrelation) << " under the forecast, "
                               << statistic(*truncated) << " under the truncation; mean ESS " << essSum / chains
                               << " against " << length / *truncated);
    BOOST_TEST(statistic(forecast.autocorrelation) > teststats::chiSquaredLower(chains, alpha / 2));
    BOOST_TEST(statistic(forecast.autocorrelation) < teststats::chiSquaredUpper(chains, alpha / 2));
    BOOST_TEST(statistic(*truncated) < teststats::chiSquaredLower(chains, alpha / 2));
    BOOST_TEST(std::abs(essSum / chains / (length / *truncated) - 1.0) < 0.1);
}

BOOST_AUTO_TEST_CASE(theDecreasingScheduleFollowsWellingAndTeh)
{
    StochasticGradientSettings settings;
    settings.gradBatch = 100;
    settings.decay = 0.55;
    settings.decayFrom = 50.0;
    const StochasticGradientDynamics dynamics(*GaussianMeanPosterior::model, 0.02, settings);
    Rng rng(3);
    Vector theta = Vector::Constant(1, 0.5), next(1);
    for (int t = 0; t < 200; ++t) {
        BOOST_TEST(dynamics.nextStepSize() == 0.0004 * std::pow(1.0 + t / 50.0, -0.55), boost::test_tools::tolerance(1e-12));
        dynamics.propose(theta, next, kTemperature, rng);
        theta = next;
    }
}

BOOST_AUTO_TEST_CASE(settingsOutOfRangeAreRefusedByName)
{
    const auto refusal = [](auto change) {
        StochasticGradientSettings settings;
        change(settings);
        try {
            StochasticGradientDynamics(*GaussianMeanPosterior::model, 0.01, settings);
        } catch (const std::invalid_argument &error) {
            return std::string(error.what());
        }
        return std::string();
    };
    BOOST_TEST(refusal([](auto &s) { s.friction = 0.0; }).find("sghmc-friction") == 0);
    BOOST_TEST(refusal([](auto &s) { s.friction = 1.5; }).find("sghmc-friction") == 0);
    BOOST_TEST(refusal([](auto &s) { s.decay = -0.1; }).find("sg-decay") == 0);
    BOOST_TEST(refusal([](auto &s) { s.decayFrom = 0.0; }).find("sg-decay-from") == 0);
    BOOST_TEST(refusal([](auto &s) { s.gradBatch = 20001; }).find("grad-batch") == 0);

    RunConfig config;
    config.method = TestMethod::Sgld;
    config.controlVariates = ControlVariates::Taylor2;
    try {
        validate(config);
        BOOST_FAIL("sgld with taylor2 control variates was not refused");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("use --control-variates taylor1") != std::string::npos, error.what());
    }
    config.controlVariates = ControlVariates::Auto;
    config.method = TestMethod::Sghmc;
    config.checkpointEvery = 100;
    try {
        validate(config);
        BOOST_FAIL("sghmc with checkpoints was not refused");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("carries its momentum") != std::string::npos, error.what());
    }
}
