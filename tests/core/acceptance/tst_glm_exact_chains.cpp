// The minibatch kernels on the generalised linear models: each exact chain the model's bounds
// allow (SMH-1 and SMH-2 where the Taylor remainder is bounded: probit, linear and robust linear
// regression; TunaMH where the log-likelihood is Lipschitz: robust linear regression), and the
// minibatch test with second-order control variates on every model (approximate only by its
// correction distribution's error, about 1e-7), has the exact posterior as its stationary
// distribution, at T = 0.5, 1, 4 and 20; so does the minibatch test on the example plugin
// (examples/cloglog-plugin, complementary log-log regression). The model has one coefficient (no
// bias) on 3,000 synthetic rows of its own family, so the posterior is integrated on a grid
// (grid_posterior.h) and compared over 3,000 thinned draws by a KS test (p > 1e-4, which sees a
// shift of about 0.1 sd), by the mean (within 3.9 sd/√ESS, at most 0.087 sd) and by the variance (a
// two-sided χ² test at α = 1e-4 on the draws' ESS, at least 2,000: bounds within about ±12 % of
// the variance, so an sd 6 % off is at the edge and one 10 % off is rejected). Poisson regression has
// neither bound: both exact kernels refuse it by name.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
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
#include "core/acceptance/minibatch_barker_test.h"
#include "core/correction/correction_distribution.h"
#include "core/chain/chain_runner.h"
#include "core/data/synthetic_glm_data.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/models/control_variates.h"
#include "core/models/glm/glm_model.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/random_walk_proposal.h"
#include "tests/support/grid_posterior.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

std::shared_ptr<const GlmModel> oneCoefficient(const std::string &family)
{
    SyntheticGlmSpec spec;
    spec.rows = 3000;
    spec.features = 1;
    if (family == "cloglog")
        spec.family.plugin = std::string(MHX_TEST_PLUGIN_DIR) + "/test_cloglog_plugin.so";
    else
        spec.family.name = family;
    spec.seed = 31;
    auto rows = std::make_shared<const GlmData>(generateSyntheticGlm(spec));
    return std::make_shared<const GlmModel>(rows, GlmOptions{spec.family, 1.0, false});
}

struct Kernel {
    std::string name;
    int order; ///< Taylor order of the control variates; 0: none
    std::function<std::unique_ptr<AcceptanceTest>()> make;
    /// Iterations between kept draws, so that the kept draws are nearly independent:
    /// TunaMH accepts less often than SMH: its draws at a stride of 90 had an ESS of about 1,500
    /// in 3,000 at T = 0.5 and 1 (too few for the variance test's ±12 %), and at 30 were still
    /// correlated enough to make the KS test's p fall to 0.0025 on an exact chain.
    int thinning = 30;
};

std::vector<Kernel> kernelsFor(const Model &model)
{
    std::vector<Kernel> kernels;
    if (model.capabilities().has(ModelCapability::TaylorRemainderBound)) {
        kernels.push_back({"SMH-1", 1, [] { return std::make_unique<ScalableMetropolisTest>(); }});
        kernels.push_back({"SMH-2", 2, [] { return std::make_unique<ScalableMetropolisTest>(); }});
    }
    // χ = 0.02, as for logistic regression (tst_exact_minibatch): a few hundred draws an iteration.
    if (model.capabilities().has(ModelCapability::PointLipschitz))
        kernels.push_back({"TunaMH", 0, [] { return std::make_unique<TunaTest>(0.02); }, 180});
    static const auto correction = [] {
        CorrectionParams params;
        params.grid = 2000;
        return std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    }();
    kernels.push_back({"minibatch+taylor2", 2, [] { return std::make_unique<MinibatchBarkerTest>(correction, MinibatchSettings{}); }});
    return kernels;
}

} // namespace

