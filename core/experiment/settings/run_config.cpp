#include "core/experiment/settings/run_config.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/acceptance/austere_adaptive_test.h"
#include "core/acceptance/exact_minibatch_tests.h"
#include "core/acceptance/firefly_test.h"
#include "core/acceptance/full_data_tests.h"
#include "core/data/data_file.h"
#include "core/experiment/settings/capability_check.h"
#include "core/experiment/settings/dataset_presets.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/models/control_variates.h"
#include "core/models/logistic_laplace.h"
#include "core/models/model_registry.h"
#include "core/proposals/crank_nicolson_proposal.h"
#include "core/proposals/hamiltonian_proposal.h"
#include "core/proposals/stochastic_gradient_dynamics.h"
#include "core/proposals/zig_zag_process.h"
#include "core/validation/range_checks.h"

namespace core {

namespace {

// Each enumeration's command-line names, in the order its error messages list them.
template <typename Enum>
struct NamedValue {
    Enum value;
    const char *name;
};

constexpr NamedValue<ControlVariates> kControlVariateNames[] = {
    {ControlVariates::Auto, "auto"}, {ControlVariates::None, "none"},
    {ControlVariates::Taylor1, "taylor1"}, {ControlVariates::Taylor2, "taylor2"},
};
constexpr NamedValue<ProposalKind> kProposalNames[] = {
    {ProposalKind::RandomWalk, "rw"}, {ProposalKind::Langevin, "langevin"}, {ProposalKind::Adaptive, "adaptive"},
    {ProposalKind::AdaptiveLangevin, "adaptive-langevin"}, {ProposalKind::LaplaceLangevin, "laplace-langevin"},
    {ProposalKind::LaplaceCrankNicolson, "laplace-cn"}, {ProposalKind::LaplaceHamiltonian, "laplace-hmc"},
};
constexpr NamedValue<CorrectionSolver> kSolverNames[] = {
    {CorrectionSolver::Ridge, "ridge"}, {CorrectionSolver::Nnls, "nnls"},
};

template <typename Enum, std::size_t Count>
std::string nameIn(const NamedValue<Enum> (&table)[Count], Enum value)
{
    for (const auto &entry : table)
        if (entry.value == value)
            return entry.name;
    return "?";
}

// `what` names the option in the message, which lists every accepted name.
template <typename Enum, std::size_t Count>
Enum parseIn(const NamedValue<Enum> (&table)[Count], const char *what, const std::string &name)
{
    std::string names;
    for (const auto &entry : table) {
        if (name == entry.name)
            return entry.value;
        if (!names.empty())
            names += ", ";
        names += entry.name;
    }
    throw std::invalid_argument(std::string(what) + " must be one of " + names + "; got '" + name + "'");
}

} // namespace

std::string controlVariatesName(ControlVariates kind)
{
    return nameIn(kControlVariateNames, kind);
}

ControlVariates parseControlVariates(const std::string &name)
{
    return parseIn(kControlVariateNames, "control-variates", name);
}

std::string methodVariantName(const RunConfig &config)
{
    const ControlVariates cv = resolvedControlVariates(config);
    std::string name = methodName(config.method);
    // A method whose control variates are on by default names their absence (zigzag+none), so
    // that its plain name always means the default.
    const bool namesNone = methodRow(config.method).controlVariates == ControlVariatePolicy::ByDefault;
    if (cv != ControlVariates::None || namesNone) {
        // Appended piece by piece: GCC 12 takes "+" + std::string for an overlapping memcpy (-Wrestrict).
        name += '+';
        name += controlVariatesName(cv);
    }
    return name;
}

std::string methodLabel(TestMethod method, const std::string &label)
{
    return label.empty() ? methodName(method) : label;
}

std::pair<TestMethod, std::optional<ControlVariates>> parseMethodVariant(const std::string &name)
{
    const auto plus = name.find('+');
    if (plus == std::string::npos)
        return {parseMethod(name), std::nullopt};
    return {parseMethod(name.substr(0, plus)), parseControlVariates(name.substr(plus + 1))};
}

ControlVariates resolvedControlVariates(const RunConfig &config)
{
    if (config.controlVariates != ControlVariates::Auto)
        return config.controlVariates;
    const MethodEntry &row = methodRow(config.method);
    if (!controlVariatesOnByDefault(row))
        return ControlVariates::None;
    return row.maxControlVariateOrder >= 2 ? ControlVariates::Taylor2 : ControlVariates::Taylor1;
}

int controlVariateOrder(const RunConfig &config)
{
    switch (resolvedControlVariates(config)) {
    case ControlVariates::Taylor1: return 1;
    case ControlVariates::Taylor2: return 2;
    default: return 0;
    }
}

std::string proposalName(ProposalKind kind)
{
    return nameIn(kProposalNames, kind);
}

bool usesGradient(ProposalKind kind)
{
    return kind == ProposalKind::Langevin || kind == ProposalKind::AdaptiveLangevin || kind == ProposalKind::LaplaceLangevin
           || kind == ProposalKind::LaplaceHamiltonian;
}

bool learnsDuringBurnIn(ProposalKind kind)
{
    return kind == ProposalKind::Adaptive || kind == ProposalKind::AdaptiveLangevin || kind == ProposalKind::LaplaceLangevin
           || kind == ProposalKind::LaplaceCrankNicolson || kind == ProposalKind::LaplaceHamiltonian;
}

ProposalKind parseProposal(const std::string &name)
{
    return parseIn(kProposalNames, "proposal", name);
}

const std::vector<std::string> &allDatasets()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const DatasetEntry &entry : datasetTable())
            all.emplace_back(entry.name);
        return all;
    }();
    return names;
}

