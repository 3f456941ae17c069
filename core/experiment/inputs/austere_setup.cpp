#include "core/experiment/inputs/austere_setup.h"

#include "core/acceptance/austere_design_cache.h"

namespace core {

AustereSetup prepareAustere(RunConfig &config, const DatasetInstance &dataset, const AustereSetupProgress &progress,
                            std::stop_token stop, std::shared_ptr<const AustereDesigner> designer)
{
    AustereSetup setup;
    if (!needsAustereDesign(config))
        return setup;
    setup.designer = designer ? std::move(designer)
                              : loadOrBuildAustereDesigner(dataset.model->dataSize(), progress.design, stop,
                                                           &setup.designFromCache);
    if (config.method != TestMethod::AustereConservative)
        return setup;
    // The pilot meets the proposals the chain will make.
    const auto proposal = makeProposal(config, *dataset.model, config.step);
    const auto pilot = collectPilot(*dataset.model, *proposal, dataset.model->initialTheta(), config.temperature,
                                    config.austerePilot, config.seed, progress.pilot, stop);
    std::size_t best = 0;
    const auto candidates = setup.designer->evaluate(pilot, config.austereErrorBound, best);
    setup.conservativeChoice = candidates[best];
    setup.pilotProposals = pilot.size();
    config.austere.batch = static_cast<DataIndex>(candidates[best].batch);
    config.austere.epsilon = candidates[best].epsilon;
    return setup;
}

} // namespace core
