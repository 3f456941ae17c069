#include "core/experiment/service/continuous_chain.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

namespace core {
namespace {

// A lap's length is chosen from the previous lap's speed; the first lap is short so that the
// first kernel change and the first figures come quickly on a slow model too.
constexpr std::int64_t kFirstLap = 1024;
constexpr std::int64_t kShortestLap = 16;
constexpr std::int64_t kLongestLap = 1 << 17;

// The moving window: the last `capacity` rows of the chain, oldest first.
class RowWindow {
public:
    RowWindow(std::int64_t capacity, int dimension) : m_capacity(capacity)
    {
        m_rows.samples.resize(capacity, dimension);
        const auto size = static_cast<std::size_t>(capacity);
        m_rows.batchSize.resize(size);
        m_rows.fullScanPoints.resize(size);
        m_rows.accepted.resize(size);
        m_rows.fullDataFallback.resize(size);
    }

    // Appends the lap's rows, dropping the oldest beyond the capacity: at most one move of the
    // kept rows and one copy of the lap's last rows, whatever the lap's length.
    void append(const ChainResult &lap)
    {
        const std::int64_t taken = std::min(lap.completed, m_capacity);
        const std::int64_t kept = std::min(m_held, m_capacity - taken);
        const std::int64_t dropped = m_held - kept;
        const std::int64_t from = lap.completed - taken;
        if (!lap.brightPoints.empty() && m_rows.brightPoints.empty()) // FlyMC's, from its first lap
            m_rows.brightPoints.resize(m_rows.batchSize.size());
        moveRows(dropped, 0, kept);
        const auto dim = static_cast<std::size_t>(m_rows.samples.cols());
        if (taken > 0)
            std::memcpy(m_rows.samples.row(kept).data(), lap.samples.row(from).data(),
                        static_cast<std::size_t>(taken) * dim * sizeof(double));
        copyColumns(lap, from, kept, taken);
        m_held = kept + taken;
    }

    std::int64_t held() const { return m_held; }
    ChainResult &rows() { return m_rows; }

private:
    void moveRows(std::int64_t from, std::int64_t to, std::int64_t count)
    {
        if (count <= 0 || from == to)
            return;
        const auto dim = static_cast<std::size_t>(m_rows.samples.cols());
        std::memmove(m_rows.samples.row(to).data(), m_rows.samples.row(from).data(),
                     static_cast<std::size_t>(count) * dim * sizeof(double));
        const auto move = [&](auto &column) {
            std::copy(column.begin() + from, column.begin() + from + count, column.begin() + to);
        };
        move(m_rows.batchSize);
        move(m_rows.fullScanPoints);
        move(m_rows.accepted);
        move(m_rows.fullDataFallback);
        if (!m_rows.brightPoints.empty())
            move(m_rows.brightPoints);
    }

    void copyColumns(const ChainResult &lap, std::int64_t from, std::int64_t to, std::int64_t count)
    {
        const auto copy = [&](const auto &source, auto &target) {
            std::copy(source.begin() + from, source.begin() + from + count, target.begin() + to);
        };
        copy(lap.batchSize, m_rows.batchSize);
        copy(lap.fullScanPoints, m_rows.fullScanPoints);
        copy(lap.accepted, m_rows.accepted);
        copy(lap.fullDataFallback, m_rows.fullDataFallback);
        if (!lap.brightPoints.empty())
            copy(lap.brightPoints, m_rows.brightPoints);
    }