BOOST_DATA_TEST_CASE(exactKernelsHaveTheExactPosterior,
                     data::make(std::vector<std::string>{"probit", "poisson", "linear", "robust-linear", "cloglog"})
                         * data::make(std::vector<double>{0.5, 1.0, 4.0, 20.0}),
                     family, temperature)
{
    const auto model = oneCoefficient(family);
    const Vector anchor = findPosteriorMode(*model, temperature).mode;
    const double curvature = -(makeTaylorProxies(*model, anchor, 2)->hessianSum()(0, 0) / temperature - 1.0);
    const double laplaceSd = 1.0 / std::sqrt(curvature);
    const teststats::GridPosterior exact(*model, anchor[0] - 10.0 * laplaceSd, anchor[0] + 10.0 * laplaceSd,
                                         temperature);
    std::uint64_t seed = 40 + static_cast<std::uint64_t>(temperature);
    const auto kernels = kernelsFor(*model);
    BOOST_TEST(kernels.size() == (family == "poisson" || family == "cloglog" ? 1u : family == "robust-linear" ? 4u : 3u));
    constexpr int kDraws = 3000;
    for (const Kernel &kernel : kernels) {
        std::shared_ptr<const Model> chainModel = model;
        if (kernel.order > 0)
            chainModel = std::make_shared<ControlVariateModel>(model, makeTaylorProxies(*model, anchor, kernel.order));
        const auto test = kernel.make();
        const RandomWalkProposal proposal(1.5 * laplaceSd);
        ChainSettings settings;
        settings.samples = 1000 + kDraws * kernel.thinning;
        settings.seed = ++seed;
        settings.temperature = temperature;
        settings.initialTheta = anchor;
        const ChainResult chain = runChain(*chainModel, proposal, *test, settings);
        std::vector<double> thinned;
        for (std::int64_t t = 1000; t < chain.completed; t += kernel.thinning)
            thinned.push_back(chain.samples(t, 0));
        const double d = teststats::ksStatistic(thinned, [&](double x) { return exact.cdf(x); });
        const double p = teststats::ksPValue(d, thinned.size());
        const auto n = static_cast<double>(thinned.size());
        const double mean = std::accumulate(thinned.begin(), thinned.end(), 0.0) / n;
        // The mean's and the variance's tests on the draws' effective sample size, not on their
        // count: thinned draws of a chain are still slightly correlated.
        // (An ESS above the draws' count, from antithetic draws, counts as the count.)
        const double ess = std::min(effectiveSampleSize(ChainDraws{thinned}), n);
        const teststats::VarianceCheck variance = teststats::varianceAgainst(thinned, exact.variance(), ess, 1e-4);
        const double points =
            std::accumulate(chain.batchSize.begin(), chain.batchSize.end(), 0.0) / static_cast<double>(chain.completed);
        std::ostringstream figures;
        figures << family << " " << kernel.name << " at T " << temperature << ": KS D = " << d << ", p = " << p
                << "; mean " << mean << " vs " << exact.mean() << "; variance ratio " << variance.ratio << " in ["
                << variance.lower << ", " << variance.upper << "] (ESS " << ess << " of " << n
                << " draws); points per iteration " << points;
        BOOST_TEST_MESSAGE(figures.str());
        BOOST_TEST_INFO(figures.str());
        BOOST_TEST(p > 1e-4);
        BOOST_TEST(std::abs(mean - exact.mean()) < teststats::zCritical(1e-4) * std::sqrt(exact.variance() / ess));
        BOOST_TEST(variance.consistent());
        BOOST_TEST(ess > 2000.0); // bounds within about ±12 % of the variance, ±6 % of the sd
        BOOST_TEST(chain.boundViolations == 0);
        // Linear regression's second-order proxies are exact: SMH-2 reads no point at all.
        if (family == "linear" && kernel.name == "SMH-2")
            BOOST_TEST(points == 0.0);
    }
}

// Poisson regression's derivatives are unbounded: SMH cannot draw its points and TunaMH has no
// Lipschitz constants; each says so rather than running with a wrong bound.
BOOST_AUTO_TEST_CASE(poissonIsRefusedByTheBoundedKernels)
{
    const auto model = oneCoefficient("poisson");
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    const auto proxies = makeTaylorProxies(*model, anchor, 2);
    BOOST_TEST(!proxies->pointDerivativeBounds().has_value());
    BOOST_CHECK_THROW(proxies->derivativeBoundWeights(), std::invalid_argument);
    BOOST_CHECK_THROW(model->lipschitzWeights(), std::invalid_argument);
}
