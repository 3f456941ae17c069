#include "core/chain/chain_runner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/chain/chain_clock.h"
#include "core/chain/kernel_schedule.h"
#include "core/chain/metropolis_step.h"
#include "core/random/rng.h"
#include "core/validation/range_checks.h"

namespace core {

double ChainResult::temperatureAt(std::int64_t t) const
{
    // Segments are few (one per live change), so a scan from the back is cheapest.
    for (auto it = segments.rbegin(); it != segments.rend(); ++it)
        if (it->start <= t)
            return it->temperature;
    return segments.empty() ? std::nan("") : segments.front().temperature;
}

std::size_t ChainResult::targetSegmentCount() const
{
    return static_cast<std::size_t>(
        std::count_if(segments.begin(), segments.end(), [](const ChainSegment &s) { return !s.burnIn; }));
}

bool ChainResult::retuned(double configuredTemperature, double configuredStep) const
{
    if (targetSegmentCount() > 1)
        return true;
    const auto first = std::find_if(segments.begin(), segments.end(), [](const ChainSegment &s) { return !s.burnIn; });
    return first != segments.end() && (first->temperature != configuredTemperature || first->step != configuredStep);
}

void validate(const ChainSettings &settings)
{
    requireAtLeast("samples", settings.samples, 1);
    requireFinitePositive("temperature", settings.temperature);
    if (settings.maxSeconds < 0.0 || !std::isfinite(settings.maxSeconds))
        throw std::invalid_argument("the time limit must be finite and >= 0 seconds; got " + std::to_string(settings.maxSeconds));
    requireAtLeast("burn-in", settings.burnIn, 0);
    if (settings.burnIn >= settings.samples && settings.burnIn > 0)
        throw std::invalid_argument("burn-in must be smaller than samples (" + std::to_string(settings.samples)
                                    + "); got " + std::to_string(settings.burnIn));
    if (settings.burnIn > 0 && settings.adaptation && settings.burnInProposal)
        throw std::invalid_argument("an adaptive proposal must run the burn-in itself: leave the burn-in proposal unset");
    if (settings.burnIn > 0 && settings.adaptation && settings.frozenProposal)
        throw std::invalid_argument("a proposal frozen in an earlier lap cannot learn again: leave the adaptation unset");
    if (settings.checkpointEvery < 0 || settings.resumeDraws < 0)
        throw std::invalid_argument("checkpoint-every and the resumed draws must be >= 0");
    if (settings.resumeDraws > 0 && (settings.checkpointEvery == 0 || settings.resumeDraws % settings.checkpointEvery != 0))
        throw std::invalid_argument("a chain resumes at a checkpoint: draw " + std::to_string(settings.resumeDraws)
                                    + " is not a multiple of checkpoint-every " + std::to_string(settings.checkpointEvery));
    if (settings.resumeDraws > 0 && settings.resumeTheta.size() == 0)
        throw std::invalid_argument("a resumed chain needs the draw it resumes after");
    if (settings.burnIn > 0)
        requireFinitePositive("anneal-from", settings.burnInTemperature);
}

std::int64_t relearnLength(std::int64_t burnIn)
{
    return std::clamp<std::int64_t>(burnIn / 4, 200, 2000);
}

std::uint64_t checkpointSeed(std::uint64_t seed, std::int64_t checkpoint)
{
    // SplitMix64's finaliser over the seed and the checkpoint's number.
    std::uint64_t z = seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(checkpoint + 1));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

namespace {

// A resumed chain (ChainSettings::resumeDraws) replaces the burn-in's last θ by the draw it
// resumes after, where its target starts.
void resumeAt(const Model &model, const ChainSettings &settings, ChainState &state)
{
    state.current = settings.resumeTheta;
    state.currentLogPrior = model.logPrior(state.current);
    if (state.current.size() != model.dimension() || !std::isfinite(state.currentLogPrior))
        throw std::invalid_argument("the draw a chain resumes after does not fit the model or its prior");
}

// At a checkpoint the random stream and the minibatch samplers start again, so that the chain
// from there depends on θ alone (ChainSettings::checkpointEvery).
void restartAtCheckpoint(std::int64_t t, const ChainSettings &settings, Rng &rng, AcceptanceTest &test,
                         const Proposal &proposal)
{
    const std::int64_t draw = t - settings.burnIn + settings.resumeDraws;
    if (draw % settings.checkpointEvery != 0)
        return;
    rng.reseed(checkpointSeed(settings.seed, draw / settings.checkpointEvery));
    test.restartSampling();
    proposal.restartSampling();
}

ChainState initialState(const Model &model, const ChainSettings &settings)
{
    const int dim = model.dimension();
    ChainState state{settings.initialTheta.size() == 0 ? model.initialTheta() : settings.initialTheta, 0.0,
                     Vector(dim)};
    if (state.current.size() != dim)
        throw std::invalid_argument("initial theta has dimension " + std::to_string(state.current.size())
                                    + "; the model needs " + std::to_string(dim));
    state.currentLogPrior = model.logPrior(state.current);
    if (!std::isfinite(state.currentLogPrior))
        throw std::invalid_argument("initial theta lies outside the prior's support");
    return state;
}

void allocateRows(ChainResult &result, std::int64_t samples, int dimension)
{
    const auto total = static_cast<std::size_t>(samples);
    result.samples.resize(samples, dimension);
    result.batchSize.resize(total);
    result.fullScanPoints.resize(total);
    result.accepted.resize(total);
    result.fullDataFallback.resize(total);
}

} // namespace

ChainResult runChain(const Model &model, const Proposal &proposal, AcceptanceTest &test,
                     const ChainSettings &settings, std::stop_token stop,
                     const ChainProgressCallback &onProgress)
{
    validate(settings);
    if (settings.checkpointEvery > 0 && !test.restartable())
        throw std::invalid_argument(test.name() + " carries state from one iteration to the next that a checkpoint does "
                                                  "not record: it cannot run with checkpoints (leave out --checkpoint-every)");
    ChainState state = initialState(model, settings);
    ChainResult result;
    result.firstIteration = settings.firstIteration;
    result.adaptation = settings.frozenProposal;
    allocateRows(result, settings.samples, model.dimension());

    ChainClock clock(settings.pauseGate, settings.pacedFrom);
    KernelSchedule kernel(proposal, settings, result, clock);
    std::int64_t reportedUpTo = 0;
    const auto report = [&] {
        kernel.reportLearning(result.completed);
        kernel.mainProposal().takeRecentPath(result.recentPath);
        onProgress(result, reportedUpTo, result.completed);
        reportedUpTo = result.completed;
    };
    Rng rng(settings.seed);
    auto lastReport = clock.started();
    for (std::int64_t t = 0; t < settings.samples; ++t) {
        result.pausedSeconds += clock.waitTurn(stop);
        if (stop.stop_requested()) {
            result.stopped = true;
            break;
        }
        kernel.advanceTo(t);
        if (t == settings.burnIn && settings.resumeDraws > 0)
            resumeAt(model, settings, state);
        if (settings.checkpointEvery > 0 && t >= settings.burnIn)
            restartAtCheckpoint(t, settings, rng, test, kernel.mainProposal());
        const StepOutcome step = metropolisStep(model, kernel.proposalAt(t), test, state, kernel.temperatureAt(t), rng);
        kernel.observe(t, state.current, step.accepted);
        recordIteration(result, t, state.current, step);

        // Every 64 iterations, or each one while paced or single-stepped: the time limit, a
        // yield to the next lap, a progress report.
        const bool stepping = clock.stepping();
        const bool everyIteration = (t & 63) == 63 || stepping;
        if (settings.maxSeconds > 0.0 && (everyIteration || clock.pacing()) && clock.seconds() >= settings.maxSeconds)
            break; // timed out: the result is complete up to here, not stopped
        if (settings.yieldRequested && (t & 63) == 63 && result.completed < settings.samples && settings.yieldRequested())
            break; // the same: the caller goes on in another lap
        if (onProgress && everyIteration) {
            const auto now = ChainClock::Clock::now();
            if (stepping || now - lastReport >= settings.progressInterval) {
                report();
                lastReport = now;
            }
        }
    }
    kernel.finish();
    result.wallSeconds = clock.seconds();
    result.nextPacedIteration = clock.nextSlot();
    if (onProgress && reportedUpTo < result.completed)
        report();
    return result;
}

} // namespace core
