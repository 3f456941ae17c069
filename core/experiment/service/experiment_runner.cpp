#include "core/experiment/service/experiment_runner.h"

#include <chrono>
#include <stdexcept>

#include "core/correction/cancelled.h"
#include "core/experiment/inputs/posterior_references.h"

namespace core {

void validateLap(const RunConfig &config, const Proposal *kept)
{
    const auto *adaptive = dynamic_cast<const AdaptiveProposal *>(kept);
    if (adaptive && learnsDuringBurnIn(config.proposal) && (adaptive->frozen() || config.burnIn == 0)) {
        // The proposal's own settings were checked when the chain's first lap built it.
        RunConfig fixedKernel = config;
        fixedKernel.proposal = ProposalKind::RandomWalk;
        validate(fixedKernel);
        return;
    }
    validate(config);
}

namespace {

struct LapProposal {
    Proposal *proposal = nullptr;     ///< the lap's proposal: kept, built, or a stand-in
    std::unique_ptr<Proposal> owned;  ///< built for this lap alone (no ChainInputs::keptProposal)
    double setupSeconds = 0.0;        ///< building it (a Laplace fit); 0 when kept
};

// The proposal a lap runs with. Built per chain, or kept across a chain's laps: a Langevin
// proposal holds the chain's gradient workspace, an adaptive one what the chain's burn-in
// taught it, a Laplace one its fit. An adaptive proposal runs the burn-in itself (from the
// burn-in's step) and goes on, frozen, as the main proposal.
LapProposal lapProposal(const RunConfig &config, const Model &model, const ChainInputs &inputs, double burnInStep)
{
    LapProposal lap;
    if (inputs.keptProposal && *inputs.keptProposal) {
        lap.proposal = inputs.keptProposal->get();
        return lap;
    }
    const auto started = std::chrono::steady_clock::now();
    const bool learns = learnsDuringBurnIn(config.proposal);
    // The request's fit where it was made at this lap's temperature (a live change of T leaves
    // the chain's first fit in its kept proposal, which stays an exact kernel).
    const TimedLaplaceFit *shared =
        inputs.laplace && inputs.laplace->temperature == config.temperature ? inputs.laplace.get() : nullptr;
    try {
        lap.owned = makeProposal(config, model, learns && config.burnIn > 0 ? burnInStep : config.step, inputs.stop,
                                 shared ? &shared->approximation : nullptr);
        if (inputs.keptProposal)
            *inputs.keptProposal = std::move(lap.owned);
        lap.proposal = inputs.keptProposal ? inputs.keptProposal->get() : lap.owned.get();
    } catch (const Cancelled &) {
        // Stopped during the set-up (a Laplace fit): the chain ends before its first
        // iteration, as a stop then would end it. The stand-in proposal never draws.
        lap.owned = std::make_unique<RandomWalkProposal>(config.step);
        lap.proposal = lap.owned.get();
    }
    lap.setupSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // The shared fit's seconds count where the proposal is built from it; the moves without an
    // accept step build their own (the proposal box does not apply to them), so they read none.
    if (shared && usesLaplaceFit(config.proposal) && !movesWithoutAcceptStep(config.method))
        lap.setupSeconds += shared->seconds;
    return lap;
}

} // namespace

ChainResult runConfiguredChain(const RunConfig &config, const DatasetInstance &dataset, const ChainInputs &inputs)
{
    validateLap(config, inputs.keptProposal ? inputs.keptProposal->get() : nullptr);
    std::unique_ptr<AcceptanceTest> built;
    if (!inputs.test)
        built = makeAcceptanceTest(config, inputs.correction, inputs.designer);
    AcceptanceTest &test = inputs.test ? *inputs.test : *built;
    const double burnInStep = config.burnInStep > 0.0 ? config.burnInStep : config.step;
    const bool learns = learnsDuringBurnIn(config.proposal);
    const int order = controlVariateOrder(config);
    const ControlVariateModel *withProxies = order > 0 ? inputs.controlVariates[static_cast<std::size_t>(order)].get() : nullptr;
    if (order > 0 && !withProxies)
        throw std::logic_error("control variates " + controlVariatesName(config.controlVariates)
                               + " were asked for but not prepared (ChainInputs::controlVariates)");
    const Model &testModel = withProxies ? static_cast<const Model &>(*withProxies) : *dataset.model;
    // The stochastic-gradient moves take their control variates from the residual model's
    // proxies (SGLD-CV); every other proposal reads the data's own model.
    const Model &proposalModel = movesWithoutAcceptStep(config.method) ? testModel : *dataset.model;
    LapProposal lap = lapProposal(config, proposalModel, inputs, burnInStep);
    Proposal *const proposal = lap.proposal;
    const double setupSeconds = lap.setupSeconds;
    auto *const adaptive = learns ? dynamic_cast<AdaptiveProposal *>(proposal) : nullptr;
    if (adaptive && config.burnIn == 0 && !adaptive->frozen())
        adaptive->freeze(); // an earlier lap ended where the burn-in does
    const bool adapting = adaptive && config.burnIn > 0 && !adaptive->frozen();
    const auto burnInProposal =
        config.burnIn > 0 && !learns ? makeProposal(config, proposalModel, burnInStep) : nullptr;
    ChainSettings settings;
    static_cast<ChainControls &>(settings) = inputs; // where it starts, what steers it
    settings.samples = config.samples - inputs.resumeDraws; // a resumed chain: the burn-in and the draws left
    settings.seed = config.seed;
    settings.temperature = config.temperature;
    settings.burnIn = config.burnIn;
    // Without annealing the burn-in is a warm-up at the target itself.
    settings.burnInTemperature = config.annealFrom > 0.0 ? config.annealFrom : config.temperature;
    settings.burnInProposal = burnInProposal.get();
    settings.adaptation = adapting ? adaptive : nullptr;
    // Frozen in an earlier lap of this chain.
    if (adaptive && adaptive->frozen())
        settings.frozenProposal = adaptive->learned();
    settings.checkpointEvery = config.checkpointEvery;
    settings.relearnIterations = relearnLength(config.burnIn);
    if (withProxies && settings.initialTheta.size() == 0)
        settings.initialTheta = withProxies->proxies().anchor();
    if (!withProxies && isExactMinibatchMethod(config.method) && inputs.posteriorMode.size() > 0) {
        if (settings.initialTheta.size() == 0)
            settings.initialTheta = inputs.posteriorMode;
        test.useAnchor(inputs.posteriorMode, config.temperature); // found once for the request, not again per chain
    }
    // A proposal centred on a fit starts there (CrankNicolsonProposal::preferredStart).
    if (settings.initialTheta.size() == 0)
        if (const Vector *start = proposal->preferredStart(); start && start->size() == dataset.model->dimension())
            settings.initialTheta = *start;
    ChainResult chain = runChain(testModel, *proposal, test, settings, inputs.stop, inputs.onProgress);
    if (setupSeconds > 1e-3) { // a fit, not the microseconds of allocating a proposal
        chain.setupSeconds = setupSeconds;
        chain.wallSeconds += setupSeconds;
    }
    return chain;
}

ExperimentOutcome runExperiment(const RunConfig &config, const DatasetInstance &dataset,
                                std::shared_ptr<const CorrectionDistribution> correction, std::stop_token stop,
                                const ChainProgressCallback &onProgress)
{
    ChainInputs inputs;
    inputs.correction = std::move(correction);
    inputs.stop = stop;
    inputs.onProgress = onProgress;
    ExperimentOutcome outcome;
    outcome.chain = runConfiguredChain(config, dataset, inputs);
    outcome.summary = summarize(outcome.chain, dataset.model->dataSize());
    outcome.summary.proposalPointsRead = proposalPointsPerIteration(config, dataset.model->dataSize()) * outcome.chain.completed;
    if (dataset.gmmPosterior && dataset.mixturePoints) {
        PosteriorReferences references(*dataset.mixturePoints, dataset.gmmPosterior);
        outcome.posterior = references.measureFinalSegment(outcome.chain);
    }
    return outcome;
}

} // namespace core
