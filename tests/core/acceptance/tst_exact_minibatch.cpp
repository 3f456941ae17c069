// The exact minibatch kernels (exact_minibatch_tests.h): SMH (Cornish et al. 2019) and TunaMH
// (Zhang, Cooper & De Sa 2020). Each accepts with its exact formula at fixed θ, θ' (Monte Carlo
// over its Poisson minibatch), never breaks its bounds, and a chain run with it has the exact
// posterior (a one-parameter logistic regression integrated on a grid) as its stationary
// distribution. Broken variants, each named, are caught on constructed cases where the bound
// is nearly reached: a bound 10 % too small (SMH-1, SMH-2, TunaMH), SMH's first factor without
// the proposal ratio, TunaMH's keep-probability without its λ·M_i term.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/acceptance/exact_minibatch_tests.h"
#include "core/acceptance/full_data_tests.h"
#include "core/chain/chain_runner.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/data/synthetic_glm_data.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/models/glm/glm_model.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/control_variates.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/crank_nicolson_proposal.h"
#include "core/proposals/random_walk_proposal.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/exact_minibatch_probability.h"
#include "tests/support/grid_posterior.h"
#include "tests/support/small_logistic_models.h"
#include "tests/support/spliced_proxies.h"
#include "tests/support/statistics.h"
#include "tests/support/validation_probe.h"

using namespace core;

namespace {

constexpr int kRepetitions = 100'000;

using testdata::oneFeatureLogistic;
using testdata::syntheticLogistic;

std::shared_ptr<const LogisticRegressionModel> identicalRows(int n, float x)
{
    return oneFeatureLogistic(std::vector<float>(static_cast<std::size_t>(n), x), std::vector<int>(static_cast<std::size_t>(n), 1),
                      0.0);
}

using teststats::acceptanceFrequency;
using teststats::allRatios;
using teststats::Frequency;
using teststats::smhProbability;
using teststats::tunaProbability;

// A Taylor proxy whose per-point bounds of one form (the ℓ₁ form, or the margin form) are cut by
// `factor` (10 % too small at 0.9): the broken variants of the bounds SMH thins by. Residuals and
// sums are the correct ones.
class ScaledBoundProxies final : public testdata::SplicedProxies {
public:
    enum class Form { L1, Margin };
    ScaledBoundProxies(const std::shared_ptr<const TaylorProxies> &source, double factor, Form form = Form::L1)
        : SplicedProxies(*source, source), m_source(source), m_factor(factor), m_form(form)
    {
    }
    std::optional<std::vector<double>> pointDerivativeBounds() const override
    {
        auto bounds = m_source->pointDerivativeBounds();
        if (m_form == Form::L1)
            for (double &b : *bounds)
                b *= m_factor;
        return bounds;
    }
    std::vector<double> pointMarginBounds() const override
    {
        auto bounds = m_source->pointMarginBounds();
        if (m_form == Form::Margin)
            for (double &b : bounds)
                b *= m_factor;
        return bounds;
    }

private:
    std::shared_ptr<const TaylorProxies> m_source;
    double m_factor;
    Form m_form;
};

// A model whose per-point Lipschitz constants are cut by `factor`: TunaMH's broken bound.
class ScaledLipschitzModel final : public Model {
public:
    ScaledLipschitzModel(std::shared_ptr<const Model> base, double factor) : m_base(std::move(base)), m_factor(factor) {}
    std::string name() const override { return m_base->name(); }
    int dimension() const override { return m_base->dimension(); }
    DataIndex dataSize() const override { return m_base->dataSize(); }
    double logPrior(const Vector &theta) const override { return m_base->logPrior(theta); }
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override
    {
        m_base->logLikelihoodRatios(from, to, rows, out);
    }
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override
    {
        m_base->logLikelihoodRatiosRange(from, to, first, out);
    }
    double logLikelihoodSum(const Vector &theta) const override { return m_base->logLikelihoodSum(theta); }
    Vector initialTheta() const override { return m_base->initialTheta(); }
    std::optional<std::vector<double>> pointLipschitzConstants() const override
    {
        auto constants = m_base->pointLipschitzConstants();
        for (double &c : *constants)
            c *= m_factor;
        return constants;
    }

private:
    std::shared_ptr<const Model> m_base;
    double m_factor;
};

// TunaMH with the λ·M_i term left out of the keep-probability's numerator: the broken variant
// of Algorithm 1's thinning. Otherwise TunaTest's algorithm, step for step.
class TunaWithoutLambdaInKeep final : public AcceptanceTest {
public:
    explicit TunaWithoutLambdaInKeep(double chi) : m_chi(chi) {}
    std::string name() const override { return "tunamh-broken"; }
    Decision decide(const TestProblem &problem, Rng &rng) override
    {
        const PointWeights &lipschitz = problem.model.lipschitzWeights();
        const double T = problem.temperature, M = (problem.proposed - problem.current).norm();
        const double C = lipschitz.total / T, L = C * M, lambda = m_chi * L * L;
        double logRatio = problem.exactPart();
        Decision decision;
        decision.pointsUsed = m_batch.run(problem.model, problem.current, problem.proposed, lipschitz, lambda + L, rng,
                                          [&](DataIndex i, double ratio) {
                                              const double Mi = lipschitz.weights[static_cast<std::size_t>(i)] / T * M;
                                              const double phi = std::clamp(0.5 * (Mi - ratio / T), 0.0, Mi);
                                              const double base = lambda * Mi;
                                              if (rng.uniform01() * (base + L * Mi) < L * phi) // no λ·M_i
                                                  logRatio += std::log1p(L * (Mi - phi) / base)
                                                              - std::log1p(L * phi / base);
                                              return true;
                                          });
        decision.accepted = std::log(rng.uniformOpen01()) < logRatio;
        return decision;
    }

private:
    double m_chi;
    PoissonMinibatch m_batch;
};

Vector point(double value) { return Vector::Constant(1, value); }

} // namespace