std::string smhBoundName(SmhBound bound)
{
    return bound == SmhBound::L1 ? "l1" : "auto";
}

SmhBound parseSmhBound(const std::string &text)
{
    for (SmhBound bound : {SmhBound::Auto, SmhBound::L1})
        if (text == smhBoundName(bound))
            return bound;
    throw std::invalid_argument("smh-bound must be auto or l1; got '" + text + "'");
}

bool isLogisticDataset(const std::string &dataset)
{
    const DatasetEntry *entry = findDataset(dataset);
    return entry && modelOf(*entry).classifier;
}

const ModelEntry &modelOf(const RunConfig &config)
{
    return modelOf(datasetEntry(config.dataset), config.glm.name);
}

void applyDatasetDefaults(RunConfig &config, const std::function<bool(std::string_view flag)> &given)
{
    if (const DatasetEntry &entry = datasetEntry(config.dataset); entry.paperDefaults)
        entry.paperDefaults(config, PresetContext{given, {}});
}

void applyDatasetDefaults(RunConfig &config, bool temperatureGiven, bool stepGiven)
{
    applyDatasetDefaults(config, [&](std::string_view flag) {
        return (flag == "temperature" && temperatureGiven) || (flag == "step" && stepGiven);
    });
}

std::string solverName(CorrectionSolver solver)
{
    return nameIn(kSolverNames, solver);
}

CorrectionSolver parseSolver(const std::string &name)
{
    return parseIn(kSolverNames, "solver", name);
}

