#pragma once
/// A trade-off sweep: one numeric setting of the settings table (σ, λ, T, the step, m, …) is
/// stepped over a range, and at each point the run service (run_service.h) runs the same
/// methods and trials. Each (point, method, trial) becomes one SweepRow: the minibatch size,
/// the correction's CDF error, the posterior's fidelity and the speed per effective sample,
/// side by side, so that a curve shows what a setting trades for what (for σ: smaller batches
/// against a larger correction error, Seita et al., "Minibatch Acceptance Test", Sec. 4–5).
///
/// Every point starts from the base request's settings with only the varied setting changed,
/// so nothing one point sets leaks into the next. Trial k of every point and method uses seed
/// + k: points differ in the setting, not in the random stream.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/experiment/reports/mixing_check.h"
#include "core/experiment/service/run_observer.h"
#include "core/experiment/settings/run_request.h"
#include "core/experiment/settings/settings_table.h"

namespace core {

/// The varied setting and its points.
struct SweepAxis {
    std::string setting;    ///< a settings-table key ("sigma") or its command-line flag ("batch-growth")
    double from = 0.0;
    double to = 0.0;
    int count = 0;          ///< points, from and to included
    bool logSpacing = false;///< geometric steps; needs from, to > 0
};

struct SweepRequest {
    /// Most points in one sweep: each is a full request (data, correction, chains).
    static constexpr int kMaxPoints = 1000;