// SMH of both orders on a tall logistic regression (d = 4 with the bias) around its mode: moves
// far enough that Λ (the expected Poisson draws) is about 1 to 3, and a proposal ratio of 0.3
// in factor 0. The frequency of acceptance must be min(1, e^{a₀}) Π_i min(1, e^{r_i/T}).
BOOST_AUTO_TEST_CASE(smhAcceptsWithItsFactorisedProbability)
{
    const auto logistic = syntheticLogistic(2000, 3, true, 3);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    Rng rng(11);
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        const PointWeights &bounds = cv.proxies().derivativeBoundWeights();
        for (double scale : {0.04, 0.08, 0.12}) {
            Vector from = anchor, to = anchor;
            for (Eigen::Index j = 0; j < anchor.size(); ++j) {
                from[j] += scale * (j % 2 ? 1.0 : -1.0);
                to[j] -= 0.5 * scale;
            }
            const double power = order + 1;
            const double lambda = bounds.total
                                  * (std::pow((from - anchor).lpNorm<1>(), power) + std::pow((to - anchor).lpNorm<1>(), power))
                                  / (order == 1 ? 2.0 : 6.0);
            const TestProblem problem{cv, from, to, 1.0, logistic->logPrior(to) - logistic->logPrior(from) + 0.3};
            ScalableMetropolisTest test;
            const Frequency f = acceptanceFrequency(test, problem, rng);
            const double exact = smhProbability(cv, problem);
            BOOST_TEST_MESSAGE("SMH-" << order << " scale " << scale << ": Λ = " << lambda << ", accepted " << f.rate
                                      << " vs " << exact << ", mean points " << f.meanPoints);
            BOOST_TEST_INFO("SMH-" << order << " scale " << scale << ": " << f.rate << " vs " << exact);
            BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, kRepetitions));
            BOOST_TEST(f.violations == 0);
            BOOST_TEST(f.fallbacks == 0);
        }
    }
}

// The same at T = 0.5, 20 and 100 (the logistic default), with each move's length scaled by
// T^{1/(k+1)}, so that the residuals over T and the bounds stay in the range of the T = 1 case
// (0.6 to 150 points read a test): a kernel that drops the 1/T from a residual or from factor 0's
// proxy sum then accepts with a visibly different frequency. Resolution: 4.9 binomial standard
// errors over 100,000 repetitions (±0.0077 at p = ½, ±0.0045 at p = 0.9); about 0.3 s a row.
BOOST_AUTO_TEST_CASE(smhAcceptsWithItsFactorisedProbabilityAtOtherTemperatures)
{
    const auto logistic = syntheticLogistic(2000, 3, true, 3);
    Rng rng(12);
    for (double temperature : {0.5, 20.0, 100.0}) {
        const Vector anchor = findPosteriorMode(*logistic, temperature).mode;
        for (int order : {1, 2}) {
            const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
            for (double scale : {0.04, 0.12}) {
                const double length = scale * std::pow(temperature, 1.0 / (order + 1));
                Vector from = anchor, to = anchor;
                for (Eigen::Index j = 0; j < anchor.size(); ++j) {
                    from[j] += length * (j % 2 ? 1.0 : -1.0);
                    to[j] -= 0.5 * length;
                }
                const TestProblem problem{cv, from, to, temperature, logistic->logPrior(to) - logistic->logPrior(from) + 0.3};
                ScalableMetropolisTest test;
                const Frequency f = acceptanceFrequency(test, problem, rng);
                const double exact = smhProbability(cv, problem);
                BOOST_TEST_MESSAGE("SMH-" << order << " T " << temperature << " scale " << scale << ": accepted " << f.rate
                                          << " vs " << exact << ", mean points " << f.meanPoints);
                BOOST_TEST_INFO("SMH-" << order << " T " << temperature << " scale " << scale << ": " << f.rate << " vs "
                                       << exact);
                BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, kRepetitions));
                BOOST_TEST(f.violations == 0);
                BOOST_TEST(f.fallbacks == 0);
            }
        }
    }
}

