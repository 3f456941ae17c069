#include "core/experiment/settings/run_request.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace core {

RunRequest RunRequest::single(const RunConfig &config)
{
    RunRequest request;
    request.config = config;
    request.methods = {config.method};
    return request;
}

RunConfig RunRequest::methodConfig(std::size_t index) const
{
    RunConfig settings = config;
    settings.method = index < methods.size() ? methods[index] : config.method;
    if (index < controlVariates.size())
        settings.controlVariates = controlVariates[index];
    if (index < methodSteps.size() && methodSteps[index] > 0.0) {
        // The chosen step is the entry's setting from here on: a samples file's header that
        // says it, with nothing left to choose, runs again at the same step.
        settings.step = methodSteps[index];
        settings.sgStepBias = 0.0;
    }
    return settings;
}

RunConfig RunRequest::channelConfig(int channel) const
{
    RunConfig settings = methodConfig(static_cast<std::size_t>(methodIndexOf(channel)));
    settings.seed = config.seed + static_cast<std::uint64_t>(chainIndexOf(channel));
    return settings;
}

std::string RunRequest::methodLabel(std::size_t index) const
{
    return methodVariantName(methodConfig(index));
}

int RunRequest::concurrency() const
{
    if (untilStopped)
        return std::max(1, channelCount()); // a chain that never ends cannot wait for a turn
    if (!parallel)
        return 1;
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return std::clamp(threads > 0 ? threads : cores, 1, std::max(1, channelCount()));
}

void validate(const RunRequest &request)
{
    const auto count = static_cast<int>(request.methods.size());
    if (count < 1 || count > RunRequest::kMaxMethods)
        throw std::invalid_argument("methods: choose 1 to " + std::to_string(RunRequest::kMaxMethods)
                                    + " methods; got " + std::to_string(count));
    if (!request.controlVariates.empty() && request.controlVariates.size() != request.methods.size())
        throw std::invalid_argument("methods: control variates must be given for every method or for none");
    std::set<std::string> labels;
    for (std::size_t index = 0; index < request.methods.size(); ++index)
        labels.insert(request.methodLabel(index));
    if (labels.size() != request.methods.size())
        throw std::invalid_argument("methods: each method (with its control variates) may appear once");
    if (request.chains < 1 || request.chains > RunRequest::kMaxChains)
        throw std::invalid_argument("chains must be in [1, " + std::to_string(RunRequest::kMaxChains) + "]; got "
                                    + std::to_string(request.chains));
    if (request.untilStopped && request.channelCount() > RunRequest::kMaxContinuousChannels)
        throw std::invalid_argument("a run until stopped runs every chain at once: at most "
                                    + std::to_string(RunRequest::kMaxContinuousChannels) + " chains in all; got "
                                    + std::to_string(request.channelCount()));
    if (request.threads < 0 || request.threads > 1024)
        throw std::invalid_argument("threads must be in [0, 1024] (0: one per core); got "
                                    + std::to_string(request.threads));
    for (std::size_t index = 0; index < request.methods.size(); ++index)
        validate(request.methodConfig(index));
    if (request.resumeDraws < 0)
        throw std::invalid_argument("resumed draws must be >= 0");
    if (request.resumeDraws > 0) {
        const RunConfig &config = request.config;
        if (request.channelCount() != 1 || request.untilStopped)
            throw std::invalid_argument("a resumed run continues one chain of a fixed length");
        if (config.checkpointEvery < 1 || request.resumeDraws % config.checkpointEvery != 0)
            throw std::invalid_argument("a chain resumes at a checkpoint: a multiple of checkpoint-every");
        if (request.resumeDraws >= config.samples - config.burnIn)
            throw std::invalid_argument("the chain has all its " + std::to_string(config.samples - config.burnIn)
                                        + " draws: nothing to resume");
    }
}

} // namespace core
