#pragma once
/// What the run service returns (see run_service.h): every chain's figures and the facts about
/// the data and the preparation steps that reports need. Immutable once returned; the GUI
/// passes it across threads by value (the chains' samples are shared, read-only).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/chain/chain_runner.h"
#include "core/data/classification_data.h"
#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/chain_summary.h"
#include "core/data/feature_scaling.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/settings/run_request.h"
#include "core/models/model.h"

namespace core {

/// The control variates a request prepared (control_variates.h): the anchor θ̂, what finding it
/// cost, and the one pass for the proxies' sums.
struct ControlVariateReport {
    int order = 0; ///< 1 or 2; 0: the posterior mode alone (where TunaMH and FlyMC chains start)
    Vector anchor;
    int newtonSteps = 0;
    std::int64_t passes = 0;  ///< full passes over the data, the mode's and the sums' together
    double seconds = 0.0;     ///< the mode and the sums, reported apart from the sampling
    bool converged = false;
};

/// One finished (or stopped) chain with its diagnostics.
///
/// ESS, R-hat, the posterior metrics and the classifier's posterior-mean figures cover the
/// final segment only: after an annealing burn-in, or after the temperature or step was changed
/// during the run (see LiveTuning), earlier rows target another distribution.
struct ChainReport {
    int channel = 0;
    TestMethod method = TestMethod::Minibatch;
    /// The method as tables name it: "minibatch", or "minibatch+taylor2" with control variates.
    std::string label;
    std::string methodLabel() const { return core::methodLabel(method, label); }
    int chainIndex = 0;
    std::uint64_t seed = 0;
    ChainSummary summary;
    /// The mixture only: the final segment against the binned exact posterior at the final
    /// segment's temperature. Absent for other datasets and for stopped runs.
    bool hasPosteriorMetrics = false;
    PosteriorMetrics posterior;
    /// With control variates: the largest ‖θ − θ̂‖₂ over the chain's kept draws, and the
    /// per-point standard deviations of the residuals r_i and of the plain ratios l_i for moves
    /// between consecutive draws (RMS over up to 100 evenly spaced moves, on up to 10⁴ rows):
    /// their ratio is how much the proxies shrink the minibatch's noise. NaN without.
    double maxDistanceFromAnchor = std::nan("");
    double residualSd = std::nan("");
    double plainRatioSd = std::nan("");
    /// Bulk ESS per plotted θ component (RunOutcome::components); empty with fewer than
    /// kMinDiagnosticDraws rows in the final segment.
    /// Each θ component's mean and sd over the final segment (the compare table's distance
    /// from the full-data reference).
    ComponentMoments moments;
    std::vector<double> bulkEss;
    /// Min and median of the bulk ESS over EVERY θ coordinate (essCoordinates of them: all 784
    /// weights of the MNIST classifier, not only the plotted two), since a run has as many
    /// effective samples as its slowest coordinate has. NaN with fewer than
    /// kMinDiagnosticDraws rows in the final segment.
    double essBulkMin = std::nan("");
    double essBulkMedian = std::nan("");
    int essCoordinates = 0;
    /// Speed per effective sample, with essBulkMin as the effective sample count. The ESS
    /// counts the final segment's rows only, but what it cost is the whole chain's: a user
    /// waits for the burn-in (annealed or not) and any earlier segment too.
    /// essPerSecond: essBulkMin / the chain's whole sampling wall time (ChainResult::
    /// wallSeconds: burn-in included, paused time excluded).
    double essPerSecond = std::nan("");
    /// essBulkMin / the sampling alone: the wall time less the proposal's set-up before the first
    /// iteration (ChainResult::setupSeconds, the Laplace fit of the laplace-* proposals), which a
    /// chain of every method pays alike and which at N = 10⁷ takes longer than the sampling.
    double essPerSamplingSecond = std::nan("");
    /// Every data point the chain read (minibatches and full-data passes, burn-in included) /
    /// essBulkMin: the cost of one effective sample in data, independent of the machine.
    double dataPointsPerEss = std::nan("");
    /// The whole chain, held only until the run service has pooled the ESS over chains
    /// (RunOutcome::pooled) even when the request keeps no samples; null afterwards.
    std::shared_ptr<const ChainResult> rowsForPooling;
    /// Rank-normalised split R-hat (Vehtari et al. 2021) over this method's chains, a single
    /// chain's halves when it has one; max over every θ component. NaN when samples are not kept.
    double splitRhat = std::nan("");
    /// This chain's own split R-hat (its two halves), computed with its ESS figures while the
    /// chain's rows are at hand; splitRhat takes it when the method ran one chain.
    double ownSplitRhat = std::nan("");
    /// Logistic regression: test accuracy and mean test log-likelihood at the last sample; the
    /// accuracy at, and the mean training and test log-likelihoods of, the mean θ of the second
    /// half of the final segment (Seita et al., "Minibatch Acceptance Test" (later version), Sec.
    /// 6.2).
    double testAccuracy = std::nan("");
    double testLogLikelihood = std::nan("");
    double meanThetaAccuracy = std::nan("");
    double meanThetaTrainLogLikelihood = std::nan("");
    double meanThetaTestLogLikelihood = std::nan("");
    /// Classifier evaluations an observer made while the chain ran (the GUI's live accuracy
    /// curve) and the time they took; 0 when none.
    std::int64_t classifierEvaluations = 0;
    double classifierSeconds = 0.0;
    /// The whole chain, for sample files and traces; null when RunRequest::keepSamples is off.
    std::shared_ptr<const ChainResult> result;
};

/// The figures of one method's chains taken together, for requests with several chains per
/// method: the multi-chain bulk ESS (bulkEffectiveSampleSize over every chain's final segment,
/// each cut to the last rows of the shortest), per plotted component and, for the min and
/// median, over every θ coordinate.
struct PooledEss {
    TestMethod method = TestMethod::Minibatch;
    std::string label; ///< as ChainReport::label
    std::string methodLabel() const { return core::methodLabel(method, label); }
    int chains = 0;
    /// The chains' iterations after the burn-in tallied together: the method's acceptance and
    /// mean batch over all its chains (test_tally.h), as the app's status strip shows them.
    TestTally tests;
    std::vector<double> bulkEss;            ///< per plotted component; empty when not measurable
    double essBulkMin = std::nan("");       ///< over every θ coordinate
    double essBulkMedian = std::nan("");
    int essCoordinates = 0;
    /// The time the pooled ESS took: the longest chain's wall time when the method's chains ran
    /// at once, Σ wall / threads (at least the longest) when more chains than threads shared
    /// them, Σ wall when they ran one after the other. That is the wait a user has for this
    /// ESS; a sum over parallel chains would charge the cores, not the wait.
    double wallSeconds = 0.0;
    double essPerSecond = std::nan("");     ///< essBulkMin / wallSeconds
    double dataPointsPerEss = std::nan(""); ///< every point the chains read, burn-in included / essBulkMin
    /// The method's split R-hat over the same rows (maxSplitRhat), computed with the pooled ESS
    /// from the same ranks; empty when the pooled ESS was not measurable. ChainReport::splitRhat
    /// takes it.
    std::optional<double> splitRhat;
};

/// The end of a request: complete, or stopped on request (failures are exceptions).
struct RunOutcome {
    RunRequest request;               ///< as run: AustereMH(c)'s designed (m, ε) written into config
    std::vector<ChainReport> chains;  ///< in channel order; channels never started are absent
    /// One per method when chains > 1 (in method order); empty for one chain per method.
    std::vector<PooledEss> pooled;
    bool stopped = false;