// Moves so long that Λ > N: the full-data Metropolis test decides, with min(1, e^Δ), reading N.
BOOST_AUTO_TEST_CASE(smhFallsBackToTheFullDataTestWhenTheBoundsExceedN)
{
    const auto logistic = syntheticLogistic(500, 3, true, 4);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, 2));
    const Vector v = Vector::Constant(anchor.size(), 1.0);
    const Vector from = anchor - v, to = anchor + v;
    const TestProblem problem{cv, from, to, 1.0, logistic->logPrior(to) - logistic->logPrior(from)};
    ScalableMetropolisTest test;
    Rng rng(5);
    const Frequency f = acceptanceFrequency(test, problem, rng, 20'000);
    const double exact = teststats::metropolisProbability(fullDataDelta(problem));
    BOOST_TEST_INFO(f.rate << " vs " << exact);
    BOOST_TEST(f.fallbacks == 20'000);
    BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, 20'000));
    BOOST_TEST(f.meanPoints == 500.0, boost::test_tools::tolerance(1e-9));
}

// TunaMH's batch capped at N: a move whose Poisson mean χC²M² + CM exceeds N goes to the full-data
// Metropolis test, with min(1, e^Δ), both ways (the switch is symmetric in θ, θ').
BOOST_AUTO_TEST_CASE(tunaFallsBackToTheFullDataTestWhenItsBatchWouldExceedN)
{
    const auto model = syntheticLogistic(500, 3, true, 6);
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    const Vector v = Vector::Constant(anchor.size(), 0.05);
    const Vector from = anchor - v, to = anchor + v;
    Rng rng(8);
    for (const auto &[a, b] : {std::pair{from, to}, std::pair{to, from}}) {
        const TestProblem problem{*model, a, b, 1.0, model->logPrior(b) - model->logPrior(a)};
        TunaTest test(1.0); // λ = C²M² ≫ N
        const Frequency f = acceptanceFrequency(test, problem, rng, 20'000);
        const double exact = teststats::metropolisProbability(fullDataDelta(problem));
        BOOST_TEST_INFO(f.rate << " vs " << exact);
        BOOST_TEST(f.fallbacks == 20'000);
        BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, 20'000));
    }
}

// TunaMH on three distinct points (so that its exact probability is a sum over every Poisson
// count), both directions of a move, two χ: the frequency is the exact probability, and the
// exact probabilities satisfy detailed balance, a(θ, θ') π(θ) = a(θ', θ) π(θ').
BOOST_AUTO_TEST_CASE(tunaAcceptsWithItsExactProbability)
{
    const auto model = oneFeatureLogistic({0.7F, -1.3F, 2.1F}, {1, 0, 1}, 1.0);
    Rng rng(21);
    for (double chi : {0.05, 1.0}) {
        for (const auto &[a, b] : {std::pair{0.2, 1.1}, std::pair{1.1, 0.2}, std::pair{-0.4, 0.5}}) {
            const Vector from = point(a), to = point(b);
            const TestProblem problem{*model, from, to, 1.0, model->logPrior(to) - model->logPrior(from)};
            const TestProblem reverse{*model, to, from, 1.0, model->logPrior(from) - model->logPrior(to)};
            TunaTest test(chi, false); // three points: the formula of the kernel without its cap at N
            const Frequency f = acceptanceFrequency(test, problem, rng);
            const double exact = tunaProbability(*model, problem, chi);
            const double back = tunaProbability(*model, reverse, chi);
            BOOST_TEST_MESSAGE("TunaMH chi " << chi << " " << a << " -> " << b << ": accepted " << f.rate << " vs "
                                             << exact << ", mean points " << f.meanPoints);
            BOOST_TEST_INFO("chi " << chi << " " << a << " -> " << b << ": " << f.rate << " vs " << exact);
            BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, kRepetitions));
            BOOST_TEST(f.violations == 0);
            BOOST_TEST(exact == back * std::exp(fullDataDelta(problem)), boost::test_tools::tolerance(1e-9));
        }
    }
}

// The same three points at T = 0.5, 20 and 100: the exact probability (the formula above, with
// c_i and the ratios over T) against the frequency. A kernel that compares ℓ_i(θ') − ℓ_i(θ) with
// M_i = c_i M / T without dividing the ratio by T accepts 0.2 → 1.1 at T = 0.5 with 0.971
// against 0.991; one whose C = Σ c_i lacks the 1/T, with 0.896. Resolution: 4.9 binomial
// standard errors over 100,000 repetitions (±0.0077 at p = ½, ±0.0015 at p = 0.99); about 0.15 s
// a temperature.
BOOST_AUTO_TEST_CASE(tunaAcceptsWithItsExactProbabilityAtOtherTemperatures)
{
    const auto model = oneFeatureLogistic({0.7F, -1.3F, 2.1F}, {1, 0, 1}, 1.0);
    Rng rng(22);
    const double chi = 0.05;
    for (double temperature : {0.5, 20.0, 100.0}) {
        for (const auto &[a, b] : {std::pair{0.2, 1.1}, std::pair{1.1, 0.2}, std::pair{-0.4, 0.5}}) {
            const Vector from = point(a), to = point(b);
            const TestProblem problem{*model, from, to, temperature, model->logPrior(to) - model->logPrior(from)};
            const TestProblem reverse{*model, to, from, temperature, model->logPrior(from) - model->logPrior(to)};
            TunaTest test(chi, false);
            const Frequency f = acceptanceFrequency(test, problem, rng);
            const double exact = tunaProbability(*model, problem, chi);
            const double back = tunaProbability(*model, reverse, chi);
            BOOST_TEST_MESSAGE("TunaMH T " << temperature << " " << a << " -> " << b << ": accepted " << f.rate << " vs "
                                           << exact << ", mean points " << f.meanPoints);
            BOOST_TEST_INFO("T " << temperature << " " << a << " -> " << b << ": " << f.rate << " vs " << exact);
            BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, kRepetitions));
            BOOST_TEST(f.violations == 0);
            BOOST_TEST(exact == back * std::exp(fullDataDelta(problem)), boost::test_tools::tolerance(1e-9));
        }
    }
}

namespace {

// The thinned draws' variance against the grid posterior's (χ² at α = 10⁻⁴ on their ESS, about
// 3,000: a variance off by 10 %, an sd off by 5 %, is at the test's edge; off by 20 % is rejected).
void expectTheGridVariance(const std::string &name, const std::vector<double> &thinned, double variance)
{
    const double ess = effectiveSampleSize(ChainDraws{thinned});
    const teststats::VarianceCheck check = teststats::varianceAgainst(thinned, variance, ess, 1e-4);
    BOOST_TEST_MESSAGE(name << ": variance ratio " << check.ratio << " in [" << check.lower << ", " << check.upper
                            << "] over an ESS of " << ess);
    BOOST_TEST(check.consistent(), name << ": variance ratio " << check.ratio << " outside [" << check.lower << ", "
                                        << check.upper << "] (ESS " << ess << ")");
    BOOST_TEST(check.upper < 1.12, name << ": too few effective draws (" << ess << ") to resolve a 5 % error in sd");
}

} // namespace

