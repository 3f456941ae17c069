#include "core/experiment/settings/method_registry.h"

#include <algorithm>
#include <stdexcept>

#include "core/acceptance/accept_every_move.h"
#include "core/acceptance/austere_adaptive_test.h"
#include "core/acceptance/exact_minibatch_tests.h"
#include "core/acceptance/firefly_test.h"
#include "core/acceptance/full_data_tests.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/acceptance/sequential_tests.h"
#include "core/experiment/settings/prose.h"
#include "core/experiment/settings/run_config.h"

namespace core {
namespace {

using Correction = std::shared_ptr<const CorrectionDistribution>;
using Designer = std::shared_ptr<const AustereDesigner>;

std::unique_ptr<AcceptanceTest> makeMinibatch(const RunConfig &config, Correction correction, Designer)
{
    return std::make_unique<MinibatchBarkerTest>(std::move(correction), config.minibatch);
}

std::unique_ptr<AcceptanceTest> makeAustereConservative(const RunConfig &config, Correction, Designer)
{
    return std::make_unique<AustereTest>(config.austere);
}

std::unique_ptr<AcceptanceTest> makeAustereNonConservative(const RunConfig &config, Correction, Designer designer)
{
    return std::make_unique<AustereAdaptiveTest>(std::move(designer), config.austereErrorBound);
}

std::unique_ptr<AcceptanceTest> makeSubLhd(const RunConfig &config, Correction, Designer)
{
    // With control variates the residuals' range is the Taylor remainder's bound (the model's
    // logLikelihoodRatioBound), never a pass over the data (Bardenet, Doucet & Holmes 2017).
    SubLhdSettings settings = config.sublhd;
    if (controlVariateOrder(config) > 0)
        settings.useModelBound = true;
    return std::make_unique<SubLhdTest>(settings);
}

std::unique_ptr<AcceptanceTest> makeScalable(const RunConfig &config, Correction, Designer)
{
    return std::make_unique<ScalableMetropolisTest>(config.smhBound);
}

std::unique_ptr<AcceptanceTest> makeTuna(const RunConfig &config, Correction, Designer)
{
    return std::make_unique<TunaTest>(config.tunaChi);
}

std::unique_ptr<AcceptanceTest> makeFirefly(const RunConfig &config, Correction, Designer)
{
    return std::make_unique<FireflyTest>(FireflySettings{config.flymcDarkToBright});
}

std::unique_ptr<AcceptanceTest> makeNoAcceptStep(const RunConfig &config, Correction, Designer)
{
    return std::make_unique<AcceptEveryMove>(methodName(config.method),
                                             !methodRow(config.method).carriesStateBetweenIterations);
}

std::unique_ptr<AcceptanceTest> makeBarker(const RunConfig &, Correction, Designer)
{
    return std::make_unique<BarkerTest>();
}

std::unique_ptr<AcceptanceTest> makeMetropolis(const RunConfig &, Correction, Designer)
{
    return std::make_unique<MetropolisTest>();
}

std::unique_ptr<AcceptanceTest> makeNaiveBarker(const RunConfig &config, Correction, Designer)
{
    return std::make_unique<NaiveMinibatchBarkerTest>(config.correction.sigma, config.minibatch);
}

// Columns: method, name, label, description, rule, exact, needsCorrection, readsSmallMinibatch,
// needs, controlVariates, reportsBoundViolations,
// carriesStateBetweenIterations, costsAPassPerIteration, make[, move, maxControlVariateOrder,
// carriedState].
std::vector<MethodEntry> makeTable()
{
    using enum AcceptRule;
    using enum ControlVariatePolicy;
    using enum ModelCapability;
    return {
        {TestMethod::Minibatch, "minibatch", "minibatch (corrected)",
         "The corrected minibatch Barker test (Seita et al. Sec. 4, Algorithm 1).", Barker, false, true, true,
         {}, Optional, false, false, false, makeMinibatch},
        {TestMethod::AustereConservative, "austere-c", "austere-c (AustereMH)",
         "AustereMH with its batch m and error level ε fixed before the run (Korattikara et al.; Seita et al. "
         "Sec. 6.1).",
         Metropolis, false, false, false, {}, Optional, false, false, false, makeAustereConservative},
        {TestMethod::AustereNonConservative, "austere-nc", "austere-nc (AustereMH, per-step design)",
         "AustereMH with (m, ε) chosen at every iteration from a full pass over the data (Seita et al. Sec. 6.1); "
         "needs the |ΔP| bound.",
         Metropolis, false, false, false, {}, Optional, false, false, true, makeAustereNonConservative},
        {TestMethod::SubLhd, "sublhd", "sublhd (MHSubLhd)",
         "MHSubLhd, Bardenet et al.'s adaptive subsampling test (Seita et al. Sec. 6.1).", Metropolis, false, false,
         false, {}, Optional, false, false, false, makeSubLhd},
        {TestMethod::Scalable, "smh", "smh (scalable MH, exact)",
         "SMH, scalable Metropolis–Hastings (Cornish et al. 2019, Sec. 3): exact; Poisson-thinned factors of the "
         "Taylor residuals, second order by default. Logistic data only.",
         Metropolis, true, false, true, {TaylorProxies, TaylorRemainderBound}, Required, true, false, false, makeScalable},
        {TestMethod::Tuna, "tunamh", "tunamh (TunaMH, exact)",
         "TunaMH (Zhang, Cooper & De Sa 2020, Sec. 4, Algorithm 1): exact; a Poisson minibatch drawn by Lipschitz "
         "bounds. Its batch grows with N (no control variates). Logistic data only.",
         Metropolis, true, false, false, {PointLipschitz}, Never, true, false, false, makeTuna},
        {TestMethod::Firefly, "flymc", "flymc (Firefly MC, exact)",
         "FlyMC, Firefly Monte Carlo (Maclaurin & Adams 2014, Sec. 3): exact; only the 'bright' points are read, "
         "their brightness resampled each iteration against Jaakkola–Jordan lower bounds. Logistic data only.",
         Metropolis, true, false, false, {CollapsibleLowerBound}, Never, false, true, false, makeFirefly,
         MethodMove::ProposalAndTest, 2, "its bright points"},
        {TestMethod::Sgld, "sgld", "sgld (stochastic-gradient Langevin, no accept step)",
         "SGLD (Welling & Teh 2011, Sec. 3): Langevin moves with a minibatch gradient and no accept step; "
         "approximate, its bias grows with the step. With --control-variates taylor1 it is SGLD-CV (Baker et al. "
         "2019, Sec. 3).",
         Metropolis, false, false, true, {Gradient}, Optional, false, false, false, makeNoAcceptStep,
         MethodMove::GradientLangevin, 1},
        {TestMethod::Sghmc, "sghmc", "sghmc (stochastic-gradient HMC, no accept step)",
         "SGHMC (Chen, Fox & Guestrin 2014, Sec. 3.3, Eq. 15): momentum with friction --sghmc-friction, a "
         "minibatch gradient and no accept step; approximate, its bias grows with the step.",
         Metropolis, false, false, true, {Gradient}, Optional, false, true, false, makeNoAcceptStep,
         MethodMove::GradientHamiltonian, 1, "its momentum"},
        {TestMethod::ZigZag, "zigzag", "zigzag (Zig-Zag process, exact)",
         "The Zig-Zag process with subsampling and control variates (Bierkens, Fearnhead & Roberts 2019, Sec. 3-4): "
         "exact and continuous-time, one point read per proposed switch, read off every --zigzag-spacing. "
         "zigzag+none subsamples against a global bound (Sec. 3.2): exact, but O(N) reads per unit of time.",
         Metropolis, true, false, true, {Gradient, TaylorProxies, GradientLipschitz}, ByDefault, true, true, false,
         makeNoAcceptStep, MethodMove::ZigZag, 1, "its velocity", {Gradient, GradientLipschitz, PointLipschitz},
         "it bounds every point's gradient by its log-likelihood's Lipschitz constant"},
        {TestMethod::Barker, "barker", "barker (full data)",
         "The exact Barker test on all N points (Seita et al. Sec. 3).", Barker, true, false, false, {}, Never,
         false, false, false, makeBarker},
        {TestMethod::Metropolis, "mh", "mh (full data)",
         "The exact Metropolis–Hastings test on all N points (Seita et al. Sec. 3).", Metropolis, true, false, false,
         {}, Never, false, false, false, makeMetropolis},
        {TestMethod::NaiveBarker, "naive-barker", "naive-barker (uncorrected)",
         "The minibatch Barker test without the correction, biased by the batch noise (Seita et al. Sec. 3.3).",
         Barker, false, false, true, {}, Optional, false, false, false, makeNaiveBarker},
    };
}

} // namespace

const std::vector<MethodEntry> &methodTable()
{
    static const std::vector<MethodEntry> table = makeTable();
    return table;
}

const MethodEntry &methodRow(TestMethod method)
{
    const auto &table = methodTable();
    const auto found = std::find_if(table.begin(), table.end(), [method](const MethodEntry &row) { return row.method == method; });
    return found != table.end() ? *found : throw std::invalid_argument("a method without a row in the method table");
}

const std::vector<TestMethod> &allMethods()
{
    static const std::vector<TestMethod> methods = [] {
        std::vector<TestMethod> all;
        for (const MethodEntry &row : methodTable())
            all.push_back(row.method);
        return all;
    }();
    return methods;
}

std::string methodName(TestMethod method)
{
    for (const MethodEntry &row : methodTable())
        if (row.method == method)
            return std::string(row.name);
    return "?";
}

TestMethod parseMethod(const std::string &name)
{
    std::string names;
    for (const MethodEntry &row : methodTable()) {
        if (name == row.name)
            return row.method;
        if (!names.empty())
            names += ", ";
        names += row.name;
    }
    throw std::invalid_argument("method must be one of " + names + "; got '" + name + "'");
}

std::string methodNames(std::string_view conjunction, bool (*which)(const MethodEntry &))
{
    return joinNamesAsProse(methodTable(), conjunction, which);
}

bool isExactMinibatchMethod(TestMethod method)
{
    const MethodEntry &row = methodRow(method);
    return row.exact && !row.needs.empty();
}

bool needsCorrection(TestMethod method)
{
    return methodRow(method).needsCorrection;
}

bool movesWithoutAcceptStep(TestMethod method)
{
    return methodRow(method).move != MethodMove::ProposalAndTest;
}

bool learnsStepInBurnIn(const RunConfig &config)
{
    return learnsDuringBurnIn(config.proposal) && !movesWithoutAcceptStep(config.method);
}

bool takesControlVariates(const MethodEntry &row)
{
    return row.controlVariates != ControlVariatePolicy::Never;
}

bool controlVariatesOnByDefault(const MethodEntry &row)
{
    return row.controlVariates == ControlVariatePolicy::ByDefault || row.controlVariates == ControlVariatePolicy::Required;
}

bool isApproximateDynamics(TestMethod method)
{
    return movesWithoutAcceptStep(method) && !methodRow(method).exact;
}

} // namespace core
