#pragma once
/// Everything that defines one run, shared by the CLI and the GUI, and the factory that turns
/// it into a model, a proposal and an acceptance test.
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/acceptance/acceptance_test.h"
#include "core/acceptance/growing_minibatch.h"
#include "core/acceptance/austere_designer.h"
#include "core/acceptance/exact_minibatch_tests.h"
#include "core/acceptance/sequential_tests.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/inputs/logistic_dataset.h"
#include "core/experiment/settings/dataset_registry.h"
#include "core/experiment/settings/method_registry.h"
#include "core/models/glm/glm_family.h"
#include "core/models/logistic_laplace.h"
#include "core/proposals/adaptive_random_walk_proposal.h"
#include "core/proposals/langevin_proposal.h"
#include "core/proposals/random_walk_proposal.h"

namespace core {

std::string solverName(CorrectionSolver solver);
CorrectionSolver parseSolver(const std::string &name);

/// Control variates for the minibatch tests (control_variates.h; Bardenet, Doucet & Holmes 2017; Cornish et al. 2019):
/// Taylor proxies of every point's log-likelihood around the posterior mode θ̂, whose sum over
/// the data is exact, so that the minibatch estimates only the residuals. Auto resolves to
/// Taylor2 for SMH, whose factors are the residuals, and to None for every other method (their
/// runs stay as they were).
enum class ControlVariates { Auto, None, Taylor1, Taylor2 };
/// CLI spelling: "auto", "none", "taylor1", "taylor2".
std::string controlVariatesName(ControlVariates kind);
/// Throws std::invalid_argument listing the allowed names.
ControlVariates parseControlVariates(const std::string &name);

/// How candidates are drawn: the paper's Gaussian random walk, a Langevin step along a
/// minibatch gradient of the tempered log-posterior (LangevinProposal), or a random walk whose
/// covariance and scale are learned during the burn-in and then frozen
/// (AdaptiveRandomWalkProposal; needs a burn-in at the target temperature), or the Langevin
/// step with its preconditioner and step learned during the burn-in (LangevinProposal made
/// adaptive; the same needs), or, for logistic regression, the Langevin step preconditioned
/// with the Laplace approximation's covariance (logistic_laplace.h), its step learned during
/// the burn-in, or, for logistic regression too, Crank–Nicolson moves around that Laplace
/// approximation (CrankNicolsonProposal), their scale learned during the burn-in, or Hamiltonian
/// trajectories whose mass matrix that approximation gives (HamiltonianProposal), their leapfrog
/// step learned during the burn-in.
enum class ProposalKind {
    RandomWalk,
    Langevin,
    Adaptive,
    AdaptiveLangevin,
    LaplaceLangevin,
    LaplaceCrankNicolson,
    LaplaceHamiltonian
};
/// CLI spelling: "rw", "langevin", "adaptive", "adaptive-langevin", "laplace-langevin",
/// "laplace-cn", "laplace-hmc".
std::string proposalName(ProposalKind kind);
/// Whether the proposal follows a minibatch gradient (reads --grad-batch rows twice an iteration).
bool usesGradient(ProposalKind kind);
/// Whether the proposal learns during the burn-in and freezes after it (needs --burn-in), and
/// re-learns its step after a live change of T (AdaptiveProposal::relearning).
bool learnsDuringBurnIn(ProposalKind kind);
/// Throws std::invalid_argument listing the allowed names.
ProposalKind parseProposal(const std::string &name);

/// Which settings a front end opens with (presets.h): the paper's (Seita et al. Sec. 6, what
/// RunConfig{} holds, so every reproduction of its figures and tables stays as it was) or the
/// recommended ones, which change only the proposal, the run's length, the burn-in and, for the
/// logistic datasets, the prior and the control variates, so that the first run a user sees is
/// a mixed chain.
enum class Preset { Paper, Recommended };

/// Defaults are the paper's Gaussian-mixture settings (Seita et al., "Minibatch Acceptance Test",
/// Sec. 6.1, the later version, Sec. 6.1, its appendix C.1): N = 10⁶, T = 10⁴, m = 100 growing by
/// 100, σ = 1, 3000 samples.
struct RunConfig {
    /// Recorded so that files say which preset filled the settings not given; the values
    /// themselves are always written out in full.
    Preset preset = Preset::Paper;
    std::string dataset = "gmm";
    TestMethod method = TestMethod::Minibatch;
    std::int64_t nData = 1'000'000;
    std::int64_t samples = 3000;
    std::uint64_t seed = 1;        ///< the chain's random stream
    std::uint64_t dataSeed = 1;    ///< the generated data set; fixed across chains and methods
    double temperature = 10'000.0;
    double step = 0.15;            ///< proposal standard deviation per coordinate (see RandomWalkProposal)
    /// Burn-in: the first `burnIn` of the `samples` iterations run with step `burnInStep`
    /// (0: `step`) at `annealFrom`, or at `temperature` when annealFrom is 0 (a plain warm-up),
    /// then `temperature` and `step`. Annealing is the paper's schedule (Seita et al., "Minibatch
    /// Acceptance Test" (later version), Sec. 6.2: 100 → 1 after 400 samples). Burn-in rows never
    /// count as draws of the target; a plain warm-up's rows are not even written to samples files
    /// (see writeRunSamples).
    std::int64_t burnIn = 0;
    /// > 0: the chain restarts its random stream every this many draws after the burn-in
    /// (ChainSettings::checkpointEvery), so that a run cut short can be continued from its
    /// samples file exactly (`run --resume`). 0: one stream, as always (the default: numbers
    /// measured without it stay as they are).
    std::int64_t checkpointEvery = 0;
    double annealFrom = 0.0;
    double burnInStep = 0.0;
    ProposalKind proposal = ProposalKind::RandomWalk;
    /// Adaptive proposal: the acceptance rate the burn-in tunes its scale toward, in (0, 0.5)
    /// for the Barker-type tests, (0, 1) otherwise (AdaptationSettings::targetAcceptance
    /// explains the default and the limit).
    double adaptTarget = AdaptationSettings{}.targetAcceptance;
    /// Langevin and Hamiltonian proposals: rows B of the minibatch S their gradient averages,
    /// in [1, N]; 0 chooses B from N once the data are loaded (gradBatchFor).
    DataIndex gradBatch = 100;
    /// Hamiltonian proposal: mean leapfrog steps K per trajectory (each draws 1 … 2K − 1), in
    /// [1, 1000]. With the step ε the burn-in learns (≈ 0.35 in whitened units on Fashion-MNIST,
    /// d = 784), 4 steps travel about π/2 on average, the quarter period that carries a
    /// Gaussian's point to an independent one.
    int leapfrogSteps = 4;
    /// Taylor proxies as control variates for the minibatch test, AustereMH and MHSubLhd.
    ControlVariates controlVariates = ControlVariates::Auto;
    /// TunaMH's χ > 0: its expected batch is χ C² M² + C M (exact_minibatch_tests.h). 10⁻⁵ is
    /// the authors' choice for their MNIST logistic regression (Zhang, Cooper & De Sa 2020).
    double tunaChi = 1e-5;
    /// FlyMC's q_db ∈ (0, 1]: the probability that a dark point is proposed bright (firefly_test.h).
    double flymcDarkToBright = 1e-3;
    /// SMH's remainder bound: per move the smaller of the ℓ₁ and the margin forms, or the ℓ₁ form
    /// alone (exact_minibatch_tests.h).
    SmhBound smhBound = SmhBound::Auto;
    /// The stochastic-gradient methods (sgld, sghmc; stochastic_gradient_dynamics.h): SGHMC's
    /// friction α ∈ (0, 1] per step, and the step schedule ε_t = h² (1 + t / t₀)^(−γ) with
    /// γ = sgDecay ∈ [0, 1] (0: constant) and t₀ = sgDecayFrom > 0 moves.
    double sghmcFriction = 0.1;
    double sgDecay = 0.0;
    double sgDecayFrom = 1000.0;
    /// SGLD's and SGHMC's step chosen once the data are loaded (gradient_setup.h): 0 runs them
    /// at `step`; b ∈ (0, 1] takes the largest step whose forecast sds are within b of the
    /// posterior's, where an effective draw then costs under ten times full-data Metropolis'.
    double sgStepBias = 0.0;
    /// The Zig-Zag process (zig_zag_process.h): the time between the skeleton's outputs, > 0;
    /// 0 reads it off every ten --step (a few posterior sds on tall data).
    double zigzagSpacing = 0.0;
    /// The logistic-regression data (dataset "logreg"); for "tall-logreg" only its model
    /// options (prior, bias) and test split (testSize) are read.
    LogisticDataSpec logreg;
    /// tall-logreg, tall-glm: the model's dimension d, the bias weight included (d − 1 generated
    /// feature columns with the bias, d without), in [1, 10000] (Cornish et al. 2019 use 10 and 20
    /// in their experiments).
    int dimension = 20;
    /// tall-glm, glm: the generalised linear model and its noise (glm_family.h); its prior is
    /// logreg.model.priorSd's and it always has a bias.
    GlmFamilySpec glm;
    /// glm: the response's column in the user's file (regression_file.h): a CSV header name or a
    /// number (1 = first, −1 = last); empty: the CSV's column named "response" or "y", else the first.
    /// The file itself and how it is read are logreg's fields (data, format, labels, delimiter,
    /// dropMissing, standardize).
    std::string responseColumn;
    /// Test accuracy is evaluated every traceStride samples.
    std::int64_t traceStride = 10;
    MinibatchSettings minibatch;
    /// AustereMH(c): the paper's mixture settings, m = 100 and ε = 0.005 (Seita et al., "Minibatch
    /// Acceptance Test", Sec. 6.1), unless austereErrorBound asks for a design.
    AustereSettings austere;
    /// > 0: choose AustereMH's (m, ε) by the design grid under this bound on the mean |ΔP|
    /// (austere-c: once, from a pilot; austere-nc: every iteration). 0: use `austere` as is.
    double austereErrorBound = 0.0;
    int austerePilot = 200;        ///< pilot proposals for the conservative design
    /// MHSubLhd: m = 100, γ = 1.5, p = 2, δ = 0.01 (Seita et al., "Minibatch Acceptance Test", Sec.
    /// 6.1).
    SubLhdSettings sublhd;
    /// The paper's grid (N = 4000, V = 20, σ = 1, λ = 10) but solved by NNLS: its CDF error is
    /// about 1e-7 against the ridge solution's 9e-4, at the same cost. `solver = Ridge`
    /// reproduces the paper's table exactly.
    CorrectionParams correction = defaultCorrection();