namespace {

// SMH, TunaMH and FlyMC are exact only with their per-point bounds (requireModelCapabilities
// checks the model has them), and each takes control variates one way only.
void validateExactMinibatch(const RunConfig &config)
{
    const MethodEntry &row = methodRow(config.method);
    if (!isExactMinibatchMethod(config.method))
        return;
    const std::string method(row.name);
    if (row.controlVariates == ControlVariatePolicy::Required && resolvedControlVariates(config) == ControlVariates::None)
        throw std::invalid_argument("control-variates none is refused for " + method + ": its factors are the residuals of the "
                                    "Taylor proxies (use taylor2, the default, or taylor1)");
    if (!takesControlVariates(row) && resolvedControlVariates(config) != ControlVariates::None)
        throw std::invalid_argument("control-variates " + controlVariatesName(config.controlVariates)
                                    + " is refused for " + method
                                    + ": its bounds are on each point's likelihood, not on a residual (use "
                                      "--control-variates none)");
    if (!(config.flymcDarkToBright > 0.0 && config.flymcDarkToBright <= 1.0))
        throw std::invalid_argument("flymc-qdb must be in (0, 1]; got " + std::to_string(config.flymcDarkToBright));
    if (config.tunaChi != 0.0 && !(config.tunaChi > 0.0 && std::isfinite(config.tunaChi)))
        throw std::invalid_argument("tuna-chi must be finite and > 0, or 0 to take the chi of TunaMH's forecast; got "
                                    + std::to_string(config.tunaChi));
}

/// The dataset's own needs: a chosen model's parameters, a file for a file regression and a
/// dimension in range.
void validateDataset(const RunConfig &config, const DatasetEntry &data)
{
    if (modelIsChosen(data))
        makeGlmFamily(config.glm); // the model's name, ν and scale, before any data are made
    if (modelIsChosen(data) && !data.generated && config.logreg.data.empty())
        throw std::invalid_argument("dataset " + std::string(data.name) + " is a regression on your file: give it with "
                                    "--data FILE (CSV, LIBSVM or .npy) and its numeric response's column with "
                                    "--response-column");
    if (data.dimensionSetting
        && (config.dimension < (config.logreg.model.bias ? 2 : 1) || config.dimension > 10'000))
        throw std::invalid_argument("dimension must be in [" + std::string(config.logreg.model.bias ? "2" : "1")
                                    + ", 10000] (the model's weights, the bias included); got "
                                    + std::to_string(config.dimension));
}

/// The chain's length, seeds' use across checkpoints, and the schedule and proposal numbers.
void validateChainSettings(const RunConfig &config)
{
    if (config.burnIn < 0 || (config.burnIn > 0 && config.burnIn >= config.samples))
        throw std::invalid_argument("burn-in must be in [0, samples) so that some samples target the posterior; got "
                                    + std::to_string(config.burnIn));
    if (config.checkpointEvery < 0)
        throw std::invalid_argument("checkpoint-every must be >= 0 (0: no checkpoints); got "
                                    + std::to_string(config.checkpointEvery));
    if (config.checkpointEvery > 0 && methodRow(config.method).carriesStateBetweenIterations)
        throw std::invalid_argument(methodName(config.method) + " carries " + std::string(methodRow(config.method).carriedState)
                                    + " from one iteration to the next, which a checkpoint "
                                      "does not record: leave out --checkpoint-every");
    if (config.checkpointEvery > 0 && movesWithoutAcceptStep(config.method) && config.sgDecay > 0.0)
        throw std::invalid_argument("sg-decay: a decreasing step schedule counts the moves from the chain's start, which "
                                    "a checkpoint does not record: leave out --checkpoint-every or --sg-decay");
    if (!(config.sghmcFriction > 0.0 && config.sghmcFriction <= 1.0))
        throw std::invalid_argument("sghmc-friction must be in (0, 1] (the share of SGHMC's momentum lost per step); got "
                                    + std::to_string(config.sghmcFriction));
    if (!(config.sgDecay >= 0.0 && config.sgDecay <= 1.0))
        throw std::invalid_argument("sg-decay must be in [0, 1] (the schedule's exponent; 0: a constant step); got "
                                    + std::to_string(config.sgDecay));
    requireFinitePositive("sg-decay-from", config.sgDecayFrom);
    if (!(config.sgStepBias >= 0.0 && config.sgStepBias <= 1.0))
        throw std::invalid_argument("sg-step-bias must be in [0, 1] (the sds' largest excess over the posterior's, "
                                    "0.1 for 10 %; 0: the --step); got " + std::to_string(config.sgStepBias));
    if (!(config.zigzagSpacing >= 0.0) || !std::isfinite(config.zigzagSpacing))
        throw std::invalid_argument("zigzag-spacing must be finite and >= 0 (0: the --step); got "
                                    + std::to_string(config.zigzagSpacing));
    if (!(config.annealFrom >= 0.0) || !std::isfinite(config.annealFrom))
        throw std::invalid_argument("anneal-from must be finite and >= 0 (0: the burn-in runs at --temperature); got "
                                    + std::to_string(config.annealFrom));
    if (!(config.burnInStep >= 0.0) || !std::isfinite(config.burnInStep))
        throw std::invalid_argument("burn-in-step must be finite and >= 0; got " + std::to_string(config.burnInStep));
    if (config.leapfrogSteps < 1 || config.leapfrogSteps > 1000)
        throw std::invalid_argument("leapfrog-steps must be in [1, 1000]; got " + std::to_string(config.leapfrogSteps));
    requireAtLeast("trace-every", config.traceStride, 1);
    if (config.nData < 2 || config.nData > kMaxSyntheticRows)
        throw std::invalid_argument("n-data must be in [2, 2^40]; got " + std::to_string(config.nData));
    requireAtLeast("samples", config.samples, 1);
    requireFinitePositive("temperature", config.temperature);
    requireFinitePositive("step", config.step);
}

/// The gradient minibatch and whether the method takes the control variates asked for.
void validateGradientAndControlVariates(const RunConfig &config, const DatasetEntry &data)
{
    // The logistic data's N is known only once they are loaded: makeProposal checks it then.
    if ((usesGradient(config.proposal) || movesWithoutAcceptStep(config.method))
        && (config.gradBatch < 0 || (data.generated && config.gradBatch > config.nData)))
        throw std::invalid_argument("grad-batch must be in [1, N"
                                    + (data.generated ? " = " + std::to_string(config.nData) : std::string())
                                    + "] (rows of the gradient's minibatch), or 0 to choose it from N; got "
                                    + std::to_string(config.gradBatch));
    if (controlVariateOrder(config) > 0) {
        const std::string cv = "control-variates " + controlVariatesName(config.controlVariates);
        if (!takesControlVariates(methodRow(config.method)) && !isExactMinibatchMethod(config.method))
            throw std::invalid_argument(cv + " is for the minibatch tests (" + methodNames("and", takesControlVariates)
                                        + "): the exact test " + methodName(config.method)
                                        + " reads every point, so there is nothing to estimate (use --control-variates none)");
        if (controlVariateOrder(config) > methodRow(config.method).maxControlVariateOrder)
            throw std::invalid_argument(cv + ": " + methodName(config.method)
                                        + "'s control variates are first order, a gradient around the mode: use "
                                          "--control-variates taylor1");
    }
}

/// A proposal that learns in the burn-in needs one, at the target temperature, and a target
/// acceptance the test can reach.
void validateAdaptation(const RunConfig &config)
{
    // The adaptive proposal learns from the burn-in and is frozen after it: with no burn-in it
    // would silently be the plain random walk, and a burn-in at an annealing temperature would
    // teach it the hot posterior's covariance instead of the target's.
    if (learnsDuringBurnIn(config.proposal) && config.burnIn <= 0)
        throw std::invalid_argument("burn-in must be > 0 with --proposal " + proposalName(config.proposal)
                                    + ": it learns its covariance and scale "
                                    "during the burn-in and freezes them after it (add e.g. --burn-in "
                                    + std::to_string(std::max<std::int64_t>(1, config.samples / 10)) + ")");
    if (learnsDuringBurnIn(config.proposal) && config.annealFrom > 0.0)
        throw std::invalid_argument("anneal-from must be 0 with --proposal " + proposalName(config.proposal)
                                    + ": the burn-in it learns from must "
                                    "run at the target temperature (drop --anneal-from)");
    // At stationarity Barker's test accepts at most half of a symmetric proposal's moves on
    // average (AdaptiveRandomWalkProposal derives it), approaching half as the step shrinks: a
    // target of 1/2 or more would shrink the step without end.
    const bool barkerType = methodRow(config.method).rule == AcceptRule::Barker;
    const double targetLimit = barkerType ? 0.5 : 1.0;
    if (!(config.adaptTarget > 0.0 && config.adaptTarget < targetLimit))
        throw std::invalid_argument("adapt-target must be in (0, " + std::string(barkerType ? "0.5" : "1")
                                    + ")" + (barkerType ? " for a Barker-type test, which accepts at most half the moves" : "")
                                    + "; got " + std::to_string(config.adaptTarget));
}

/// The acceptance tests' own settings.
void validateTestSettings(const RunConfig &config)
{
    validate(config.minibatch);
    validate(config.correction);
    validate(config.austere);
    validate(config.sublhd);
    if (!(config.austereErrorBound >= 0.0 && config.austereErrorBound < 1.0))
        throw std::invalid_argument("error-bound must be in [0, 1); got " + std::to_string(config.austereErrorBound));
    if (config.method == TestMethod::AustereNonConservative && !(config.austereErrorBound > 0.0))
        throw std::invalid_argument("error-bound must be > 0 for austere-nc (it designs the test every iteration)");
    if (config.austerePilot < 1 || config.austerePilot > 100'000)
        throw std::invalid_argument("pilot must be in [1, 100000]; got " + std::to_string(config.austerePilot));
}

/// Which data files go together, and the split, augmentation and prior numbers.
void validateDataFiles(const LogisticDataSpec &logreg)
{
    if (!logreg.images.empty() && logreg.labels.empty())
        throw std::invalid_argument("images and --labels go together (an IDX image file and its label file)");
    if (!logreg.labels.empty() && logreg.images.empty() && logreg.data.empty())
        throw std::invalid_argument("labels goes with --images (IDX) or --data (IDX images or a .npy array)");
    if (!logreg.data.empty() && (!logreg.csv.empty() || !logreg.images.empty()))
        throw std::invalid_argument("data is one way in: give it alone, without --csv or --images");
    parseDataFormat(logreg.format);
    if (logreg.testSize < 1 || logreg.testSize > 10'000'000)
        throw std::invalid_argument("test-size must be in [1, 10000000]; got " + std::to_string(logreg.testSize));
    if (!(logreg.testFraction > 0.0 && logreg.testFraction < 1.0))
        throw std::invalid_argument("test-fraction must be in (0, 1); got " + std::to_string(logreg.testFraction));
    if (logreg.augmentTo < 0 || logreg.augmentTo > 50'000'000)
        throw std::invalid_argument("augment-to must be in [0, 50000000] (0: no augmentation); got "
                                    + std::to_string(logreg.augmentTo));
    if (!(logreg.model.priorSd >= 0.0) || !std::isfinite(logreg.model.priorSd))
        throw std::invalid_argument("prior-sd must be finite and >= 0 (0: the paper's flat prior); got "
                                    + std::to_string(logreg.model.priorSd));
}

} // namespace

void validate(const RunConfig &config)
{
    const DatasetEntry &data = datasetEntry(config.dataset);
    validateDataset(config, data);
    validateChainSettings(config);
    validateGradientAndControlVariates(config, data);
    requireModelCapabilities(config);
    validateExactMinibatch(config);
    validateAdaptation(config);
    validateTestSettings(config);
    validateDataFiles(config.logreg);
}

bool followsLiveTuning(const RunConfig &config)
{
    return !(config.method == TestMethod::AustereConservative && config.austereErrorBound > 0.0);
}

bool needsAustereDesign(const RunConfig &config)
{
    return config.method == TestMethod::AustereNonConservative
           || (config.method == TestMethod::AustereConservative && config.austereErrorBound > 0.0);
}

namespace {

// The Laplace approximation the laplace-* proposals are built around (`given`, or fitted now);
// logistic regression only.
GaussianApproximation laplaceOf(const Model &model, const RunConfig &config, std::stop_token stop,
                                const GaussianApproximation *given)
{
    requireCapability(model, ModelCapability::LaplaceFit, "--proposal " + proposalName(config.proposal));
    if (given)
        return *given;
    return model.laplaceFit(config.temperature, 40, std::move(stop));
}

} // namespace

bool usesLaplaceFit(ProposalKind kind)
{
    return kind == ProposalKind::LaplaceLangevin || kind == ProposalKind::LaplaceCrankNicolson
           || kind == ProposalKind::LaplaceHamiltonian;
}

DataIndex gradBatchFor(const RunConfig &config, DataIndex dataSize)
{
    return gradientBatchSize(config.gradBatch, dataSize);
}

std::unique_ptr<Proposal> makeProposal(const RunConfig &config, const Model &model, double step, std::stop_token stop,
                                       const GaussianApproximation *laplace)
{
    const DataIndex gradBatch = gradBatchFor(config, model.dataSize());
    if (methodRow(config.method).move == MethodMove::ZigZag) {
        // With control variates (the default) the chain's model is the residual model; zigzag+none
        // subsamples the data's own model against a global bound.
        const TaylorProxies *residuals = model.residualProxies();
        if (!residuals && controlVariateOrder(config) > 0)
            throw std::logic_error("the Zig-Zag process needs the control variates' model (ChainInputs::controlVariates)");
        // Ten steps: on tall-logreg (step 1/√N, about half a posterior sd) about one effective draw
        // per two or three outputs (measured at N = 10⁵, d = 10: bulk ESS 1,841 of 4,500 outputs;
        // at one step, 487 of 4,500, for the same points per effective draw).
        const double spacing = config.zigzagSpacing > 0.0 ? config.zigzagSpacing : 10.0 * step;
        return std::make_unique<ZigZagProcess>(model, residuals, spacing, 1.0, step);
    }
    if (const MethodMove move = methodRow(config.method).move; move != MethodMove::ProposalAndTest) {
        StochasticGradientSettings settings;
        settings.dynamics =
            move == MethodMove::GradientHamiltonian ? GradientDynamics::Hamiltonian : GradientDynamics::Langevin;
        settings.gradBatch = gradBatch;
        settings.friction = config.sghmcFriction;
        settings.decay = config.sgDecay;
        settings.decayFrom = config.sgDecayFrom;
        // With control variates the chain's model is the residual model: its proxies give the
        // mode and Σ ∇ℓ_i(θ̂) that SGLD-CV's gradient is built around.
        return std::make_unique<StochasticGradientDynamics>(model, step, settings, model.residualProxies());
    }
    AdaptationSettings adaptation;
    adaptation.targetAcceptance = config.adaptTarget;
    adaptation.burnInLength = config.burnIn;
    switch (config.proposal) {
    case ProposalKind::Langevin: return std::make_unique<LangevinProposal>(model, step, gradBatch);
    case ProposalKind::AdaptiveLangevin:
        return std::make_unique<LangevinProposal>(model, step, gradBatch, adaptation);
    case ProposalKind::LaplaceLangevin: {
        auto proposal = std::make_unique<LangevinProposal>(model, step, gradBatch, adaptation);
        proposal->useFullPreconditioner(laplaceOf(model, config, stop, laplace).covarianceFactor);
        return proposal;
    }
    case ProposalKind::LaplaceCrankNicolson: {
        GaussianApproximation fit = laplaceOf(model, config, stop, laplace);
        return std::make_unique<CrankNicolsonProposal>(std::move(fit.mode), std::move(fit.covarianceFactor),
                                                       step, adaptation);
    }
    case ProposalKind::LaplaceHamiltonian:
        return std::make_unique<HamiltonianProposal>(model, laplaceOf(model, config, stop, laplace).covarianceFactor, step,
                                                     gradBatch, config.leapfrogSteps, adaptation);
    case ProposalKind::Adaptive: return std::make_unique<AdaptiveRandomWalkProposal>(model.dimension(), step, adaptation);
    case ProposalKind::RandomWalk: break;
    }
    return std::make_unique<RandomWalkProposal>(step);
}

std::int64_t proposalPointsPerIteration(const RunConfig &config, DataIndex dataSize)
{
    // The stochastic-gradient methods' rows are counted as their iterations' points
    // (AcceptEveryMove), not as a proposal's.
    if (!usesGradient(config.proposal) || movesWithoutAcceptStep(config.method))
        return 0;
    // With B = N the gradient at the chain's point is the one computed at the end of the last
    // proposal, kept (LangevinProposal, HamiltonianProposal); a fresh minibatch needs its own.
    const auto batch = static_cast<std::int64_t>(gradBatchFor(config, dataSize));
    const std::int64_t atStart = batch < dataSize ? 1 : 0;
    if (config.proposal == ProposalKind::LaplaceHamiltonian)
        return (config.leapfrogSteps + atStart) * batch;
    return (1 + atStart) * batch;
}

std::unique_ptr<AcceptanceTest> makeAcceptanceTest(const RunConfig &config,
                                                   std::shared_ptr<const CorrectionDistribution> correction,
                                                   std::shared_ptr<const AustereDesigner> designer)
{
    return methodRow(config.method).make(config, std::move(correction), std::move(designer));
}

} // namespace core
