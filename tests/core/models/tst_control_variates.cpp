// Taylor-proxy control variates (control_variates.h): the
// proxies' exact sum plus the residuals is the full ratio, the sums G and H are the gradient
// and Hessian of the log-likelihood, the remainder bound holds, the posterior mode is a
// stationary point, the minibatch test on the control-variate estimate accepts with Barker's
// probability (AustereMH with the probability its error analysis predicts), and chains run on them
// have the exact posterior (a 1-D logistic regression whose posterior is integrated on a grid) as
// their stationary distribution; two broken control
// variates (inconsistent expansion points, a point missing from the sum) are caught.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <memory>
#include <numeric>
#include <sstream>
#include <optional>
#include <span>
#include <vector>

#include "core/acceptance/austere_design.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/acceptance/sequential_tests.h"
#include "core/chain/chain_runner.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/correction/correction_distribution.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/models/control_variates.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/random_walk_proposal.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/grid_posterior.h"
#include "tests/support/spliced_proxies.h"
#include "tests/support/statistics.h"

using namespace core;

// Counts heap allocations while `counting` is set: the hot loop must make none. malloc itself
// is interposed (Eigen allocates with malloc, not operator new, and operator new calls malloc);
// builds with a sanitizer, which interposes malloc itself, count nothing.
namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
} // namespace

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define MHX_COUNTS_ALLOCATIONS 1
extern "C" void *__libc_malloc(std::size_t size) noexcept;
extern "C" void *malloc(std::size_t size) noexcept
{
    if (counting.load(std::memory_order_relaxed))
        allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(size);
}
#endif

namespace {

std::shared_ptr<const LogisticRegressionModel> tallLogistic(std::int64_t rows, int features, std::uint64_t seed)
{
    SyntheticLogisticSpec spec;
    spec.rows = rows;
    spec.features = features;
    spec.seed = seed;
    LogisticRegressionOptions options;
    options.bias = true;
    options.priorSd = 1.0;
    return std::make_shared<const LogisticRegressionModel>(
        std::make_shared<ClassificationData>(generateSyntheticLogistic(spec)), options);
}

std::shared_ptr<const GaussianMixtureModel> mixture(Eigen::Index n)
{
    Rng rng(17);
    Eigen::VectorXd x(n);
    for (Eigen::Index i = 0; i < n; ++i)
        x[i] = (rng.uniformIndex(2) ? 1.0 : 0.0) + std::sqrt(2.0) * rng.normal();
    return std::make_shared<const GaussianMixtureModel>(x);
}

using teststats::fullSum;
using teststats::perturbed;

} // namespace

BOOST_AUTO_TEST_CASE(residualsAndProxySumAreTheExactRatioSum)
{
    const auto logistic = tallLogistic(5000, 4, 3);
    const auto gmm = mixture(5000);
    Rng rng(5);
    for (const Model *model : {static_cast<const Model *>(logistic.get()), static_cast<const Model *>(gmm.get())}) {
        const Vector anchor = findPosteriorMode(*model, 1.0).mode;
        for (int order : {1, 2}) {
            const ControlVariateModel cv(std::shared_ptr<const Model>(std::shared_ptr<const Model>{}, model),
                                         makeTaylorProxies(*model, anchor, order));
            for (int trial = 0; trial < 5; ++trial) {
                const Vector from = perturbed(anchor, 0.05, rng), to = perturbed(anchor, 0.05, rng);
                const double exact = fullSum(*model, from, to);
                const double split = cv.exactLogLikelihoodRatioPart(from, to) + fullSum(cv, from, to);
                BOOST_TEST_INFO(model->name() << " order " << order << ": " << split << " vs " << exact);
                BOOST_TEST(std::abs(split - exact) <= 1e-9 * std::max(1.0, std::abs(exact)));
                // The gathered rows give the same residuals as the contiguous ones.
                const std::vector<DataIndex> rows = {0, 17, 4999, 2500};
                std::vector<double> gathered(rows.size()), range(5000);
                cv.logLikelihoodRatios(from, to, rows, gathered);
                cv.logLikelihoodRatiosRange(from, to, 0, range);
                for (std::size_t k = 0; k < rows.size(); ++k)
                    BOOST_TEST(std::abs(gathered[k] - range[static_cast<std::size_t>(rows[k])]) < 1e-14);
            }
        }
    }
}