// One weight, no bias, prior N(0, 1), N = 3000: SMH of both orders and TunaMH run chains whose
// thinned draws follow the grid posterior (KS) with its mean and variance.
BOOST_AUTO_TEST_CASE(chainsOfTheExactMinibatchKernelsHaveTheExactPosterior)
{
    const auto model = syntheticLogistic(3000, 1, false, 51);
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    const double laplaceSd = 1.0 / std::sqrt(-(makeTaylorProxies(*model, anchor, 2)->hessianSum()(0, 0) - 1.0));
    const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd);
    struct Case {
        const char *name;
        std::shared_ptr<const Model> model;
        std::function<std::unique_ptr<AcceptanceTest>()> test;
    };
    const std::vector<Case> cases = {
        {"SMH-1", std::make_shared<ControlVariateModel>(model, makeTaylorProxies(*model, anchor, 1)),
         [] { return std::make_unique<ScalableMetropolisTest>(); }},
        {"SMH-2", std::make_shared<ControlVariateModel>(model, makeTaylorProxies(*model, anchor, 2)),
         [] { return std::make_unique<ScalableMetropolisTest>(); }},
        // χ = 0.02: about 400 draws an iteration; at χ = 10⁻³ the acceptance is 5 % and 60,000
        // iterations hold too few independent draws for the KS test.
        {"TunaMH", model, [] { return std::make_unique<TunaTest>(0.02); }},
    };
    int seed = 7;
    for (const Case &c : cases) {
        const auto test = c.test();
        const RandomWalkProposal proposal(1.5 * laplaceSd);
        ChainSettings settings;
        settings.samples = 91000;
        settings.seed = static_cast<std::uint64_t>(++seed);
        settings.temperature = 1.0;
        settings.initialTheta = anchor;
        const ChainResult chain = runChain(*c.model, proposal, *test, settings);
        std::vector<double> thinned;
        for (std::int64_t t = 1000; t < chain.completed; t += 30)
            thinned.push_back(chain.samples(t, 0));
        const double d = teststats::ksStatistic(thinned, [&](double x) { return exact.cdf(x); });
        const double p = teststats::ksPValue(d, thinned.size());
        const double mean = std::accumulate(thinned.begin(), thinned.end(), 0.0) / static_cast<double>(thinned.size());
        const double accepted =
            std::accumulate(chain.accepted.begin(), chain.accepted.end(), 0.0) / static_cast<double>(chain.completed);
        const double points = std::accumulate(chain.batchSize.begin(), chain.batchSize.end(), 0.0)
                              / static_cast<double>(chain.completed);
        BOOST_TEST_MESSAGE(c.name << ": KS D = " << d << ", p = " << p << "; mean " << mean << " vs " << exact.mean()
                                  << "; acceptance " << accepted << ", points per iteration " << points);
        BOOST_TEST_INFO(c.name << ": KS D = " << d << ", p = " << p << "; mean " << mean << " vs " << exact.mean());
        BOOST_TEST(p > 1e-4);
        BOOST_TEST(std::abs(mean - exact.mean()) < teststats::zCritical(1e-4) * laplaceSd / std::sqrt(thinned.size()));
        expectTheGridVariance(c.name, thinned, exact.variance());
        BOOST_TEST(chain.boundViolations == 0);
    }
}

// The same chains at T = 0.5, 20 and 100 (the logistic image runs' default): the tempered grid posterior p(θ) exp(Σ ℓ_i(θ)/T), the
// anchor at its mode, the step 1.5 of its Laplace sd. Resolution as above: KS at p > 1e-4 over
// about 3,000 thinned draws (a shift of about 0.1 sd is seen), the mean within 3.9 sd/√3000, the
// variance within about ±10 %; about 0.45 s a chain.
BOOST_AUTO_TEST_CASE(chainsOfTheExactMinibatchKernelsHaveTheTemperedPosterior)
{
    const auto model = syntheticLogistic(3000, 1, false, 51);
    int seed = 17;
    for (double temperature : {0.5, 20.0, 100.0}) {
        const Vector anchor = findPosteriorMode(*model, temperature).mode;
        const double laplaceSd =
            1.0 / std::sqrt(-(makeTaylorProxies(*model, anchor, 2)->hessianSum()(0, 0) / temperature - 1.0));
        const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd,
                                             temperature);
        for (int kernel = 0; kernel < 3; ++kernel) {
            std::shared_ptr<const Model> chainModel = model;
            std::unique_ptr<AcceptanceTest> test;
            std::string name = "TunaMH";
            if (kernel < 2) {
                chainModel = std::make_shared<ControlVariateModel>(model, makeTaylorProxies(*model, anchor, kernel + 1));
                test = std::make_unique<ScalableMetropolisTest>();
                name = "SMH-" + std::to_string(kernel + 1);
            } else {
                test = std::make_unique<TunaTest>(0.02);
            }
            const RandomWalkProposal proposal(1.5 * laplaceSd);
            ChainSettings settings;
            settings.samples = 91000;
            settings.seed = static_cast<std::uint64_t>(++seed);
            settings.temperature = temperature;
            settings.initialTheta = anchor;
            const ChainResult chain = runChain(*chainModel, proposal, *test, settings);
            std::vector<double> thinned;
            for (std::int64_t t = 1000; t < chain.completed; t += 30)
                thinned.push_back(chain.samples(t, 0));
            const double d = teststats::ksStatistic(thinned, [&](double x) { return exact.cdf(x); });
            const double p = teststats::ksPValue(d, thinned.size());
            const double mean = std::accumulate(thinned.begin(), thinned.end(), 0.0) / static_cast<double>(thinned.size());
            const double points = std::accumulate(chain.batchSize.begin(), chain.batchSize.end(), 0.0)
                                  / static_cast<double>(chain.completed);
            BOOST_TEST_MESSAGE(name << " at T " << temperature << ": KS D = " << d << ", p = " << p << "; mean " << mean
                                    << " vs " << exact.mean() << "; points per iteration " << points);
            BOOST_TEST_INFO(name << " at T " << temperature << ": KS D = " << d << ", p = " << p << "; mean " << mean
                                 << " vs " << exact.mean());
            BOOST_TEST(p > 1e-4);
            BOOST_TEST(std::abs(mean - exact.mean()) < teststats::zCritical(1e-4) * laplaceSd / std::sqrt(thinned.size()));
            expectTheGridVariance(name + " at T " + std::to_string(temperature), thinned, exact.variance());
            BOOST_TEST(chain.boundViolations == 0);
        }
    }
}

