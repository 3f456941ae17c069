#include "core/experiment/experiment_runner.h"

namespace core {

ExperimentOutcome runExperiment(const RunConfig &config, const DatasetInstance &dataset,
                                std::shared_ptr<const CorrectionDistribution> correction, std::stop_token stop,
                                const ChainProgressCallback &onProgress,
                                std::shared_ptr<const AustereDesigner> designer, PauseGate *pauseGate,
                                const LiveTuning *tuning)
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
    settings.tuning = tuning;
    ExperimentOutcome outcome;
    outcome.chain = runChain(*dataset.model, proposal, *test, settings, stop, onProgress);
    outcome.summary = summarize(outcome.chain, dataset.model->dataSize());
    const ChainResult &chain = outcome.chain;
    const std::int64_t start = chain.finalSegmentStart();
    if (dataset.gmmPosterior && chain.completed > start && chain.segments.back().temperature == config.temperature) {
        if (start == 0) {
            outcome.posterior = dataset.gmmPosterior->compare(chain.samples, chain.completed);
        } else {
            const Eigen::MatrixXd finalSegment = chain.samples.middleRows(start, chain.completed - start);
            outcome.posterior = dataset.gmmPosterior->compare(finalSegment);
        }
    }
    return outcome;
}

} // namespace core