    /// The settings every point starts from, the methods and, as `chains`, the trials per point.
    /// Its parallel and threads are set per point by the sweep (see `threads`); samples are not
    /// kept (a row needs the figures only).
    RunRequest base;
    SweepAxis axis;
    /// Threads for the whole sweep (0: one per core), shared out between points run at once.
    int threads = 0;
    /// The base's step is the preset's 1/√N, not the user's: on an n-data axis each point then
    /// takes 1/√N at its own N, as `compare --n-data` at that value would (else a sweep from
    /// 10⁴ to 10⁷ ran every point at the base N's step, and a move or a Zig-Zag spacing that
    /// is half a posterior sd at one end is 30 sds at the other).
    bool stepFollowsDataSize = false;
};

/// Whether `config`'s step is its preset's 1/√N (the tall data and the worst case derive it so
/// when no step is given): the front ends set SweepRequest::stepFollowsDataSize from it when the
/// user gave no step.
bool stepIsInverseRootOfDataSize(const RunConfig &config);

/// One trial of one method at one point. NaN marks a figure that does not apply.
struct SweepRow {
    std::string setting;           ///< the settings-table key
    double value = 0.0;            ///< the setting as run (integers after rounding)
    TestMethod method = TestMethod::Minibatch;
    std::string label;             ///< the method as tables name it (ChainReport::label)
    std::string methodLabel() const { return core::methodLabel(method, label); }
    int trial = 0;                 ///< 0-based; seed + trial
    double meanBatch = 0.0;        ///< mean points per test
    double acceptanceRate = 0.0;
    /// L∞ CDF error of the correction table: methods that sample X_corr only.
    double correctionLinf = std::nan("");
    /// Total variation to the binned exact posterior: the mixture and the worst case only.
    double posteriorTv = std::nan("");
    double essBulkMin = std::nan(""); ///< over every θ coordinate (ChainReport::essBulkMin)
    double essBulkMedian = std::nan(""); ///< ChainReport::essBulkMedian (the JSON's rows only)
    double essPerSecond = std::nan(""); ///< ChainReport::essPerSecond
    double dataPointsPerEss = std::nan(""); ///< ChainReport::dataPointsPerEss
    /// ChainReport::splitRhat: over the method's trials at this point, or the chain's halves.
    double splitRhat = std::nan("");
    /// Vehtari et al.'s rule on this chain (checkMixing). The ESS is computed on ranks, so a
    /// chain that wandered off (SGHMC at too large a step, θ growing without bound) can show a
    /// large ESS and the cheapest points per ESS of the sweep: this says whether its speed
    /// figures describe the posterior or only the chain's path, and which figures break the rule.
    MixingVerdict mixing;
    double testAccuracy = std::nan(""); ///< logistic regression only, at the last sample
    /// Against the point's full-data reference (the first mh or barker among the methods, its
    /// trials pooled; reference_distance.h): the median over θ components of |Δmean| in the
    /// reference's sds, and of the sds' ratio, for this method's trials pooled. NaN without a
    /// reference among the methods (and 0 and 1 for the reference itself).
    double referenceShift = std::nan("");
    double referenceSdRatio = std::nan("");
    double wallSeconds = 0.0;      ///< the chain's
    /// TunaMH's χ as run: the point's forecast's where the request left it at 0 (tuna_setup.h).
    /// NaN for other methods (the summary JSON's rows only).
    double tunaChi = std::nan("");
};

/// One method's trials at one point pooled (RunOutcome::pooled), for sweeps with trials > 1.
struct SweepPooled {
    double value = 0.0; ///< the point, as run
    PooledEss figures;
};

struct SweepOutcome {
    SweepRequest request;
    std::string settingKey;           ///< the table key the axis names
    std::vector<double> values;       ///< the points, as run
    std::vector<SweepRow> rows;       ///< point by point, then method, then trial
    std::vector<SweepPooled> pooled;  ///< point by point, then method; empty when trials = 1
    int pointsCompleted = 0;
    /// A stop was requested: the rows are those of the points that completed.
    bool stopped = false;
    double wallSeconds = 0.0;         ///< the whole sweep, preparation steps included
};

/// Parses "NAME=FROM:TO:COUNT" (as --vary takes it) into an axis, with logSpacing false.
/// Throws std::invalid_argument starting with "vary" that shows the expected form.
SweepAxis parseSweepAxis(const std::string &text);

/// The settings a sweep can vary on `dataset`: the table's numeric settings with a
/// command-line flag that apply to that dataset (samples, temperature, step, batch, sigma…).
std::vector<const SettingSpec *> sweepableSettings(const std::string &dataset);

/// The setting `name` (key or flag) names, if it is sweepable on `dataset`. Throws
/// std::invalid_argument starting with "vary" and listing the allowed keys otherwise.
const SettingSpec &findSweepSetting(const std::string &name, const std::string &dataset);

/// The points of `axis`: evenly or geometrically spaced from `from` to `to` (both included,
/// exact at the ends), rounded to whole numbers for an integer setting.
std::vector<double> sweepValues(const SweepAxis &axis, const SettingSpec &spec);

/// The request of the point at `value`: a copy of the base with the varied setting set through
/// the table's parser (so a setting that sets others with it, such as batch, does so here too)
/// and samples not kept. Does not validate; throws std::invalid_argument when the parser
/// refuses the value.
RunRequest sweepPointRequest(const SweepRequest &request, double value);

/// Checks the axis (a sweepable setting, count in [2, kMaxPoints], finite bounds that differ,
/// positive bounds for log spacing) and every point's request. Throws std::invalid_argument
/// starting with "vary" and naming the point and its value ("vary: point 3 of 8 (sigma =
/// 2.1): sigma must be in (0, 1.8138); got 2.1"), or the base request's own message.
void validate(const SweepRequest &request);

/// Told what a sweep does. Calls come from the threads that run points, several at once:
/// an observer must be safe to call concurrently.
class SweepObserver {
public:
    virtual ~SweepObserver() = default;
    /// Point `index` of `count` starts at `value`.
    virtual void pointStarted(int /*index*/, int /*count*/, double /*value*/) {}
    /// Iterations done over all of point `index`'s chains, out of `total`.
    virtual void pointProgress(int /*index*/, std::int64_t /*done*/, std::int64_t /*total*/) {}
    /// Point `index` of `count` is done; `rows` are its rows (methods × trials) and `pooled`
    /// each method's trials pooled (empty for one trial), as they will be in the outcome. Not
    /// called for a point a stop cut short.
    virtual void pointFinished(int /*index*/, int /*count*/, const std::vector<SweepRow> & /*rows*/,
                               const std::vector<SweepPooled> & /*pooled*/)
    {
    }
};

/// The rows of one point's outcome, in channel order.
std::vector<SweepRow> sweepRows(const std::string &settingKey, double value, const RunOutcome &outcome);

/// Runs every point (validate() first, so an invalid point fails before any sampling).
/// Scheme: the first point runs alone with every thread over its chains, so that the tables it
/// solves and caches on disk (the correction, AustereMH's design grid) are read, not solved
/// again, by points that share them; the other points then run up to `threads` at a time, each
/// on its share of the threads. Points with the same data settings (every axis but n_data)
/// share one data set, and points at the same temperature one exact posterior
/// (RunInputCache): the first point makes them. Rows do not depend on the scheme or the
/// sharing: only timings do.
/// controls.stop ends the sweep (the outcome says stopped, with the completed points' rows);
/// controls.pauseGate pauses every chain; controls.tuning is not used (a sweep fixes settings).
/// Throws as runRequest does; the first point failure stops the others and is rethrown.
SweepOutcome runSweep(const SweepRequest &request, SweepObserver &observer, const RunControls &controls = {});

} // namespace core