// Image rows are read by the likelihood's kernels as pixel bytes k times 1/255 in double, where
// the stored float k/255 differs in the eighth digit. The control variates' sums and the per-point
// bounds read the rows the same way, so the proxies' exact part plus the residuals is the exact
// ratio sum to rounding, and a bound is a bound on exactly the values the residuals are made of.
// The gradient sum made from the float features instead is off by a measurable amount, which the
// identity's tolerance resolves (reported; asserted to be over 10 times the tolerance).
BOOST_AUTO_TEST_CASE(onPixelRowsTheSumsAndBoundsReadTheValuesTheResidualsRead)
{
    const int n = 3000, d = 50;
    auto data = std::make_shared<ClassificationData>();
    data->features.resize(n, d);
    Rng pixels(41);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j)
            data->features(i, j) = static_cast<float>(static_cast<int>(pixels.uniform01() * 256.0) % 256) / 255.0F;
        data->labels.push_back(pixels.uniform01() < 0.5 ? 0 : 1);
    }
    LogisticRegressionOptions options;
    options.bias = true;
    options.priorSd = 1.0;
    const auto model = std::make_shared<const LogisticRegressionModel>(data, options);
    // The bytes the model finds in the features (pixelBytesOf): k = 255 x.
    std::vector<std::uint8_t> pixelBytes(static_cast<std::size_t>(n) * d);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < d; ++j)
            pixelBytes[static_cast<std::size_t>(i * d + j)] = static_cast<std::uint8_t>(std::lround(data->features(i, j) * 255.0F));
    const std::uint8_t *bytes = pixelBytes.data();
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    Rng rng(42);
    double largestError = 0.0, largestExact = 1.0;
    for (int order : {1, 2}) {
        const auto proxies = makeTaylorProxies(*model, anchor, order);
        const ControlVariateModel cv(model, proxies);
        for (int trial = 0; trial < 4; ++trial) {
            const Vector from = perturbed(anchor, 0.05, rng), to = perturbed(anchor, 0.05, rng);
            const double exact = fullSum(*model, from, to);
            const double split = cv.exactLogLikelihoodRatioPart(from, to) + fullSum(cv, from, to);
            largestError = std::max(largestError, std::abs(split - exact));
            largestExact = std::max(largestExact, std::abs(exact));
            BOOST_TEST(std::abs(split - exact) <= 1e-11 * std::max(1.0, std::abs(exact)));
        }
        // The bounds: of the bytes' values, exactly.
        const std::vector<double> norms = *model->pointLipschitzConstants();
        const std::vector<double> margin = proxies->pointMarginBounds();
        for (int i = 0; i < n; i += 97) {
            double squares = 1.0; // the bias
            for (int j = 0; j < d; ++j) {
                const double x = static_cast<double>(bytes[i * d + j]) * (1.0 / 255.0);
                squares += x * x;
            }
            BOOST_TEST(std::abs(norms[static_cast<std::size_t>(i)] - std::sqrt(squares)) <= 1e-15 * std::sqrt(squares));
            BOOST_TEST(margin[static_cast<std::size_t>(i)] > 0.0);
        }
    }
    // The gradient sum at the anchor from the bytes (as the model makes it) and from the floats.
    Vector fromBytes = Vector::Zero(d + 1), fromFloats = Vector::Zero(d + 1);
    for (int i = 0; i < n; ++i) {
        Vector x(d + 1), xf(d + 1);
        for (int j = 0; j < d; ++j) {
            x[j] = static_cast<double>(bytes[i * d + j]) * (1.0 / 255.0);
            xf[j] = static_cast<double>(data->features(i, j));
        }
        x[d] = xf[d] = 1.0;
        const double s = data->labels[static_cast<std::size_t>(i)] != 0 ? 1.0 : -1.0;
        const double slope = s / (1.0 + std::exp(s * x.dot(anchor)));
        fromBytes += slope * x;
        fromFloats += slope * xf;
    }
    const auto proxies = makeTaylorProxies(*model, anchor, 1);
    BOOST_TEST((proxies->gradientSum() - fromBytes).norm() <= 1e-9 * std::max(1.0, fromBytes.norm()));
    Rng moves(43);
    const Vector from = perturbed(anchor, 0.05, moves), to = perturbed(anchor, 0.05, moves);
    const double floatError = std::abs((fromFloats - fromBytes).dot(to - from));
    BOOST_TEST_MESSAGE("pixel rows: largest |split - exact| " << largestError << " with the bytes' sums; the floats' "
                                                              << "gradient sum alone would add " << floatError);
    BOOST_TEST(floatError > 10.0 * 1e-11 * largestExact);
}

