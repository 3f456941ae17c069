#pragma once
/// The acceptance methods, one row each: what the command line calls a method, what the app's
/// boxes show, the traits every front end and check asks about, and the factory that makes its
/// test. Every list of methods (names, --help, the app's method and compare boxes, presets'
/// rules, validation messages) is derived from this table, so a new method is a new row and its
/// test class, and a list that forgets it cannot exist.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/models/model_capabilities.h"

namespace core {

class AcceptanceTest;
class AustereDesigner;
class CorrectionDistribution;
struct RunConfig;

enum class TestMethod {
    Metropolis,
    Barker,
    Minibatch,
    NaiveBarker,
    AustereConservative,
    AustereNonConservative,
    SubLhd,
    Scalable, ///< SMH (exact_minibatch_tests.h)
    Tuna,     ///< TunaMH (exact_minibatch_tests.h)
    Firefly,  ///< FlyMC (firefly_test.h)
    Sgld,     ///< SGLD, no accept step (stochastic_gradient_dynamics.h)
    Sghmc,    ///< SGHMC, no accept step (stochastic_gradient_dynamics.h)
    ZigZag    ///< the Zig-Zag process, with control variates by default (zig_zag_process.h)
};

/// How a method moves: its test judges the run's proposal, or stochastic-gradient dynamics move
/// without an accept step (core/proposals/stochastic_gradient_dynamics.h), and the run's
/// --proposal does not apply.
enum class MethodMove { ProposalAndTest, GradientLangevin, GradientHamiltonian, ZigZag };

/// Which accept rule a test approximates or implements. A Barker-type test accepts at most half
/// of a symmetric proposal's moves at stationarity, which bounds an adaptive proposal's target.
enum class AcceptRule { Barker, Metropolis };

/// Whether a method takes Taylor-proxy control variates (control_variates.h).
enum class ControlVariatePolicy {
    Never,    ///< the full-data tests read every point; TunaMH and FlyMC bound each point's likelihood
    Optional,  ///< off by default; --control-variates taylor1|taylor2 turns them on
    ByDefault, ///< on by default, --control-variates none allowed (the Zig-Zag process: subsampling)
    Required   ///< on by default and refused off (SMH: its factors are the residuals)
};

struct MethodEntry {
    TestMethod method;
    std::string_view name;        ///< the CLI's spelling, also the samples files' and sessions'
    std::string_view label;       ///< the app's method box: the name and what it is
    std::string_view description; ///< one sentence with its paper and section (tooltips)
    AcceptRule rule;
    /// Exact: the chain's stationary distribution is the tempered posterior, with no test error.
    bool exact;
    /// Samples X_corr, so a run solves (or loads) a correction table first.
    bool needsCorrection;
    /// Reads a small minibatch per iteration on every dataset (presets lengthen such runs).
    bool readsSmallMinibatch;
    /// What the model must offer (SMH, TunaMH and FlyMC are exact only with per-point bounds):
    /// a model without it is refused, naming it (capability_check.h).
    CapabilitySet needs;
    ControlVariatePolicy controlVariates;
    /// Counts drawn points past their bound (the kernel is exact only at 0): reported per chain.
    bool reportsBoundViolations;
    /// Carries state from one iteration to the next that a checkpoint does not record (FlyMC's
    /// bright points), so --checkpoint-every is refused.
    bool carriesStateBetweenIterations;
    /// Offered last in the compare box: a full-data pass per iteration besides its test.
    bool costsAPassPerIteration;
    /// The test for a run (correction: the table when needsCorrection; designer: AustereMH's
    /// design grid when the run needs one).
    std::unique_ptr<AcceptanceTest> (*make)(const RunConfig &config,
                                            std::shared_ptr<const CorrectionDistribution> correction,
                                            std::shared_ptr<const AustereDesigner> designer);
    MethodMove move = MethodMove::ProposalAndTest;
    /// The highest Taylor order its control variates take (SGLD-CV's gradient is first order).
    int maxControlVariateOrder = 2;
    /// What carriesStateBetweenIterations carries, named when --checkpoint-every is refused.
    std::string_view carriedState = {};
    /// What it needs instead of `needs` when run without control variates, where that differs
    /// (zigzag+none bounds each point's gradient by a Lipschitz constant, not residuals around
    /// the mode), and why it needs what `needs` lacks; empty: `needs`.
    CapabilitySet needsWithoutControlVariates = {};
    std::string_view whyWithoutControlVariates = {};
};

/// Every method, in the order the app's method box and the CLI's help list them.
const std::vector<MethodEntry> &methodTable();
/// The row of a method (every enum value has one).
const MethodEntry &methodRow(TestMethod method);

/// Every method, in the table's order.
const std::vector<TestMethod> &allMethods();
/// CLI spelling: "minibatch", "austere-c", …
std::string methodName(TestMethod method);
/// Throws std::invalid_argument listing the allowed names.
TestMethod parseMethod(const std::string &name);
/// The names joined as prose: "minibatch, austere-c, … or naive-barker" (`conjunction` last),
/// of every method, or of those `which` selects.
std::string methodNames(std::string_view conjunction = "or", bool (*which)(const MethodEntry &) = nullptr);
/// The exact minibatch kernels that came after Seita et al. (SMH, TunaMH, FlyMC): exact, but only
/// for models with the per-point bounds their row needs.
bool isExactMinibatchMethod(TestMethod method);
/// Whether the method samples X_corr and needs a correction table.
bool needsCorrection(TestMethod method);
/// Whether the method moves without an accept step (SGLD, SGHMC, the Zig-Zag process): the run's
/// --proposal does not apply.
bool movesWithoutAcceptStep(TestMethod method);
/// Whether a run of `config` learns its step in the burn-in and re-learns it after a live change
/// of T: its proposal is adaptive (learnsDuringBurnIn) and its method uses a proposal at all (not
/// SGLD, SGHMC or the Zig-Zag process, which keep the form's step whatever --proposal says).
bool learnsStepInBurnIn(const RunConfig &config);
/// Whether it moves without an accept step and is approximate (SGLD, SGHMC), with a bias that
/// grows with the step, which every front end says.
bool isApproximateDynamics(TestMethod method);
/// Whether the method takes Taylor-proxy control variates at all (any policy but Never).
bool takesControlVariates(const MethodEntry &row);
/// Whether a run of the method has them unless told otherwise (ByDefault or Required): what
/// --control-variates auto resolves to, its help and the compare box say.
bool controlVariatesOnByDefault(const MethodEntry &row);

} // namespace core
