#include "core/experiment/service/control_variate_setup.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/models/posterior_mode.h"
#include "core/random/rng.h"

namespace core {

std::array<std::shared_ptr<const ControlVariateModel>, 3>
prepareControlVariates(RunOutcome &outcome, const DatasetInstance &dataset, RunObserver &observer, std::stop_token stop,
                       Vector &startingMode, const Vector &start)
{
    std::array<std::shared_ptr<const ControlVariateModel>, 3> models;
    std::array<bool, 3> wanted{};
    bool modeWanted = false;
    for (int channel = 0; channel < outcome.request.channelCount(); ++channel) {
        const RunConfig settings = outcome.request.channelConfig(channel);
        wanted[static_cast<std::size_t>(controlVariateOrder(settings))] = true;
        modeWanted = modeWanted || isExactMinibatchMethod(settings.method);
    }
    if (!wanted[1] && !wanted[2] && !modeWanted)
        return models;
    const double temperature = outcome.request.config.temperature;
    observer.stageStarted(RunStage::ControlVariates,
                          "Finding the posterior mode (Newton, two passes over the " + std::to_string(outcome.dataSize)
                              + " points a step)"
                              + (wanted[1] || wanted[2] ? " and the Taylor proxies' sums around it"
                                                        : ", where the tunamh and flymc chains start"));
    observer.preparationProgress(RunStage::ControlVariates, -1.0);
    const PosteriorMode mode = findPosteriorMode(*dataset.model, temperature, start, 50, stop);
    startingMode = mode.mode;
    if (!wanted[1] && !wanted[2]) {
        ControlVariateReport report; // the mode alone
        report.anchor = mode.mode;
        report.newtonSteps = mode.newtonSteps;
        report.passes = mode.passes;
        report.seconds = mode.seconds;
        report.converged = mode.converged;
        outcome.controlVariates.push_back(std::move(report));
    }
    for (int order : {1, 2}) {
        if (!wanted[static_cast<std::size_t>(order)])
            continue;
        const auto started = std::chrono::steady_clock::now();
        auto proxies = makeTaylorProxies(*dataset.model, mode.mode, order);
        const double sumsSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        models[static_cast<std::size_t>(order)] = std::make_shared<const ControlVariateModel>(dataset.model, std::move(proxies));
        ControlVariateReport report;
        report.order = order;
        report.anchor = mode.mode;
        report.newtonSteps = mode.newtonSteps;
        report.passes = mode.passes + 1;
        report.seconds = mode.seconds + sumsSeconds;
        report.converged = mode.converged;
        outcome.controlVariates.push_back(std::move(report));
    }
    return models;
}

void addControlVariateFigures(const ChainResult &chain, const ControlVariateModel &model, ChainReport &report)
{
    const auto &samples = chain.samples;
    const Eigen::Index rows = std::min<Eigen::Index>(samples.rows(), static_cast<Eigen::Index>(chain.completed));
    if (rows < 2)
        return;
    const Vector &anchor = model.proxies().anchor();
    double farthest = 0.0;
    for (Eigen::Index t = 0; t < rows; ++t)
        farthest = std::max(farthest, (samples.row(t).transpose() - anchor).norm());
    report.maxDistanceFromAnchor = farthest;

    // A fixed random set of rows (the same for every move), and up to 100 moves between
    // consecutive draws that changed θ.
    const DataIndex n = model.dataSize();
    const DataIndex count = std::min<DataIndex>(n, 10'000);
    std::vector<DataIndex> subset(static_cast<std::size_t>(count));
    Rng rng(0x5EEDC0DE);
    for (DataIndex k = 0; k < count; ++k)
        subset[static_cast<std::size_t>(k)] = count == n ? k : static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));
    std::vector<double> residual(subset.size()), plain(subset.size());
    const Eigen::Index stride = std::max<Eigen::Index>(1, (rows - 1) / 100);
    double residualVariance = 0.0, plainVariance = 0.0;
    int moves = 0;
    for (Eigen::Index t = 0; t + 1 < rows; t += stride) {
        const Vector from = samples.row(t).transpose(), to = samples.row(t + 1).transpose();
        if (from == to)
            continue;
        model.logLikelihoodRatios(from, to, subset, residual);
        model.base().logLikelihoodRatios(from, to, subset, plain);
        const auto variance = [](const std::vector<double> &values) {
            const Eigen::Map<const Eigen::ArrayXd> a(values.data(), static_cast<Eigen::Index>(values.size()));
            return (a - a.mean()).square().sum() / static_cast<double>(std::max<Eigen::Index>(1, a.size() - 1));
        };
        residualVariance += variance(residual);
        plainVariance += variance(plain);
        ++moves;
    }
    if (moves == 0)
        return;
    report.residualSd = std::sqrt(residualVariance / moves);
    report.plainRatioSd = std::sqrt(plainVariance / moves);
}

} // namespace core