BOOST_AUTO_TEST_CASE(sumsAreTheLogLikelihoodsGradientAndHessian)
{
    const auto logistic = tallLogistic(3000, 3, 8);
    const auto gmm = mixture(3000);
    for (const Model *model : {static_cast<const Model *>(logistic.get()), static_cast<const Model *>(gmm.get())}) {
        Vector at = model->initialTheta();
        at.array() += 0.3;
        const auto proxies = makeTaylorProxies(*model, at, 2);
        const int d = model->dimension();
        const double h = 1e-4;
        for (int j = 0; j < d; ++j) {
            Vector plus = at, minus = at;
            plus[j] += h;
            minus[j] -= h;
            const double derivative = (model->logLikelihoodSum(plus) - model->logLikelihoodSum(minus)) / (2 * h);
            BOOST_TEST_INFO(model->name() << " gradient " << j);
            BOOST_TEST(proxies->gradientSum()[j] == derivative, boost::test_tools::tolerance(1e-5));
            // The Hessian's column j from differences of the (exact) gradient sums.
            const Vector column = (makeTaylorProxies(*model, plus, 2)->gradientSum()
                                   - makeTaylorProxies(*model, minus, 2)->gradientSum()) / (2 * h);
            for (int k = 0; k < d; ++k) {
                BOOST_TEST_INFO(model->name() << " hessian " << k << "," << j);
                BOOST_TEST(proxies->hessianSum()(k, j) == column[k], boost::test_tools::tolerance(1e-5));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(remainderBoundHoldsForEveryPoint)
{
    const auto logistic = tallLogistic(4000, 6, 12);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    Rng rng(9);
    for (int order : {1, 2}) {
        const auto proxies = makeTaylorProxies(*logistic, anchor, order);
        std::vector<double> residuals(4000);
        for (double scale : {0.01, 0.1, 1.0}) {
            const Vector from = perturbed(anchor, scale, rng), to = perturbed(anchor, scale, rng);
            proxies->residualsRange(from, to, 0, residuals);
            double largest = 0.0;
            for (double r : residuals)
                largest = std::max(largest, std::abs(r));
            const double bound = *proxies->residualBound(from, to);
            BOOST_TEST_INFO("order " << order << ", scale " << scale << ": max |r| " << largest << ", bound " << bound);
            BOOST_TEST(largest <= bound);
        }
    }
    // The mixture's derivatives are unbounded in theta: no bound, never a made-up one.
    const auto gmm = mixture(100);
    BOOST_TEST(!makeTaylorProxies(*gmm, Vector::Zero(2), 2)->residualBound(Vector::Zero(2), Vector::Ones(2)));
}

BOOST_AUTO_TEST_CASE(modeIsAStationaryPointOfThePosterior)
{
    const auto logistic = tallLogistic(20000, 5, 21);
    const PosteriorMode mode = findPosteriorMode(*logistic, 1.0);
    BOOST_TEST(mode.converged);
    BOOST_TEST(mode.passes >= 2 * mode.newtonSteps);
    Vector prior;
    logistic->gradLogPrior(mode.mode, prior);
    const Vector gradient = makeTaylorProxies(*logistic, mode.mode, 1)->gradientSum() + prior;
    BOOST_TEST(gradient.norm() < 1e-6 * 20000);
    // Tempered: the likelihood counts 1/T, so the mode moves toward the prior's.
    const PosteriorMode hot = findPosteriorMode(*logistic, 5000.0);
    BOOST_TEST(hot.mode.norm() < mode.mode.norm());
    BOOST_CHECK_THROW(findPosteriorMode(*logistic, 0.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(modelsWithoutProxiesAreRefusedByName)
{
    class Flat final : public Model {
    public:
        std::string name() const override { return "flat"; }
        int dimension() const override { return 1; }
        DataIndex dataSize() const override { return 1; }
        double logPrior(const Vector &) const override { return 0.0; }
        void logLikelihoodRatios(const Vector &, const Vector &, std::span<const DataIndex>, std::span<double>) const override {}
        void logLikelihoodRatiosRange(const Vector &, const Vector &, DataIndex, std::span<double>) const override {}
        double logLikelihoodSum(const Vector &) const override { return 0.0; }
        Vector initialTheta() const override { return Vector::Zero(1); }
    } flat;
    BOOST_CHECK_EXCEPTION(makeTaylorProxies(flat, Vector::Zero(1), 1), std::invalid_argument,
                          [](const std::invalid_argument &e) {
                              return std::string(e.what()) == "a control-variate model needs Taylor proxies; the model 'flat' has none";
                          });
    const auto gmm = mixture(50);
    BOOST_CHECK_THROW(makeTaylorProxies(*gmm, Vector::Zero(2), 3), std::invalid_argument);
    BOOST_CHECK_THROW(makeTaylorProxies(*gmm, Vector::Zero(3), 1), std::invalid_argument);
}

// The minibatch test on the control-variate estimate Δ̂ = (1/T)[Σ proxies + (N/b) Σ_B r_i] +
// prior: its variance condition is on the whole Δ̂, so X_nc tops it up to σ² and the test accepts
// with Barker's probability of the exact Δ (within Monte Carlo error and the correction's L∞
// error). N/T is large enough that the plain test would need most of the data.
BOOST_AUTO_TEST_CASE(minibatchTestWithControlVariatesHasBarkersProbability)
{
    CorrectionParams params;
    params.grid = 2000;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    const auto logistic = tallLogistic(200'000, 4, 33);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    Rng rng(41);
    const int repetitions = 40000;
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        for (double scale : {0.002, 0.004, 0.008}) {
            const Vector from = perturbed(anchor, scale, rng), to = perturbed(from, scale, rng);
            const double logPrior = logistic->logPrior(to) - logistic->logPrior(from);
            const double delta = fullSum(*logistic, from, to) + logPrior;
            MinibatchBarkerTest test(correction, MinibatchSettings{});
            const TestProblem problem{cv, from, to, 1.0, logPrior};
            int accepted = 0;
            double points = 0.0;
            for (int r = 0; r < repetitions; ++r) {
                const Decision decision = test.decide(problem, rng);
                accepted += decision.accepted;
                points += decision.pointsUsed;
            }
            const double rate = static_cast<double>(accepted) / repetitions;
            const double exact = teststats::barkerProbability(delta);
            std::ostringstream figures;
            figures << "order " << order << ", delta " << delta << ": " << rate << " vs " << exact
                                     << ", mean batch " << points / repetitions;
            BOOST_TEST_MESSAGE(figures.str()); // the figures, with --log_level=message
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(rate - exact) <= teststats::acceptanceTolerance(exact, correction->linfError(), repetitions));
            BOOST_TEST(points / repetitions < 2000.0); // a small batch, not the data
        }
    }
}

// The same at T = 0.5, 20 and 100 (the logistic default), both orders, with the anchor at the
// tempered mode and moves scaled by √T (the tempered posterior's width): Δ = Σ ℓ_i-ratios / T +
// prior ratio. The 1/T enters twice, in the proxies' exact sum and in the residuals' N/T: a test
// that drops either sees a Δ̂ off by a factor up to T (without it on the proxies' sum, 0.321
// against 0.360 at T = 20, first order). Resolution: 4.9 binomial standard errors
// over 40,000 repetitions (±0.012 at p = ½) plus the correction's L∞ error; about 0.2 s a row.
BOOST_AUTO_TEST_CASE(minibatchTestWithControlVariatesHasBarkersProbabilityAtOtherTemperatures)
{
    CorrectionParams params;
    params.grid = 2000;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    const auto logistic = tallLogistic(200'000, 4, 33);
    Rng rng(42);
    const int repetitions = 40000;
    for (double temperature : {0.5, 20.0, 100.0}) {
        const Vector anchor = findPosteriorMode(*logistic, temperature).mode;
        for (int order : {1, 2}) {
            const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
            const double scale = 0.004 * std::sqrt(temperature);
            const Vector from = perturbed(anchor, scale, rng), to = perturbed(from, scale, rng);
            const double logPrior = logistic->logPrior(to) - logistic->logPrior(from);
            const double delta = fullSum(*logistic, from, to) / temperature + logPrior;
            MinibatchBarkerTest test(correction, MinibatchSettings{});
            const TestProblem problem{cv, from, to, temperature, logPrior};
            int accepted = 0;
            double points = 0.0;
            for (int r = 0; r < repetitions; ++r) {
                const Decision decision = test.decide(problem, rng);
                accepted += decision.accepted;
                points += decision.pointsUsed;
            }
            const double rate = static_cast<double>(accepted) / repetitions;
            const double exact = teststats::barkerProbability(delta);
            std::ostringstream figures;
            figures << "T " << temperature << ", order " << order << ", delta " << delta << ": " << rate << " vs "
                    << exact << ", mean batch " << points / repetitions;
            BOOST_TEST_MESSAGE(figures.str());
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(rate - exact) <= teststats::acceptanceTolerance(exact, correction->linfError(), repetitions));
            BOOST_TEST(points / repetitions < 2000.0);
        }
    }
}

// The test on the control-variate model, after its first call for the model's size, allocates
// nothing: the residual kernel keeps its scratch on the stack and the proxies' sum is plain loops.
BOOST_AUTO_TEST_CASE(minibatchTestWithControlVariatesAllocatesNothingPerIteration)
{
    CorrectionParams params;
    params.grid = 500;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    const auto logistic = tallLogistic(50'000, 6, 61);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    Rng rng(63);
    const Vector from = perturbed(anchor, 0.005, rng), to = perturbed(from, 0.005, rng);
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        MinibatchBarkerTest test(correction, MinibatchSettings{});
        const TestProblem problem{cv, from, to, 1.0, 0.0};
        test.decide(problem, rng); // sizes the buffers for N
        allocations = 0;
        counting = true;
        for (int r = 0; r < 2000; ++r)
            test.decide(problem, rng);
        counting = false;
#ifdef MHX_COUNTS_ALLOCATIONS
        BOOST_TEST(allocations.load() == 0, "order " << order << ": " << allocations.load() << " allocations");
#else
        BOOST_TEST_MESSAGE("allocations are not counted in a sanitizer build");
#endif
    }
}

// MHSubLhd with control variates takes its range from the remainder bound and accepts with
// Metropolis' probability up to its δ.
BOOST_AUTO_TEST_CASE(subLhdWithControlVariatesHasMetropolisProbability)
{
    const auto logistic = tallLogistic(100'000, 3, 35);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, 2));
    Rng rng(43);
    const int repetitions = 20000;
    for (double scale : {0.003, 0.006}) {
        const Vector from = perturbed(anchor, scale, rng), to = perturbed(from, scale, rng);
        const double logPrior = logistic->logPrior(to) - logistic->logPrior(from);
        const double delta = fullSum(*logistic, from, to) + logPrior;
        SubLhdSettings settings;
        settings.useModelBound = true; // with control variates, the remainder bound
        SubLhdTest test(settings);
        const TestProblem problem{cv, from, to, 1.0, logPrior};
        int accepted = 0;
        std::int64_t scans = 0;
        for (int r = 0; r < repetitions; ++r) {
            const Decision decision = test.decide(problem, rng);
            accepted += decision.accepted;
            scans += decision.fullScanPoints;
        }
        const double rate = static_cast<double>(accepted) / repetitions;
        const double exact = teststats::metropolisProbability(delta);
        std::ostringstream figures;
        figures << "delta " << delta << ": " << rate << " vs " << exact;
        BOOST_TEST_MESSAGE(figures.str()); // the figures, with --log_level=message
        BOOST_TEST_INFO(figures.str());
        BOOST_TEST(std::abs(rate - exact) <= teststats::acceptanceTolerance(exact, settings.delta, repetitions));
        BOOST_TEST(scans == 0); // the range came from the bound, never from a pass
    }
}

// AustereMH with control variates runs its sequential t-test on the residuals' Λ_i = N r_i / T
// against ψ = log u − (prior ratio + proxies' sum / T). Its acceptance probability is then the
// one the dynamic program of Korattikara et al., "Austerity in MCMC Land", supplement (Eq. 18–21)
// predicts for the residuals' population mean and sd, with the exact part in the place of the prior
// ratio: Metropolis' probability of the exact Δ plus that predicted error. Small residuals make a
// small batch enough.
BOOST_AUTO_TEST_CASE(austereWithControlVariatesHasThePredictedProbability)
{
    const auto logistic = tallLogistic(100'000, 3, 37);
    const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
    Rng rng(45);
    const int repetitions = 20000;
    AustereSettings settings;
    settings.epsilon = 0.01;
    const AustereDesignTable errorTable(logistic->dataSize(), settings.batch, settings.epsilon);
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        for (double scale : {0.003, 0.006}) {
            const Vector from = perturbed(anchor, scale, rng), to = perturbed(from, scale, rng);
            const double logPrior = logistic->logPrior(to) - logistic->logPrior(from);
            const double delta = fullSum(*logistic, from, to) + logPrior;
            const auto [residualMean, residualSd] = cv.logLikelihoodRatioMoments(from, to);
            const auto n = static_cast<double>(logistic->dataSize());
            const TestProblem problem{cv, from, to, 1.0, logPrior};
            const double predicted = teststats::metropolisProbability(delta)
                                     + errorTable.acceptanceError(n * residualMean, n * residualSd, problem.exactPart());
            AustereTest test(settings);
            int accepted = 0;
            double points = 0.0;
            std::int64_t scans = 0;
            for (int r = 0; r < repetitions; ++r) {
                const Decision decision = test.decide(problem, rng);
                accepted += decision.accepted;
                points += static_cast<double>(decision.pointsUsed);
                scans += decision.fullScanPoints;
            }
            const double rate = static_cast<double>(accepted) / repetitions;
            std::ostringstream figures;
            figures << "order " << order << ", delta " << delta << ": " << rate << " vs predicted " << predicted
                                     << " (Metropolis " << teststats::metropolisProbability(delta) << "), mean batch "
                                     << points / repetitions;
            BOOST_TEST_MESSAGE(figures.str()); // the figures, with --log_level=message
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(rate - predicted) <= teststats::acceptanceTolerance(predicted, 0.005, repetitions));
            BOOST_TEST(points / repetitions < 0.05 * n); // the residuals decide early
            BOOST_TEST(scans == 0);
        }
    }
}

// One weight, no bias, prior N(0, 1), N = 3000 rows: the posterior is integrated on a fine grid,
// and the chains' thinned draws must follow it (KS) with the right mean and variance. Resolution:
// KS at p > 1e-4 and the mean within 3.9 sd/√n over n = 4,000 thinned draws; the variance by a χ²
// test at α = 10⁻⁴ on their ESS (at least 2,500: within about ±10 %, an sd off by 5 % at the
// test's edge, one off by 10 % rejected).
BOOST_AUTO_TEST_CASE(chainsWithControlVariatesHaveTheExactPosterior)
{
    SyntheticLogisticSpec spec;
    spec.rows = 3000;
    spec.features = 1;
    spec.bias = false;
    spec.seed = 51;
    LogisticRegressionOptions options;
    options.priorSd = 1.0;
    const auto model = std::make_shared<const LogisticRegressionModel>(
        std::make_shared<ClassificationData>(generateSyntheticLogistic(spec)), options);
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    // The exact posterior on a grid of ±10 Laplace sds.
    const auto proxies2 = makeTaylorProxies(*model, anchor, 2);
    const double laplaceSd = 1.0 / std::sqrt(-(proxies2->hessianSum()(0, 0) - 1.0));
    const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd);
    const double mean = exact.mean();
    const auto exactCdf = [&](double x) { return exact.cdf(x); };

    CorrectionParams params;
    params.grid = 2000;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    for (int variant = 0; variant < 3; ++variant) {
        // The minibatch test on first- and second-order proxies, and AustereMH on second-order ones.
        const int order = variant == 0 ? 1 : 2;
        const ControlVariateModel cv(model, makeTaylorProxies(*model, anchor, order));
        MinibatchBarkerTest minibatch(correction, MinibatchSettings{});
        AustereSettings austereSettings;
        austereSettings.epsilon = 0.001;
        AustereTest austere(austereSettings);
        AcceptanceTest &test = variant == 2 ? static_cast<AcceptanceTest &>(austere) : minibatch;
        const RandomWalkProposal proposal(laplaceSd);
        ChainSettings settings;
        settings.samples = 121000;
        settings.seed = variant == 2 ? 10 : 7 + order;
        settings.temperature = 1.0;
        settings.initialTheta = anchor;
        const ChainResult chain = runChain(cv, proposal, test, settings);
        std::vector<double> thinned;
        for (std::int64_t t = 1000; t < chain.completed; t += 30)
            thinned.push_back(chain.samples(t, 0));
        const double d = teststats::ksStatistic(thinned, exactCdf);
        const double p = teststats::ksPValue(d, thinned.size());
        const double sampleMean = std::accumulate(thinned.begin(), thinned.end(), 0.0) / thinned.size();
        const double ess = effectiveSampleSize(ChainDraws{thinned});
        const teststats::VarianceCheck variance = teststats::varianceAgainst(thinned, exact.variance(), ess, 1e-4);
        std::ostringstream figures;
        figures << test.name() << ", order " << order << ": KS D = " << d << ", p = " << p << "; mean " << sampleMean
                << " vs " << mean << "; variance ratio " << variance.ratio << " in [" << variance.lower << ", "
                << variance.upper << "] (ESS " << ess << ")";
        BOOST_TEST_MESSAGE(figures.str()); // the figures, with --log_level=message
        BOOST_TEST_INFO(figures.str());
        BOOST_TEST(p > 1e-4);
        BOOST_TEST(std::abs(sampleMean - mean) < teststats::zCritical(1e-4) * laplaceSd / std::sqrt(thinned.size()));
        BOOST_TEST(variance.consistent());
        BOOST_TEST(ess > 2500.0);
    }
}

namespace {

// A broken control variate for the tests below to catch: the proxies' exact sum from one set of
// proxies, the residuals the minibatch estimates from another. When the two do not describe the
// same proxies, sum + residuals is no longer the exact ratio.
using testdata::SplicedProxies;

struct AcceptanceCheck {
    double rate = 0.0;
    double exact = 0.0;
    double tolerance = 0.0;
    bool agrees() const { return std::abs(rate - exact) <= tolerance; }
};

// The minibatch test on `cv` for the move from → to, against Barker's probability of the exact
// Δ of `base`.
AcceptanceCheck minibatchAcceptance(const Model &base, const Model &cv, const Vector &from, const Vector &to,
                                    const std::shared_ptr<const CorrectionDistribution> &correction, Rng &rng)
{
    const int repetitions = 40000;
    const double logPrior = base.logPrior(to) - base.logPrior(from);
    MinibatchBarkerTest test(correction, MinibatchSettings{});
    const TestProblem problem{cv, from, to, 1.0, logPrior};
    int accepted = 0;
    for (int r = 0; r < repetitions; ++r)
        accepted += test.decide(problem, rng).accepted;
    AcceptanceCheck check;
    check.rate = static_cast<double>(accepted) / repetitions;
    check.exact = teststats::barkerProbability(fullSum(base, from, to) + logPrior);
    check.tolerance = teststats::acceptanceTolerance(check.exact, correction->linfError(), repetitions);
    return check;
}

// The same move on the correct control variates must agree with Barker's probability and on the
// broken ones (named `broken`) must not.
void checkBrokenIsCaught(const char *broken, const AcceptanceCheck &good, const AcceptanceCheck &bad)
{
    BOOST_TEST_MESSAGE("correct: " << good.rate << " vs " << good.exact << " ± " << good.tolerance << "; " << broken
                                   << ": " << bad.rate);
    BOOST_TEST_INFO("correct: " << good.rate << " vs " << good.exact << " ± " << good.tolerance);
    BOOST_TEST(good.agrees());
    BOOST_TEST_INFO(broken << ": " << bad.rate << " vs " << bad.exact << " ± " << bad.tolerance);
    BOOST_TEST(!bad.agrees());
}

} // namespace

// Two broken control variates that the acceptance-probability test must catch, beside the
// correct one on the same moves. Moves are symmetric about the anchor (θ̂ ∓ v), so the exact Δ
// stays near 0, where Barker's probability is most sensitive, however far apart θ and θ' are.
//  - "inconsistent expansion points": the sums G, H precomputed at θ̂ but the per-point proxies
//    (the residuals) expanded at θ̂ + δ;
//  - "one point missing from the proxy sum": G and H summed over N − 1 points, on a small N and
//    a move along that point's features long enough that its proxy term is ≥ 0.5 nats.
BOOST_AUTO_TEST_CASE(brokenControlVariatesAreCaughtByTheAcceptanceTest)
{
    CorrectionParams params;
    params.grid = 2000;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    Rng rng(43);

    {
        const auto logistic = tallLogistic(20'000, 3, 51);
        const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
        const auto proxies = makeTaylorProxies(*logistic, anchor, 2);
        const Vector shift = Vector::Constant(anchor.size(), 0.05);
        const auto shifted = makeTaylorProxies(*logistic, anchor + shift, 2);
        const ControlVariateModel correct(logistic, proxies);
        const ControlVariateModel inconsistent(logistic, std::make_shared<const SplicedProxies>(*proxies, shifted));
        const Vector v = Vector::Constant(anchor.size(), 0.04);
        const Vector from = anchor - v, to = anchor + v;
        const double error = std::abs(inconsistent.exactLogLikelihoodRatioPart(from, to) + fullSum(inconsistent, from, to)
                                      - fullSum(*logistic, from, to));
        BOOST_TEST_MESSAGE("inconsistent expansion points: the estimate is off by " << error << " nats");
        BOOST_REQUIRE(error >= 0.5);
        const AcceptanceCheck good = minibatchAcceptance(*logistic, correct, from, to, correction, rng);
        const AcceptanceCheck bad = minibatchAcceptance(*logistic, inconsistent, from, to, correction, rng);
        checkBrokenIsCaught("inconsistent expansion points", good, bad);
    }
    {
        const auto logistic = tallLogistic(500, 3, 52);
        const Vector anchor = findPosteriorMode(*logistic, 1.0).mode;
        // The point whose proxy moves most along its own features: the largest |y − σ(x·θ̂)| |x|.
        const Eigen::Index n = logistic->dataSize();
        DataIndex missing = 0;
        double largest = -1.0;
        Vector direction;
        for (DataIndex i = 0; i < n; ++i) {
            const int features = logistic->data().featureCount();
            Vector x(anchor.size());
            for (int k = 0; k < features; ++k)
                x[k] = logistic->data().features(i, k);
            x[features] = 1.0; // the bias weight comes last
            const double margin = x.dot(anchor);
            const double residual = logistic->data().labels[static_cast<std::size_t>(i)] - 1.0 / (1.0 + std::exp(-margin));
            if (std::abs(residual) * x.norm() > largest) {
                largest = std::abs(residual) * x.norm();
                missing = i;
                direction = x.normalized();
            }
        }
        std::vector<DataIndex> others;
        for (DataIndex i = 0; i < n; ++i)
            if (i != missing)
                others.push_back(i);
        const auto without = std::make_shared<const LogisticRegressionModel>(
            std::make_shared<ClassificationData>(selectRows(logistic->data(), others)), logistic->options());
        const auto proxies = makeTaylorProxies(*logistic, anchor, 2);
        const auto short_ = makeTaylorProxies(*without, anchor, 2);
        const ControlVariateModel correct(logistic, proxies);
        const ControlVariateModel missingPoint(logistic, std::make_shared<const SplicedProxies>(*short_, proxies));
        // Long enough that the missing point's proxy term, 2 g·v, is 1 nat.
        const Vector v = direction * (0.5 / largest);
        const Vector from = anchor - v, to = anchor + v;
        const double missingTerm = std::abs(correct.exactLogLikelihoodRatioPart(from, to)
                                            - missingPoint.exactLogLikelihoodRatioPart(from, to));
        BOOST_TEST_MESSAGE("one point missing from the proxy sum: its term is " << missingTerm << " nats");
        BOOST_REQUIRE(missingTerm >= 0.5);
        const AcceptanceCheck good = minibatchAcceptance(*logistic, correct, from, to, correction, rng);
        const AcceptanceCheck bad = minibatchAcceptance(*logistic, missingPoint, from, to, correction, rng);
        checkBrokenIsCaught("one point missing from the proxy sum", good, bad);
    }
}