namespace {

struct BrokenCheck {
    double good = 0.0, goodExact = 0.0, bad = 0.0, badExact = 0.0;
    std::int64_t badViolations = 0;
};

void checkBrokenIsCaught(const char *broken, const BrokenCheck &c)
{
    const double goodTolerance = teststats::acceptanceTolerance(c.goodExact, 0.0, kRepetitions);
    const double badTolerance = teststats::acceptanceTolerance(c.badExact, 0.0, kRepetitions);
    BOOST_TEST_MESSAGE(broken << ": correct " << c.good << " vs " << c.goodExact << " ± " << goodTolerance
                              << "; broken " << c.bad << " vs " << c.badExact << " ± " << badTolerance
                              << ", bound violations " << c.badViolations);
    BOOST_TEST_INFO(broken << ", correct: " << c.good << " vs " << c.goodExact);
    BOOST_TEST(std::abs(c.good - c.goodExact) <= goodTolerance);
    BOOST_TEST_INFO(broken << ", broken: " << c.bad << " vs " << c.badExact);
    BOOST_TEST(std::abs(c.bad - c.badExact) > badTolerance);
}

} // namespace

// A bound 10 % too small, where the bound is nearly reached: N identical rows x = 1 (y = 1),
// moves from θ = θ̂ so that only θ' has a remainder, of the sign that rejects, and up the
// likelihood, so that factor 0 accepts. SMH-1: θ̂ = 0, where |ℓ''| = ¼ is at its maximum;
// SMH-2: x·θ̂ = −1.52, the move across the maximum of |ℓ'''| = 1/(6√3) at −1.317. Each point's factor rejects with probability 1 − e^{−u_i}; with the
// cut bound it rejects with 1 − e^{−0.9 φ_i} < 1 − e^{−u_i}, so the product of the factors is
// no longer SMH's acceptance probability.
BOOST_AUTO_TEST_CASE(smhWithABoundTenPercentTooSmallIsCaught)
{
    Rng rng(31);
    // At T = 0.5, 1 and 20, with n = 1000·T rows, so that the same h makes Σ_i φ_i = 1 and the
    // residuals over T reach the same share of it: a kernel whose bounds leave out the 1/T has
    // bounds half the size at T = 0.5 (every drawn point breaks its bound; the count must be 0)
    // and 20 times too large at T = 20 (still exact, but no longer the correct kernel's Λ).
    for (double temperature : {0.5, 1.0, 20.0}) {
        for (int order : {1, 2}) {
            const int n = static_cast<int>(1000 * temperature);
            const auto model = identicalRows(n, 1.0F);
            const double anchorValue = order == 1 ? 0.0 : -1.52;
            // Σ_i φ_i = 1: n Ū h^{k+1} / ((k+1)! T) = 1.
            const double bound = order == 1 ? 0.25 : 1.0 / (6.0 * std::sqrt(3.0));
            const double h = std::pow((order == 1 ? 2.0 : 6.0) * temperature / (n * bound), 1.0 / (order + 1));
            const Vector anchor = point(anchorValue), from = anchor, to = point(anchorValue + h);
            const auto proxies = makeTaylorProxies(*model, anchor, order);
            const ControlVariateModel correct(model, proxies);
            const ControlVariateModel broken(model, std::make_shared<const ScaledBoundProxies>(proxies, 0.9));
            const TestProblem good{correct, from, to, temperature, 0.0};
            const TestProblem bad{broken, from, to, temperature, 0.0};
            const std::vector<double> residuals = allRatios(correct, from, to);
            const double sumU = -std::accumulate(residuals.begin(), residuals.end(), 0.0) / temperature;
            BOOST_TEST_MESSAGE("SMH-" << order << " T " << temperature << ": the residuals reach " << sumU
                                      << " of the bounds' 1");
            BOOST_REQUIRE(sumU > 0.95); // the bound is nearly reached
            ScalableMetropolisTest goodTest, badTest;
            BrokenCheck c;
            const Frequency g = acceptanceFrequency(goodTest, good, rng);
            const Frequency b = acceptanceFrequency(badTest, bad, rng);
            c.good = g.rate;
            c.bad = b.rate;
            c.goodExact = smhProbability(correct, good);
            c.badExact = smhProbability(broken, bad);
            c.badViolations = b.violations;
            BOOST_TEST_INFO("T " << temperature << ", SMH-" << order << ": " << g.violations << " violations");
            BOOST_TEST(g.violations == 0);
            BOOST_TEST(b.violations > 0); // the runtime check sees it too
            // Poisson draws: Λ = Σ_i φ_i = 1 for the correct kernel, so about 1 point a test
            // (fewer: factor 0 and the first rejection stop it); 20 times that if the bounds
            // lost their 1/T.
            BOOST_TEST_INFO("T " << temperature << ", SMH-" << order << ": mean points " << g.meanPoints);
            BOOST_TEST(g.meanPoints < 1.05);
            std::ostringstream name;
            name << "SMH-" << order << " at T " << temperature << " with a bound 10 % too small";
            checkBrokenIsCaught(name.str().c_str(), c);
        }
    }
}

