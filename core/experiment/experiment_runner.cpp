#include "core/experiment/experiment_runner.h"

#include <chrono>

#include "core/correction/cancelled.h"
#include "core/experiment/posterior_references.h"
#include "core/models/gaussian_mixture_model.h"

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

ChainResult runConfiguredChain(const RunConfig &config, const DatasetInstance &dataset, const ChainInputs &inputs)
{
    validateLap(config, inputs.keptProposal ? inputs.keptProposal->get() : nullptr);
    std::unique_ptr<AcceptanceTest> built;
    if (!inputs.test)
        built = makeAcceptanceTest(config, inputs.correction, inputs.designer);
    AcceptanceTest &test = inputs.test ? *inputs.test : *built;
    // Built per chain (or kept across a chain's laps): a Langevin proposal holds the chain's
    // gradient workspace, an adaptive one what the chain's burn-in taught it.
    const double burnInStep = config.burnInStep > 0.0 ? config.burnInStep : config.step;
    const bool learns = learnsDuringBurnIn(config.proposal);
    // The adaptive proposal runs the burn-in itself (from the burn-in's step) and goes on,
    // frozen, as the main proposal.
    const auto setupStart = std::chrono::steady_clock::now();
    std::unique_ptr<Proposal> builtProposal;
    Proposal *proposal = inputs.keptProposal ? inputs.keptProposal->get() : nullptr;
    if (!proposal) {
        try {
            builtProposal = makeProposal(config, *dataset.model, learns && config.burnIn > 0 ? burnInStep : config.step,
                                         inputs.stop);
            if (inputs.keptProposal)
                *inputs.keptProposal = std::move(builtProposal);
            proposal = inputs.keptProposal ? inputs.keptProposal->get() : builtProposal.get();
        } catch (const Cancelled &) {
            // Stopped during the set-up (a Laplace fit): the chain ends before its first
            // iteration, as a stop then would end it. The stand-in proposal never draws.
            builtProposal = std::make_unique<RandomWalkProposal>(config.step);
            proposal = builtProposal.get();
        }
    }
    const double setupSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStart).count();
    auto *const adaptive = learns ? dynamic_cast<AdaptiveProposal *>(proposal) : nullptr;
    if (adaptive && config.burnIn == 0 && !adaptive->frozen())
        adaptive->freeze(); // an earlier lap ended where the burn-in does
    const bool adapting = adaptive && config.burnIn > 0 && !adaptive->frozen();
    const auto burnInProposal =
        config.burnIn > 0 && !learns ? makeProposal(config, *dataset.model, burnInStep) : nullptr;
    ChainSettings settings;
    settings.samples = config.samples;
    settings.seed = config.seed;
    settings.temperature = config.temperature;
    settings.burnIn = config.burnIn;
    // Without annealing the burn-in is a warm-up at the target itself.
    settings.burnInTemperature = config.annealFrom > 0.0 ? config.annealFrom : config.temperature;
    settings.burnInProposal = burnInProposal.get();
    if (adapting)
        settings.adaptation = adaptive;
    else if (adaptive && adaptive->frozen())
        settings.frozenProposal = adaptive->learned(); // frozen in an earlier lap of this chain
    settings.pauseGate = inputs.pauseGate;
    settings.tuning = inputs.tuning;
    settings.initialTheta = inputs.initialTheta;
    settings.firstIteration = inputs.firstIteration;
    settings.maxSeconds = inputs.maxSeconds;
    settings.pacedFrom = inputs.pacedFrom;
    settings.newKernel = inputs.newKernel;
    settings.yieldRequested = inputs.yieldRequested;
    ChainResult chain = runChain(*dataset.model, *proposal, test, settings, inputs.stop, inputs.onProgress);
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
    const auto *mixture = dynamic_cast<const GaussianMixtureModel *>(dataset.model.get());
    if (dataset.gmmPosterior && mixture) {
        PosteriorReferences references(mixture->data(), dataset.gmmPosterior);
        outcome.posterior = references.measureFinalSegment(outcome.chain);
    }
    return outcome;
}

} // namespace core
