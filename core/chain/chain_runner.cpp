#include "core/chain/chain_runner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

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

ChainResult runChain(const Model &model, const Proposal &proposal, AcceptanceTest &test,
                     const ChainSettings &settings, std::stop_token stop,
                     const ChainProgressCallback &onProgress)
{
    validate(settings);
    if (settings.checkpointEvery > 0 && !test.restartable())
        throw std::invalid_argument(test.name() + " carries state from one iteration to the next that a checkpoint does "
                                                  "not record: it cannot run with checkpoints (leave out --checkpoint-every)");
    const int dim = model.dimension();
    Vector current = settings.initialTheta.size() == 0 ? model.initialTheta() : settings.initialTheta;
    if (current.size() != dim)
        throw std::invalid_argument("initial theta has dimension " + std::to_string(current.size())
                                    + "; the model needs " + std::to_string(dim));
    Vector candidate(dim);
    double currentLogPrior = model.logPrior(current);
    if (!std::isfinite(currentLogPrior))
        throw std::invalid_argument("initial theta lies outside the prior's support");

    ChainResult result;
    result.firstIteration = settings.firstIteration;
    result.adaptation = settings.frozenProposal;
    const auto total = static_cast<std::size_t>(settings.samples);
    result.samples.resize(settings.samples, dim);
    result.batchSize.resize(total);
    result.fullScanPoints.resize(total);
    result.accepted.resize(total);
    result.fullDataFallback.resize(total);

    // The main phase's settings; live tuning replaces them between iterations.
    double mainTemperature = settings.temperature;
    const Proposal *mainProposal = &proposal;
    std::unique_ptr<Proposal> retunedProposal; // owns mainProposal after a step change
    // Owns mainProposal after a change of T under an adaptive proposal: it learns its scale
    // again until relearnEnd, then freezes (ChainSegment::relearning).
    std::shared_ptr<AdaptiveProposal> relearner;
    std::int64_t relearnEnd = -1;
    // The T the main proposal's scale was learned for.
    double proposalTemperature = settings.proposalTemperature > 0.0 ? settings.proposalTemperature : settings.temperature;
    std::uint64_t seenTuning = 0;
    // Moved on by every pause, so wall and segment times count sampling only.
    auto start = std::chrono::steady_clock::now();
    // The target segment starts where the burn-in ends: burn-in rows, sampled at T₀, must not
    // enter ESS, R-hat or the posterior metrics.
    if (settings.burnIn > 0) {
        const Proposal &burnInStep = settings.burnInProposal ? *settings.burnInProposal : proposal;
        result.segments.push_back({0, settings.burnInTemperature, burnInStep.step(), 0.0, true});
    }
    result.segments.push_back({settings.burnIn, mainTemperature, proposal.step(), 0.0});
    result.segments.back().kernelChanged = settings.newKernel;
    // After a change of T, an adaptive main proposal's scale rescaled by √(T′/T) at iteration t
    // and learned again from there (AdaptiveProposal::relearning). false: it cannot re-learn (or
    // is not adaptive), and the chain goes on with its kernel.
    auto startRelearning = [&](std::int64_t t) {
        relearnEnd = -1;
        const auto *adaptive = dynamic_cast<const AdaptiveProposal *>(mainProposal);
        if (!adaptive)
            return false;
        std::shared_ptr<AdaptiveProposal> next = adaptive->relearning(std::sqrt(mainTemperature / proposalTemperature));
        if (!next)
            return false;
        relearner = std::move(next);
        mainProposal = relearner.get();
        const std::int64_t length = std::min(settings.relearnIterations > 0 ? settings.relearnIterations
                                                                            : relearnLength(settings.burnIn),
                                             (settings.samples - t) / 2);
        if (length > 0) {
            relearnEnd = t + length;
        } else {
            relearner->freeze(); // no room to learn: the rescaled kernel alone
            result.adaptation = relearner->learned();
        }
        proposalTemperature = mainTemperature;
        result.relearnedProposal = relearner;
        result.relearnedTemperature = mainTemperature;
        return true;
    };
    auto applyTuning = [&](std::int64_t t) {
        const LiveTuning::Request request = settings.tuning->latest();
        seenTuning = request.version;
        const bool newTemperature = std::isfinite(request.temperature) && request.temperature != mainTemperature;
        const bool newStep = std::isfinite(request.step) && request.step != mainProposal->step();
        if (!newTemperature && !newStep)
            return;
        if (newTemperature)
            mainTemperature = request.temperature;
        if (newStep) {
            // The user's step wins over any re-adaptation in progress.
            retunedProposal = proposal.withStep(request.step); // allocates once per change only
            mainProposal = retunedProposal.get();
            if (relearnEnd >= 0)
                result.learning.reset(); // no scale is being learned any more: the ellipse must not say so
            relearnEnd = -1;
            // Nor may a continuous run's next lap go on with the re-learned step.
            result.relearnedProposal.reset();
        } else if (t >= settings.burnIn && mainTemperature != proposalTemperature) {
            // (A change during the burn-in applies where it ends, to what the burn-in learned.)
            startRelearning(t);
        }
        // During a burn-in the schedule's own T and proposal run on: the change takes effect,
        // and its segment starts, when the burn-in ends.
        const std::int64_t begins = std::max(t, settings.burnIn);
        const double seconds = t < settings.burnIn
                                   ? 0.0 // set when the burn-in ends
                                   : std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ChainSegment segment{begins, mainTemperature, mainProposal->step(), seconds};
        segment.relearning = relearnEnd > t;
        if (result.segments.back().start >= begins) {
            segment.kernelChanged = result.segments.back().kernelChanged;
            result.segments.back() = segment; // nothing ran with the previous settings
        } else {
            result.segments.push_back(segment);
        }
    };

    AdaptiveProposal *const adaptation = settings.burnIn > 0 ? settings.adaptation : nullptr;
    std::int64_t reportedUpTo = 0;
    const auto report = [&] {
        if (adaptation && !adaptation->frozen())
            result.learning = adaptation->learned(); // allocates, but once per report at most
        else if (relearnEnd > result.completed)
            result.learning = relearner->learned();
        mainProposal->takeRecentPath(result.recentPath);
        onProgress(result, reportedUpTo, result.completed);
        reportedUpTo = result.completed;
    };
    Rng rng(settings.seed);
    auto lastReport = start;
    // Pacing (PauseGate::setPace): the time the next iteration may start. Falling behind the
    // pace (a slow iteration) does not earn a burst of catch-up iterations.
    std::chrono::steady_clock::time_point nextSlot = settings.pacedFrom;
    for (std::int64_t t = 0; t < settings.samples; ++t) {
        if (settings.pauseGate && settings.pauseGate->pace() > 0.0) {
            auto now = std::chrono::steady_clock::now();
            if (nextSlot > now) {
                settings.pauseGate->sleepUntil(nextSlot, stop);
                now = std::chrono::steady_clock::now();
                nextSlot = std::min(nextSlot, now); // woken early by a new pace: it applies now
            }
            const double pace = settings.pauseGate->pace();
            if (pace > 0.0)
                nextSlot = std::max(nextSlot, now)
                           + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(1.0 / pace));
        }
        if (settings.pauseGate) {
            const double paused = settings.pauseGate->wait(stop);
            if (paused > 0.0) {
                result.pausedSeconds += paused;
                start += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(paused));
            }
        }
        if (stop.stop_requested()) {
            result.stopped = true;
            break;
        }
        if (settings.tuning && settings.tuning->version() != seenTuning)
            applyTuning(t);
        if (t == settings.burnIn && t > 0) {
            result.segments.back().startSeconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (adaptation) {
                adaptation->freeze();
                result.adaptation = adaptation->learned();
                result.learning.reset();
                if (mainProposal == adaptation) { // the target segment runs with the learned scale
                    result.segments.back().step = adaptation->step();
                    // T changed during the burn-in: the scale was learned for the old T, so it is
                    // rescaled and learned again from here, as for a change after the burn-in.
                    if (mainTemperature != proposalTemperature && startRelearning(t)) {
                        result.segments.back().step = mainProposal->step();
                        result.segments.back().relearning = relearnEnd > t;
                    }
                }
            }
        }
        if (t == relearnEnd) {
            relearner->freeze();
            relearnEnd = -1;
            result.adaptation = relearner->learned();
            result.learning.reset();
            result.segments.push_back({t, mainTemperature, relearner->step(),
                                       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
        }
        if (t == settings.burnIn && settings.resumeDraws > 0) {
            current = settings.resumeTheta;
            currentLogPrior = model.logPrior(current);
            if (current.size() != dim || !std::isfinite(currentLogPrior))
                throw std::invalid_argument("the draw a chain resumes after does not fit the model or its prior");
        }
        if (settings.checkpointEvery > 0 && t >= settings.burnIn) {
            const std::int64_t draw = t - settings.burnIn + settings.resumeDraws;
            if (draw % settings.checkpointEvery == 0) {
                rng.reseed(checkpointSeed(settings.seed, draw / settings.checkpointEvery));
                test.restartSampling();
                mainProposal->restartSampling();
            }
        }
        const bool burningIn = t < settings.burnIn;
        const Proposal &step = burningIn && settings.burnInProposal ? *settings.burnInProposal : *mainProposal;
        const double temperature = burningIn ? settings.burnInTemperature : mainTemperature;
        step.propose(current, candidate, temperature, rng);
        const double candidateLogPrior = model.logPrior(candidate);
        bool accepted = false;
        Decision decision;
        if (std::isfinite(candidateLogPrior)) { // outside the prior's support: reject, read nothing
            const double proposalRatio = test.readsProposalRatio() ? step.logProposalRatio(current, candidate) : 0.0;
            const TestProblem problem{model, current, candidate, temperature,
                                      candidateLogPrior - currentLogPrior + proposalRatio};
            decision = test.decide(problem, rng);
            accepted = decision.accepted;
            if (!test.readsProposalRatio()) { // a move without a test: its own reads and bounds count
                const Proposal::MoveCost cost = step.lastMoveCost();
                if (cost.pointsRead >= 0)
                    decision.pointsUsed = cost.pointsRead;
                decision.boundViolations += cost.boundViolations;
            }
        }
        if (accepted) {
            current.swap(candidate);
            currentLogPrior = candidateLogPrior;
        }
        if (burningIn && adaptation)
            adaptation->observe(current, accepted);
        else if (relearnEnd > t)
            relearner->observe(current, accepted);
        const auto row = static_cast<std::size_t>(t);
        result.samples.row(t) = current.transpose();
        result.batchSize[row] = decision.pointsUsed;
        result.fullScanPoints[row] = decision.fullScanPoints;
        result.accepted[row] = accepted ? 1 : 0;
        result.fullDataFallback[row] = decision.fullDataFallback ? 1 : 0;
        result.fullScanSeconds += decision.fullScanSeconds;
        result.boundViolations += decision.boundViolations;
        if (decision.brightPoints >= 0 || !result.brightPoints.empty()) {
            if (result.brightPoints.empty())
                result.brightPoints.assign(result.batchSize.size(), 0); // once, at FlyMC's first test
            // An iteration that ran no test (θ′ outside the prior's support) keeps the count.
            result.brightPoints[row] = decision.brightPoints >= 0 ? decision.brightPoints
                                       : row > 0                  ? result.brightPoints[row - 1]
                                                                  : 0;
        }
        result.completed = t + 1;

        const bool stepping = settings.pauseGate && settings.pauseGate->paused();
        const bool pacing = settings.pauseGate && settings.pauseGate->pace() > 0.0;
        if (settings.maxSeconds > 0.0 && ((t & 63) == 63 || pacing || stepping)
            && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= settings.maxSeconds)
            break; // timed out: the result is complete up to here, not stopped
        if (settings.yieldRequested && (t & 63) == 63 && result.completed < settings.samples && settings.yieldRequested())
            break; // the same: the caller goes on in another lap
        if (onProgress && ((t & 63) == 63 || stepping)) {
            const auto now = std::chrono::steady_clock::now();
            if (stepping || now - lastReport >= settings.progressInterval) {
                report();
                lastReport = now;
            }
        }
    }
    if (relearnEnd >= 0) {
        // Ended (a lap's end, a stop) while re-learning: the scale freezes as it stands, so that
        // a next lap goes on with a fixed kernel.
        relearner->freeze();
        result.adaptation = relearner->learned();
        result.learning.reset();
    }
    result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.nextPacedIteration = nextSlot;
    if (onProgress && reportedUpTo < result.completed)
        report();
    return result;
}

} // namespace core