// N identical rows x = (1, ½), y = 1, no bias: a move along x makes the margin form of the
// bound exact up to the remainder (Cauchy–Schwarz holds with equality), and the ℓ₁ form is
// (max_j|x_j| ‖x‖₁ / ‖x‖₂²)^{k+1} = 1.2^{k+1} times larger, so SMH's auto choice takes the
// margin form on every such move.
std::shared_ptr<const LogisticRegressionModel> identicalTwoFeatureRows(int n)
{
    auto data = std::make_shared<ClassificationData>();
    data->features.resize(n, 2);
    for (int i = 0; i < n; ++i) {
        data->features(i, 0) = 1.0F;
        data->features(i, 1) = 0.5F;
        data->labels.push_back(1);
    }
    LogisticRegressionOptions options;
    options.priorSd = 0.0;
    return std::make_shared<const LogisticRegressionModel>(data, options);
}

// The margin form where it is nearly reached, as smhWithABoundTenPercentTooSmallIsCaught does for
// the ℓ₁ form: rows x = (1, ½), from θ = θ̂ along x by h, with x·θ̂ = 0 (SMH-1, where |ℓ''| = ¼ is
// largest) or −1.52 (SMH-2, across the largest |ℓ'''| = 1/(6√3) at −1.317), and n = 1000·T rows so
// that Σ_i φ_i = 1. The auto kernel takes the margin form there (its Λ is 1.2^{k+1} times
// smaller), accepts with SMH's factorised probability and breaks no bound; the same kernel with
// margin bounds 10 % too small breaks them and accepts with a visibly different frequency.
BOOST_AUTO_TEST_CASE(smhWithAMarginBoundTenPercentTooSmallIsCaught)
{
    Rng rng(32);
    for (double temperature : {0.5, 1.0, 20.0}) {
        for (int order : {1, 2}) {
            const int n = static_cast<int>(1000 * temperature);
            const auto model = identicalTwoFeatureRows(n);
            Vector direction(2);
            direction << 1.0, 0.5;
            const double norm = direction.norm();
            direction /= norm;
            const double anchorMargin = order == 1 ? 0.0 : -1.52;
            const double bound = order == 1 ? 0.25 : 1.0 / (6.0 * std::sqrt(3.0));
            // Σ_i φ_i = n · bound · ‖x‖₂^{k+1} h^{k+1} / ((k+1)! T) = 1.
            const double h = std::pow((order == 1 ? 2.0 : 6.0) * temperature / (n * bound * std::pow(norm, order + 1)),
                                      1.0 / (order + 1));
            const Vector anchor = direction * (anchorMargin / norm), from = anchor, to = anchor + h * direction;
            const auto proxies = makeTaylorProxies(*model, anchor, order);
            BOOST_REQUIRE(proxies->hasMarginBounds());
            const SmhFactorBounds chosen = smhFactorBounds(*proxies, from, to, temperature, SmhBound::Auto);
            BOOST_TEST(chosen.margin);
            BOOST_TEST(std::abs(chosen.weights->total * chosen.scale - 1.0) < 1e-6);
            const ControlVariateModel correct(model, proxies);
            const ControlVariateModel broken(
                model, std::make_shared<const ScaledBoundProxies>(proxies, 0.9, ScaledBoundProxies::Form::Margin));
            const TestProblem good{correct, from, to, temperature, 0.0};
            const TestProblem bad{broken, from, to, temperature, 0.0};
            const std::vector<double> residuals = allRatios(correct, from, to);
            const double sumU = -std::accumulate(residuals.begin(), residuals.end(), 0.0) / temperature;
            BOOST_TEST_MESSAGE("SMH-" << order << " T " << temperature << ", margin form: the residuals reach " << sumU
                                      << " of the bounds' 1");
            BOOST_REQUIRE(sumU > 0.95); // the margin bound is nearly reached
            ScalableMetropolisTest goodTest, badTest;
            const Frequency g = acceptanceFrequency(goodTest, good, rng);
            const Frequency b = acceptanceFrequency(badTest, bad, rng);
            BOOST_TEST(g.violations == 0);
            BOOST_TEST(b.violations > 0);
            BOOST_TEST(g.meanPoints < 1.05);
            BrokenCheck c;
            c.good = g.rate;
            c.bad = b.rate;
            c.goodExact = smhProbability(correct, good);
            c.badExact = smhProbability(broken, bad);
            c.badViolations = b.violations;
            std::ostringstream name;
            name << "SMH-" << order << " at T " << temperature << " with a margin bound 10 % too small";
            checkBrokenIsCaught(name.str().c_str(), c);
        }
    }
}