    /// The data: N (training rows for logistic regression), θ's dimension, a one-line
    /// description, and for a classifier its feature and test-set sizes.
    std::int64_t dataSize = 0;
    int dimension = 0;
    std::string datasetDescription;
    bool augmented = false;
    /// The features' standardisation (logreg with standardize); empty otherwise.
    FeatureScaling featureScaling;
    std::int64_t featureCount = 0;
    std::int64_t testSize = 0;
    /// Seconds the data took to generate or load when they were made (a sweep's later points
    /// reuse them), and the bytes their rows take in memory (0 where not counted: the mixture
    /// and the worst case keep one double per point).
    double dataSeconds = std::nan("");
    std::size_t dataBytes = 0;

    /// The two θ components charts plot and diagnostics describe, and their names ("θ₁", "θ₂",
    /// or e.g. "weight of pixel (14, 12)" for logistic regression).
    std::vector<int> components;
    std::vector<std::string> componentNames;

    /// The control variates prepared, one per Taylor order used (empty without).
    std::vector<ControlVariateReport> controlVariates;

    /// The correction table, when a method used one.
    bool usedCorrection = false;
    double correctionLinf = std::nan("");
    bool correctionFromCache = false;
    bool correctionConverged = true;
    /// AustereMH's preparation, in words (empty when no method needed it): where the design grid
    /// came from and, for AustereMH(c) under a bound, the chosen (m, ε).
    std::string austereNote;
    /// TunaMH's forecast, in words (tuna_forecast.h; empty when no channel runs TunaMH on a
    /// model that has one): its batch and noise at a move that mixes, said before the chains.
    std::string tunaForecast;
    /// SMH's forecast, in words (smh_forecast.h; empty when no channel runs SMH with
    /// Crank–Nicolson moves around a Laplace fit): what its chain will read and whether it can
    /// mix, one sentence per Taylor order, said before the chains.
    std::string smhForecast;
    /// SGLD's and SGHMC's forecast, in words (gradient_setup.h; empty when no channel runs them):
    /// their spread against the posterior's at the run's step, an effective draw's cost, and the
    /// step that keeps the spread within 10 %, one sentence per method entry.
    std::string gradientForecast;

    /// The exact posterior of the mixture's data at config.temperature, for lp__ and the binning
    /// bound (null for other datasets and for stopped runs); rows of other segments use
    /// logDensity at their own temperature.
    std::shared_ptr<const GaussianMixturePosterior> posterior;
    /// The model the chains ran on: lp__ of datasets without a binned posterior (null for the
    /// mixture, whose lp__ comes from `posterior`).
    std::shared_ptr<const Model> model;
    /// Logistic regression: the held-out rows (for traces).
    std::shared_ptr<const ClassificationData> testSet;

    const RunConfig &config() const { return request.config; }
    /// Σ iterations over all reported chains, burn-in included (for a run until stopped, all it
    /// ran, not only the window its figures describe).
    std::int64_t totalIterations() const;
    /// The longest chain's wall time: the run's sampling time when chains ran in parallel.
    double longestWallSeconds() const;
    std::int64_t totalFullDataFallbacks() const;
    /// Σ data points read over all chains, minibatches, full-data passes and the proposal's
    /// gradients together, burn-in included.
    std::int64_t totalPointsRead() const;
    /// Method `methodIndex`'s chains, their iterations after the burn-in tallied together: the
    /// method's acceptance and mean batch over all its chains (test_tally.h).
    TestTally methodTests(std::size_t methodIndex) const;
    /// The settings chain `report` ran with (its method, its seed, the designed AustereMH).
    RunConfig chainConfig(const ChainReport &report) const { return request.channelConfig(report.channel); }
};

} // namespace core
