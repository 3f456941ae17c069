#pragma once
/// How the run service (run_service.h) tells its caller what it is doing, and how the caller
/// steers it. The CLI draws progress bars from these calls; the GUI's worker turns them into
/// queued signals. Every call is made on the thread that does the work: the service's own for
/// the preparation steps, each chain's for its progress; with parallel chains an observer must
/// be safe to call from several threads at once.
#include <cstdint>
#include <stop_token>
#include <string>

#include "core/chain/chain_runner.h"
#include "core/chain/live_tuning.h"
#include "core/chain/pause_gate.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/live_kernel.h"
#include "core/experiment/service/run_outcome.h"

namespace core {

/// The steps of a request, in order.
enum class RunStage {
    Data,             ///< generating or loading the data
    Correction,       ///< loading or solving the correction table
    AustereDesign,    ///< loading or tabulating AustereMH's design grid
    AusterePilot,     ///< AustereMH(c)'s pilot that fixes (m, ε)
    ControlVariates,  ///< the posterior mode θ̂ and the Taylor proxies' sums around it
    LaplaceFit,       ///< the Laplace approximation the laplace-* proposals are built around
    Forecast,         ///< what a method's batch will cost, said before its chains (TunaMH): a sentence, no progress
    Sampling,         ///< the chains
    Diagnostics,      ///< comparing with the exact posterior, R-hat
};

class RunObserver {
public:
    virtual ~RunObserver() = default;
    /// A step begins; `message` says what it does in a sentence.
    virtual void stageStarted(RunStage /*stage*/, const std::string & /*message*/) {}
    /// Progress of the current preparation step, a fraction in [0, 1], or < 0 when unknown.
    virtual void preparationProgress(RunStage /*stage*/, double /*fraction*/) {}
    /// The data are ready (outcome's data fields and plotted components are filled in), before
    /// the correction and any chain. `dataset` lives until the request returns.
    virtual void dataReady(const DatasetInstance & /*dataset*/, const RunOutcome & /*outcome*/) {}
    /// Channel `channel` starts, with `settings`.
    virtual void chainStarted(int /*channel*/, const RunConfig & /*settings*/) {}
    /// Rows [first, last) of channel `channel` are new (at most every
    /// ChainSettings::progressInterval, and at the end). Copy what is needed: `result` changes
    /// after the call returns.
    virtual void chainProgress(int /*channel*/, const ChainResult & /*result*/, std::int64_t /*first*/,
                               std::int64_t /*last*/)
    {
    }
    /// Channel `report.channel` is done and its figures are computed (R-hat and the posterior
    /// metrics come later, with the outcome). `report.result` is the whole chain.
    virtual void chainFinished(const ChainReport & /*report*/) {}
    /// A chain run in laps ends one (continuous_chain.h: a run until stopped, or a run with
    /// kernel controls): rows of `lap` not yet taken must be taken now; a run until stopped
    /// discards the lap after the call.
    virtual void chainLapEnded(int /*channel*/, const ChainResult & /*lap*/) {}
    /// A running chain could not switch channel `channel` to the requested acceptance test
    /// (LiveKernel); it goes on with its current one. `problem` says why.
    virtual void kernelChangeRefused(int /*channel*/, const std::string & /*problem*/) {}
};

/// How a caller steers a running request. All optional.
struct RunControls {
    std::stop_token stop;                ///< ends the preparation or the chains; the outcome says stopped
    PauseGate *pauseGate = nullptr;      ///< pause, resume and single-step every chain
    const LiveTuning *tuning = nullptr;  ///< temperature and step changes during the run
    /// Acceptance-test changes (method, σ, λ, m, …): a chain goes on with the new test as a new
    /// segment. Set, a fixed-length chain runs in laps that end only where a change applies.
    const LiveKernel *kernel = nullptr;
};

} // namespace core