// The margin bound |r_i(θ̂, θ)| ≤ V_i ‖θ − θ̂‖₂^{k+1} / (k+1)! holds for every row of a tall logistic
// regression (d = 6 with the bias) and of each GLM with bounded derivatives, at random θ from
// near the anchor to far from it; the largest ratio is reported. SMH's choice between the two
// forms is a function of the unordered pair: (θ, θ') and (θ', θ) get the same table and the same
// scale, bit for bit, so each move's acceptance is one valid factorisation's and detailed
// balance holds; on these dense Gaussian covariates the margin form is taken on most moves.
BOOST_AUTO_TEST_CASE(smhMarginBoundHoldsForEveryRowAndItsChoiceIsSymmetric)
{
    std::vector<std::shared_ptr<const Model>> models;
    models.push_back(syntheticLogistic(3000, 5, true, 21));
    for (const char *family : {"probit", "linear", "robust-linear"}) {
        SyntheticGlmSpec spec;
        spec.rows = 3000;
        spec.features = 5;
        spec.family.name = family;
        spec.seed = 22;
        models.push_back(std::make_shared<const GlmModel>(std::make_shared<const GlmData>(generateSyntheticGlm(spec)),
                                                          GlmOptions{spec.family, 1.0, true}));
    }
    Rng rng(23);
    for (const auto &model : models) {
        const Vector anchor = findPosteriorMode(*model, 1.0).mode;
        for (int order : {1, 2}) {
            const auto proxies = model->taylorProxies(anchor, order);
            BOOST_REQUIRE(proxies->hasMarginBounds());
            const std::vector<double> V = proxies->pointMarginBounds();
            const double factorial = order == 1 ? 2.0 : 6.0;
            double largest = 0.0;
            int marginChosen = 0, moves = 0;
            std::vector<double> r(static_cast<std::size_t>(model->dataSize()));
            for (double radius : {0.01, 0.1, 0.5, 2.0}) {
                for (int k = 0; k < 5; ++k) {
                    Vector theta = anchor, other = anchor;
                    for (Eigen::Index j = 0; j < anchor.size(); ++j) {
                        theta[j] += radius * rng.normal();
                        other[j] += radius * rng.normal();
                    }
                    proxies->residualsRange(anchor, theta, 0, r);
                    const double reach = std::pow((theta - anchor).norm(), order + 1) / factorial;
                    for (std::size_t i = 0; i < r.size(); ++i) {
                        BOOST_TEST_INFO(model->name() << " order " << order << " row " << i);
                        BOOST_TEST(std::abs(r[i]) <= V[i] * reach * (1.0 + 1e-9) + 1e-12);
                        if (V[i] * reach > 0.0)
                            largest = std::max(largest, std::abs(r[i]) / (V[i] * reach));
                    }
                    const SmhFactorBounds forth = smhFactorBounds(*proxies, theta, other, 1.0, SmhBound::Auto);
                    const SmhFactorBounds back = smhFactorBounds(*proxies, other, theta, 1.0, SmhBound::Auto);
                    BOOST_TEST(forth.weights == back.weights);
                    BOOST_TEST(forth.scale == back.scale); // bit for bit
                    marginChosen += forth.margin;
                    ++moves;
                }
            }
            BOOST_TEST_MESSAGE(model->name() << ", order " << order << ": largest |r_i| / bound " << largest
                                             << "; margin form on " << marginChosen << " of " << moves << " moves");
            // Linear regression's order-2 remainder is 0: both forms are 0 and the ℓ₁ form is kept.
            if (std::accumulate(V.begin(), V.end(), 0.0) > 0.0)
                BOOST_TEST(marginChosen * 2 > moves);
        }
    }
}

// TunaMH with Lipschitz constants 10 % too small, where |ℓ_i(θ) − ℓ_i(θ')| nearly reaches c_i M:
// y·x·θ = −5 (ℓ ≈ x·θ there, slope 0.993) and θ' − θ along x. The exact probability of the
// correct kernel satisfies detailed balance; the broken kernel's frequencies must not:
// a(θ, θ') ≠ e^Δ a(θ', θ).
BOOST_AUTO_TEST_CASE(tunaWithABoundTenPercentTooSmallIsCaught)
{
    const auto model = identicalRows(100, 1.0F);
    const auto broken = std::make_shared<const ScaledLipschitzModel>(model, 0.9);
    const Vector from = point(-5.0), to = point(-4.99);
    const double chi = 1.0;
    Rng rng(41);
    const TestProblem good{*model, from, to, 1.0, 0.0};
    const TestProblem goodBack{*model, to, from, 1.0, 0.0};
    const TestProblem bad{*broken, from, to, 1.0, 0.0};
    const TestProblem badBack{*broken, to, from, 1.0, 0.0};
    const double delta = fullDataDelta(good);
    TunaTest test(chi);
    BrokenCheck c;
    // Forward moves are accepted almost surely; the reverse move carries the information.
    const double exactBack = tunaProbability(*model, goodBack, chi);
    c.good = acceptanceFrequency(test, goodBack, rng).rate;
    c.goodExact = exactBack;
    const Frequency forward = acceptanceFrequency(test, bad, rng);
    const Frequency back = acceptanceFrequency(test, badBack, rng);
    c.bad = back.rate;
    c.badExact = forward.rate * std::exp(-delta); // detailed balance: a(θ', θ) = a(θ, θ') e^{−Δ}
    c.badViolations = forward.violations + back.violations;
    BOOST_TEST(tunaProbability(*model, good, chi) == exactBack * std::exp(delta), boost::test_tools::tolerance(1e-9));
    BOOST_TEST(c.badViolations > 0);
    checkBrokenIsCaught("TunaMH with a bound 10 % too small", c);
}

// TunaMH's keep-probability without its λ·M_i term, on the three-point data set of the exact
// test above: its frequency is no longer the exact probability.
BOOST_AUTO_TEST_CASE(tunaKeepProbabilityWithoutItsLambdaTermIsCaught)
{
    const auto model = oneFeatureLogistic({0.7F, -1.3F, 2.1F}, {1, 0, 1}, 1.0);
    const double chi = 1.0;
    const Vector from = point(1.1), to = point(0.2);
    const TestProblem problem{*model, from, to, 1.0, model->logPrior(to) - model->logPrior(from)};
    Rng rng(43);
    TunaTest correct(chi, false);
    TunaWithoutLambdaInKeep broken(chi);
    BrokenCheck c;
    c.goodExact = c.badExact = tunaProbability(*model, problem, chi);
    c.good = acceptanceFrequency(correct, problem, rng).rate;
    c.bad = acceptanceFrequency(broken, problem, rng).rate;
    checkBrokenIsCaught("TunaMH's keep-probability without lambda M_i", c);
}

