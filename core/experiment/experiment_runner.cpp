#include "core/experiment/experiment_runner.h"

namespace core {

ExperimentOutcome runExperiment(const RunConfig &config, const DatasetInstance &dataset,
                                std::shared_ptr<const CorrectionDistribution> correction, std::stop_token stop,
                                const ChainProgressCallback &onProgress,
                                std::shared_ptr<const AustereDesigner> designer, PauseGate *pauseGate)
{
    validate(config);
    auto test = makeAcceptanceTest(config, std::move(correction), std::move(designer));
    const RandomWalkProposal proposal(config.step);
    const RandomWalkProposal burnInProposal(config.burnInStep > 0.0 ? config.burnInStep : config.step);
    ChainSettings settings;
    settings.samples = config.samples;
    settings.seed = config.seed;
    settings.temperature = config.temperature;
    settings.burnIn = config.burnIn;
    settings.burnInTemperature = config.annealFrom;
    settings.burnInProposal = &burnInProposal;
    settings.pauseGate = pauseGate;
    ExperimentOutcome outcome;
    outcome.chain = runChain(*dataset.model, proposal, *test, settings, stop, onProgress);
    outcome.summary = summarize(outcome.chain, dataset.model->dataSize());
    if (dataset.gmmPosterior && outcome.chain.completed > 0)
        outcome.posterior = dataset.gmmPosterior->compare(outcome.chain.samples, outcome.chain.completed);
    return outcome;
}

} // namespace core
