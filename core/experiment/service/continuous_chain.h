#pragma once
/// A chain run until stopped: the desktop app's continuous mode, in which a user drags T, the
/// step or σ and watches the cloud, the histogram and the acceptance respond.
///
/// The chain runs as a series of laps (runChain calls of about a tenth of a second each), each
/// starting from the previous lap's last θ with its own random stream, so it is one Markov
/// chain whose iteration numbers keep counting. Temperature and step changes (LiveTuning),
/// pause, single steps and pacing (PauseGate) act within a lap as in any chain; a new
/// acceptance test (LiveKernel: method, σ, λ, m, …) applies at the next lap, as a new segment.
/// Only the most recent `config.samples` rows are kept: the moving window that the figures of
/// the final report describe.
///
/// A run of fixed length in the desktop app follows kernel changes the same way
/// (runFollowingKernelChanges): its chain runs in one lap, ended early only where a new
/// acceptance test applies, so that σ, λ, m or the method change the chain's next iterations
/// rather than restart it.
#include <cstdint>
#include <functional>

#include "core/chain/chain_runner.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/service/live_kernel.h"

namespace core {

struct ContinuousChainHooks {
    /// Kernel changes to follow; null: the run's own kernel throughout.
    const LiveKernel *kernel = nullptr;
    /// Whether a kernel change may change the method (false for a compare of methods, whose
    /// channels each keep their own).
    bool methodMayChange = true;
    /// Fills `inputs`' correction table and AustereMH design for a new kernel, on the chain's
    /// thread between two laps. Throws std::invalid_argument when the kernel cannot run; the
    /// chain then goes on with the kernel it had.
    std::function<void(RunConfig &kernel, ChainInputs &inputs)> prepareKernel;
    /// Called after each lap with its rows (numbered from lap.firstIteration): whatever an
    /// observer has not taken from it yet must be taken now, since the lap is discarded.
    std::function<void(const ChainResult &lap)> lapEnded;
    /// Called when a kernel change could not be applied, with the reason.
    std::function<void(const std::string &problem)> kernelRefused;
};

/// How long a lap lasts, in seconds: short enough that a kernel change applies
/// within a fraction of a second, long enough that the lap's set-up cost does not show.
inline constexpr double kContinuousLapSeconds = 0.1;

/// Whether a lap's first segment `lapStart` goes on with the segment before it (`previous`, the
/// last one of the lap before) rather than starting a new one: the same temperature, step and
/// burn-in, and no new acceptance test. Each lap's chain numbers its own segments from 0, so
/// the laps' reader, here and in the desktop app's snapshots, joins such segments.
bool lapContinuesSegment(const ChainSegment &previous, const ChainSegment &lapStart);

/// Runs one chain until `inputs.stop` is requested. Returns the moving window: the last
/// min(config.samples, iterations) rows with firstIteration = the iterations before them,
/// `stopped` set, segments numbered in the window's rows, and the wall, paused and full-scan
/// seconds of the whole run. `finalKernel`, if given, receives the settings the chain ended
/// with. Throws std::invalid_argument for invalid settings; exceptions from the model or the
/// test propagate.
ChainResult runUntilStopped(const RunConfig &config, const DatasetInstance &dataset, ChainInputs inputs,
                            const ContinuousChainHooks &hooks = {}, RunConfig *finalKernel = nullptr);

/// Runs `config.samples` iterations as runConfiguredChain does, bit for bit while no kernel
/// change comes; a change (hooks.kernel) ends the lap within 64 iterations and the chain goes
/// on from its last θ with the new acceptance test (its own random stream, lapSeed), as a new
/// segment marked kernelChanged. Returns every row (firstIteration 0); `stopped` only when
/// inputs.stop ended it. `finalKernel` as for runUntilStopped.
ChainResult runFollowingKernelChanges(const RunConfig &config, const DatasetInstance &dataset, ChainInputs inputs,
                                      const ContinuousChainHooks &hooks = {}, RunConfig *finalKernel = nullptr);

/// The seed of lap `lap` of a chain seeded `seed`: the seed itself for the first lap (so a run
/// until stopped starts exactly as a run of fixed length does), then unrelated streams.
std::uint64_t lapSeed(std::uint64_t seed, std::int64_t lap);

} // namespace core