    static CorrectionParams defaultCorrection()
    {
        CorrectionParams params;
        params.solver = CorrectionSolver::Nnls;
        return params;
    }
};

/// "auto" or "l1".
std::string smhBoundName(SmhBound bound);
/// The inverse of smhBoundName(); throws std::invalid_argument naming the accepted values.
SmhBound parseSmhBound(const std::string &text);

/// Every dataset name, in the dataset table's order (dataset_registry.h).
const std::vector<std::string> &allDatasets();
/// True for the datasets sampled with the logistic-regression model ("logreg": images or a
/// user's file; "tall-logreg": generated, synthetic_logistic_data.h).
bool isLogisticDataset(const std::string &dataset);
/// The row of the model `config` samples (model_registry.h): its dataset's, or for a dataset
/// whose model a setting chooses (tall-glm), the chosen one.
const ModelEntry &modelOf(const RunConfig &config);

/// "minibatch", or "minibatch+taylor2" with control variates: a method as tables and the CLI's
/// --methods lists name it.
std::string methodVariantName(const RunConfig &config);
/// How a report names its method: `label` (a methodVariantName) when it was given one, else
/// the plain methodName, for reports filled without a label.
std::string methodLabel(TestMethod method, const std::string &label);
/// Parses "minibatch" or "minibatch+taylor2" into the method and, when a "+..." part is given,
/// its control variates. Throws std::invalid_argument naming the allowed spellings.
std::pair<TestMethod, std::optional<ControlVariates>> parseMethodVariant(const std::string &name);

/// What `config.controlVariates` means for its method: Auto is Taylor2 for SMH and None for the
/// others (the setting is written resolved into files).
ControlVariates resolvedControlVariates(const RunConfig &config);
/// The Taylor order of the resolved control variates: 0 (none), 1 or 2.
int controlVariateOrder(const RunConfig &config);

/// True when the burn-in runs at the target temperature (burnIn > 0, no annealFrom): its rows
/// are dropped from samples files, not only from the figures.
inline bool plainBurnIn(const RunConfig &config) { return config.burnIn > 0 && !(config.annealFrom > 0.0); }

/// Checks every field; throws std::invalid_argument whose message starts with the setting's
/// CLI name and gives its allowed range, e.g. "sigma must be in (0, 1.8138); got 2".
void validate(const RunConfig &config);

/// Dataset-specific defaults for every setting the user did not give (`given(flag)` says which
/// command-line flags were given): the worst-case Gaussian (Seita et al., "Minibatch Acceptance
/// Test", Sec. 2.1) at T = 1 with the proposal N(θ, 1/N); logistic regression at T = 100 with step
/// 0.05 (its appendix Table 5, MNIST-13k); tall-logreg at T = 1 with a N(0, I) prior, a bias weight
/// (d counts it) and step 1/√N, the scale at which its posterior concentrates (Cornish et al. 2019,
/// experiments).
void applyDatasetDefaults(RunConfig &config, const std::function<bool(std::string_view flag)> &given);
/// The same, with only temperature and step possibly given.
void applyDatasetDefaults(RunConfig &config, bool temperatureGiven, bool stepGiven);

/// Builds the acceptance test. `correction` is required by the minibatch method only, and
/// `designer` by AustereMH(nc).
std::unique_ptr<AcceptanceTest> makeAcceptanceTest(const RunConfig &config,
                                                   std::shared_ptr<const CorrectionDistribution> correction,
                                                   std::shared_ptr<const AustereDesigner> designer = nullptr);

/// Builds the configured proposal with scale `step` (config.step, or the burn-in's step) for
/// `model`, which a Langevin proposal keeps a reference to. An adaptive proposal starts as the
/// random walk with that step and learns only when the chain runner feeds it its burn-in
/// (ChainSettings::adaptation, which runConfiguredChain sets). One per chain: a Langevin proposal
/// carries the chain's gradient workspace. Throws std::invalid_argument when grad-batch exceeds
/// the model's N, and Cancelled when `stop` is requested during a Laplace fit (seconds long).
/// A laplace-* proposal is built around `laplace`, the model's fit at config.temperature made
/// once for the request (LaplaceFits), or when that is null around a fit made here.
std::unique_ptr<Proposal> makeProposal(const RunConfig &config, const Model &model, double step,
                                       std::stop_token stop = {}, const GaussianApproximation *laplace = nullptr);

/// Whether the proposal is built around the Laplace approximation of logistic regression.
bool usesLaplaceFit(ProposalKind kind);

/// The gradient's minibatch B on N = dataSize rows: config.gradBatch, or for 0 (auto) N/30
/// within [100, 400] (all N rows below 100). A minibatch gradient's noise grows with N/√B, and
/// the trajectory's step shrinks with it: on Fashion-MNIST (N = 12,000, 784 weights, T = 100)
/// B = 100 left a Hamiltonian chain at min bulk ESS ≈ 320 of 16,667 draws (R-hat 1.02, not
/// converged) where B = 400 gave ≈ 1,200–1,400 for 20 % more time per effective draw saved
/// fourfold; on the bundled digits (N = 1,197) B = 100 is the fastest per effective draw.
DataIndex gradBatchFor(const RunConfig &config, DataIndex dataSize);

/// Data rows the proposal reads per iteration on N = dataSize rows (with B = gradBatchFor): 2 · B for the
/// Langevin proposal (its gradient at θ and at θ' over the same rows; 1 · N when grad-batch = N,
/// whose gradient at θ is kept from the previous iteration), K · grad-batch on average for the
/// Hamiltonian one (K + 1 when grad-batch < N), 0 for the random walks.
std::int64_t proposalPointsPerIteration(const RunConfig &config, DataIndex dataSize);

/// True when the method needs the AustereMH design grid.
bool needsAustereDesign(const RunConfig &config);

/// False when the test holds a design chosen for the run's temperature and step before it
/// started (AustereMH(c) under an error bound): a live change (LiveTuning) would silently void
/// that design's bound, so such a run must restart instead. Every other test decides from the
/// temperature it is given at each iteration.
bool followsLiveTuning(const RunConfig &config);


} // namespace core