// SMH's factor 0 without the proposal ratio, with Crank–Nicolson moves around a centre 1.5
// posterior sds off the mode (so that the ratio matters): the correct chain has the grid
// posterior, the broken one does not (KS).
BOOST_AUTO_TEST_CASE(smhWithoutTheProposalRatioIsCaught)
{
    const auto model = syntheticLogistic(3000, 1, false, 52);
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    const double laplaceSd = 1.0 / std::sqrt(-(makeTaylorProxies(*model, anchor, 2)->hessianSum()(0, 0) - 1.0));
    const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd);
    const ControlVariateModel cv(model, makeTaylorProxies(*model, anchor, 2));
    const CrankNicolsonProposal crankNicolson(anchor + point(1.5 * laplaceSd), Eigen::MatrixXd::Constant(1, 1, 1.5 * laplaceSd),
                                              0.7);
    // The same moves, reported as symmetric.
    class WithoutRatio final : public Proposal {
    public:
        explicit WithoutRatio(const Proposal &inner) : m_inner(inner) {}
        void propose(const Vector &from, Vector &to, double t, Rng &rng) const override { m_inner.propose(from, to, t, rng); }
        double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
        double step() const override { return m_inner.step(); }
        std::unique_ptr<Proposal> withStep(double) const override { return nullptr; }

    private:
        const Proposal &m_inner;
    } withoutRatio(crankNicolson);
    double pValues[2] = {0.0, 0.0};
    int k = 0;
    for (const Proposal *proposal : {static_cast<const Proposal *>(&crankNicolson), static_cast<const Proposal *>(&withoutRatio)}) {
        ScalableMetropolisTest test;
        ChainSettings settings;
        settings.samples = 31000;
        settings.seed = 61;
        settings.temperature = 1.0;
        settings.initialTheta = anchor;
        const ChainResult chain = runChain(cv, *proposal, test, settings);
        std::vector<double> thinned;
        for (std::int64_t t = 1000; t < chain.completed; t += 10)
            thinned.push_back(chain.samples(t, 0));
        pValues[k++] = teststats::ksPValue(teststats::ksStatistic(thinned, [&](double x) { return exact.cdf(x); }),
                                           thinned.size());
    }
    BOOST_TEST_MESSAGE("SMH with Crank-Nicolson moves: KS p = " << pValues[0] << "; without the proposal ratio in factor 0: "
                                                               << pValues[1]);
    BOOST_TEST(pValues[0] > 1e-4);
    BOOST_TEST(pValues[1] < 1e-6);
}

namespace {

using testsupport::refusal;

} // namespace

// The settings: SMH's control variates default to second order and cannot be turned off; TunaMH
// takes none; both refuse the models without bounds, naming the ones with; χ must be > 0.
BOOST_AUTO_TEST_CASE(settingsOfTheExactMinibatchMethods)
{
    RunConfig smh;
    smh.dataset = "tall-logreg";
    smh.method = TestMethod::Scalable;
    BOOST_TEST(controlVariatesName(resolvedControlVariates(smh)) == "taylor2");
    BOOST_TEST(methodVariantName(smh) == "smh+taylor2");
    BOOST_TEST(refusal(smh).empty());
    smh.controlVariates = ControlVariates::Taylor1;
    BOOST_TEST(refusal(smh).empty());
    smh.controlVariates = ControlVariates::None;
    BOOST_TEST(refusal(smh).find("none is refused for smh") != std::string::npos);
    smh.controlVariates = ControlVariates::Auto;
    smh.dataset = "gmm";
    const std::string noBound = refusal(smh);
    BOOST_TEST_INFO(noBound);
    BOOST_TEST(noBound == "method smh needs a bound on the Taylor remainders, which logreg, tall-logreg and tall-glm "
                          "or glm (with --model probit, linear or robust-linear) have; 'gmm' (the Gaussian mixture) has none: its derivatives grow without bound in theta; the methods it "
                          "runs with are minibatch, austere-c, austere-nc, sublhd, sgld, sghmc, barker, mh and naive-barker");

    RunConfig tuna;
    tuna.dataset = "logreg";
    tuna.method = TestMethod::Tuna;
    BOOST_TEST(controlVariatesName(resolvedControlVariates(tuna)) == "none");
    BOOST_TEST(refusal(tuna).empty());
    tuna.controlVariates = ControlVariates::Taylor2;
    BOOST_TEST(refusal(tuna).find("refused for tunamh") != std::string::npos);
    tuna.controlVariates = ControlVariates::Auto;
    tuna.tunaChi = -1e-5;
    BOOST_TEST(refusal(tuna).find("tuna-chi must be finite and > 0, or 0 to take the chi of TunaMH's forecast")
               != std::string::npos);
    tuna.tunaChi = 0.0; // chosen from the forecast once the data are loaded (tuna_setup.h)
    BOOST_TEST(refusal(tuna).empty());
    tuna.tunaChi = 1e-5;
    tuna.dataset = "worst-case";
    BOOST_TEST(refusal(tuna).find("method tunamh needs per-point Lipschitz constants, which logreg, tall-logreg and "
                                  "tall-glm or glm (with --model robust-linear) have; 'worst-case' (the Gaussian mean) has none: ")
               == 0);
    BOOST_TEST(methodName(parseMethod("smh")) == "smh");
    BOOST_TEST(methodName(parseMethod("tunamh")) == "tunamh");
}