    std::int64_t m_capacity;
    std::int64_t m_held = 0;
    ChainResult m_rows;
};

// The segments of the whole chain (iteration numbers) as the window's: the segment the window
// opens in starts at its row 0, earlier ones are gone.
std::vector<ChainSegment> windowSegments(const std::vector<ChainSegment> &chain, std::int64_t firstIteration)
{
    std::vector<ChainSegment> kept;
    for (ChainSegment segment : chain) {
        segment.start = std::max<std::int64_t>(0, segment.start - firstIteration);
        if (!kept.empty() && kept.back().start >= segment.start)
            kept.back() = segment;
        else
            kept.push_back(segment);
    }
    return kept;
}

} // namespace

std::uint64_t lapSeed(std::uint64_t seed, std::int64_t lap)
{
    if (lap == 0)
        return seed;
    // SplitMix64's finaliser of the seed and the lap: neighbouring laps and neighbouring
    // chains (seed + 1) get unrelated streams.
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(lap) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

namespace {

/// What every lap adds up: clocks and the bound violations.
struct LapTotals {
    double wall = 0.0, paused = 0.0, fullScan = 0.0;
    std::int64_t violations = 0;

    void add(const ChainResult &lap)
    {
        wall += lap.wallSeconds;
        paused += lap.pausedSeconds;
        fullScan += lap.fullScanSeconds;
        violations += lap.boundViolations;
    }
};

/// The kernel the next lap runs with when the user changed it since `seenKernel`, or nothing.
/// A change the chain cannot take (validateLap refuses it) is said through the hooks and the
/// lap goes on with the kernel it had; a change that is taken may prepare `inputs` anew.
std::optional<RunConfig> takeKernelChange(const ContinuousChainHooks &hooks, const RunConfig &lapConfig,
                                          std::uint64_t &seenKernel, const Proposal *proposal, ChainInputs &inputs)
{
    if (!hooks.kernel || hooks.kernel->version() == seenKernel)
        return std::nullopt;
    seenKernel = hooks.kernel->version();
    const auto wanted = hooks.kernel->latest();
    if (!wanted)
        return std::nullopt;
    RunConfig next = lapConfig;
    copyKernelSettings(*wanted, next);
    if (!hooks.methodMayChange)
        next.method = lapConfig.method;
    if (sameKernel(next, lapConfig))
        return std::nullopt;
    try {
        validateLap(next, proposal);
        ChainInputs prepared = inputs;
        if (hooks.prepareKernel)
            hooks.prepareKernel(next, prepared);
        inputs = std::move(prepared);
        return next;
    } catch (const std::invalid_argument &error) {
        if (hooks.kernelRefused)
            hooks.kernelRefused(error.what());
        return std::nullopt;
    }
}

/// Adds a lap's segments to the run's, in run iterations and seconds; a lap that goes on with
/// the previous lap's settings is no new segment.
void appendLapSegments(std::vector<ChainSegment> &segments, const ChainResult &lap, std::int64_t done,
                       double wall, bool kernelChanged)
{
    for (std::size_t k = 0; k < lap.segments.size(); ++k) {
        ChainSegment segment = lap.segments[k];
        if (segment.start >= lap.completed)
            break; // nothing ran with it (a lap stopped before its first iteration, say)
        segment.start += done;
        segment.startSeconds += wall;
        if (k == 0 && !kernelChanged && !segments.empty() && lapContinuesSegment(segments.back(), segment))
            continue;

        if (!segments.empty() && segments.back().start >= segment.start)
            segments.back() = segment;
        else
            segments.push_back(segment);
    }
}

/// The window's rows as the run's result, after `done` iterations in all.
ChainResult windowedResult(RowWindow &window, std::int64_t done, const LapTotals &totals)
{
    ChainResult result = std::move(window.rows());
    const std::int64_t held = window.held();
    result.samples.conservativeResize(held, result.samples.cols());
    const auto rows = static_cast<std::size_t>(held);
    result.batchSize.resize(rows);
    result.fullScanPoints.resize(rows);
    result.accepted.resize(rows);
    result.fullDataFallback.resize(rows);
    if (!result.brightPoints.empty())
        result.brightPoints.resize(rows);
    result.completed = held;
    result.firstIteration = done - held;
    result.wallSeconds = totals.wall;
    result.pausedSeconds = totals.paused;
    result.fullScanSeconds = totals.fullScan;
    result.boundViolations = totals.violations;
    return result;
}

// The laps of a run until stopped (total = 0: timed laps, a moving window of config.samples
// rows) or of a run of `total` iterations that follows kernel changes (laps end only where a
// change applies; without one it is a single lap, the fixed-length chain itself).
ChainResult runLaps(const RunConfig &config, const DatasetInstance &dataset, ChainInputs inputs,
                    const ContinuousChainHooks &hooks, RunConfig *finalKernel, std::int64_t total)
{
    validate(config);
    const bool fixedLength = total > 0;
    RowWindow window(config.samples, dataset.model->dimension());
    std::vector<ChainSegment> segments;
    RunConfig lapConfig = config;
    std::uint64_t seenKernel = hooks.kernel ? hooks.kernel->version() : 0;
    bool kernelChanged = false;
    std::int64_t done = 0, lapLength = kFirstLap;
    LapTotals totals;
    bool stopped = !fixedLength; // a run until stopped ends by a stop
    std::unique_ptr<AcceptanceTest> test; // one per kernel, shared by its laps
    std::unique_ptr<Proposal> proposal;   // one per chain: what it learned lasts every lap
    inputs.keptProposal = &proposal;
    std::optional<LearnedProposal> adaptation;
    for (std::int64_t lap = 0;; ++lap) {
        if (auto next = takeKernelChange(hooks, lapConfig, seenKernel, proposal.get(), inputs)) {
            lapConfig = std::move(*next);
            test.reset();
            kernelChanged = true;
        }
        if (inputs.stop.stop_requested() || (fixedLength && done >= total))
            break;
        lapConfig.seed = lapSeed(config.seed, lap);
        if (fixedLength) {
            // What is left of the run, and of its burn-in.
            lapConfig.burnIn = std::max<std::int64_t>(0, config.burnIn - done);
            lapConfig.samples = total - done;
        } else {
            lapConfig.burnIn = lap == 0 ? config.burnIn : 0; // an annealing schedule runs once
            lapConfig.samples = lapLength + lapConfig.burnIn;
        }
        inputs.firstIteration = done;
        inputs.newKernel = kernelChanged;
        if (!test)
            test = makeAcceptanceTest(lapConfig, inputs.correction, inputs.designer);
        inputs.test = test.get();
        if (fixedLength) {
            // A fixed-length lap ends early only where a kernel change asks for it.
            inputs.maxSeconds = 0.0;
            if (hooks.kernel)
                inputs.yieldRequested = [&kernel = *hooks.kernel, seen = seenKernel] { return kernel.version() != seen; };
        } else {
            // Timed, so that a kernel change, or a slower pace, waits a tenth of a second at most.
            inputs.maxSeconds = lap == 0 && config.burnIn > 0 ? 0.0 : kContinuousLapSeconds;
        }
        ChainResult lapResult = runConfiguredChain(lapConfig, dataset, inputs);
        if (hooks.lapEnded)
            hooks.lapEnded(lapResult);
        if (lapResult.adaptation)
            adaptation = lapResult.adaptation;
        if (lapResult.relearnedProposal) {
            // The next lap goes on with the proposal re-learned for the new T (a frozen copy).
            proposal = lapResult.relearnedProposal->withStep(lapResult.relearnedProposal->step());
            inputs.proposalTemperature = lapResult.relearnedTemperature;
            lapResult.relearnedProposal.reset(); // its workspaces are the next lap's now, not the result's
        }
        if (fixedLength && lap == 0 && (lapResult.completed == total || lapResult.stopped)) {
            // No change came: the chain is the fixed-length chain itself, kept without a copy.
            if (finalKernel)
                *finalKernel = lapConfig;
            return lapResult;
        }

        appendLapSegments(segments, lapResult, done, totals.wall, kernelChanged);
        if (lapResult.completed > 0)
            kernelChanged = false;
        window.append(lapResult);
        done += lapResult.completed;
        totals.add(lapResult);
        inputs.pacedFrom = lapResult.nextPacedIteration;
        if (lapResult.completed > 0)
            inputs.initialTheta = lapResult.samples.row(lapResult.completed - 1).transpose();
        if (lapResult.stopped) {
            stopped = true;
            break;
        }
        if (fixedLength)
            continue;
        // Room for twice the iterations the last lap ran per lap-time: a lap ends on time, not
        // on space, unless the chain speeds up (a faster pace) by more than that.
        const double seconds = std::max(lapResult.wallSeconds, 1e-6);
        lapLength = std::clamp(static_cast<std::int64_t>(2.0 * static_cast<double>(lapResult.completed) / seconds
                                                         * kContinuousLapSeconds),
                               kShortestLap, kLongestLap);
    }

    ChainResult result = windowedResult(window, done, totals);
    result.stopped = stopped || inputs.stop.stop_requested();
    result.segments = windowSegments(segments, result.firstIteration);
    result.adaptation = std::move(adaptation);
    if (result.segments.empty())
        result.segments.push_back({0, config.temperature, config.step, 0.0});
    if (finalKernel)
        *finalKernel = lapConfig;
    return result;
}

} // namespace

bool lapContinuesSegment(const ChainSegment &previous, const ChainSegment &lapStart)
{
    return !lapStart.kernelChanged && lapStart.temperature == previous.temperature && lapStart.step == previous.step
           && lapStart.burnIn == previous.burnIn && lapStart.relearning == previous.relearning;
}

ChainResult runUntilStopped(const RunConfig &config, const DatasetInstance &dataset, ChainInputs inputs,
                            const ContinuousChainHooks &hooks, RunConfig *finalKernel)
{
    return runLaps(config, dataset, std::move(inputs), hooks, finalKernel, 0);
}

ChainResult runFollowingKernelChanges(const RunConfig &config, const DatasetInstance &dataset, ChainInputs inputs,
                                      const ContinuousChainHooks &hooks, RunConfig *finalKernel)
{
    return runLaps(config, dataset, std::move(inputs), hooks, finalKernel, config.samples);
}

} // namespace core
