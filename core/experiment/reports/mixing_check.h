#pragma once
/// Whether a chain's figures describe the posterior, or only where the chain has been so far.
/// Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-normalization, folding, and
/// localization: an improved R̂ for assessing convergence of MCMC", Sec. 4, advise trusting a
/// chain's estimates only when its rank-normalised split R-hat is at most 1.01 and its bulk ESS
/// is at least 100 per chain. Every front end says so beside the figures, so that a run that has
/// not mixed (the paper's random walk on the mixture, TunaMH's small learned step on tall data)
/// is not read as a posterior.
///
/// Two levels, because a single 3,000-draw chain over 784 weights passes 1.01 on its slowest
/// weight by chance alone while every weight has hundreds of effective draws: *not mixed*
/// (R-hat above 1.1, the older rule that Vehtari et al. show is far too lax, or fewer than 100
/// effective draws), whose figures describe the chain's path; and *not converged* (R-hat in
/// (1.01, 1.1] with enough draws), whose estimates carry more error than their ESS says.
#include <string>
#include <vector>

#include "core/experiment/service/run_outcome.h"

namespace core {

inline constexpr double kMixedRhatAtMost = 1.01;
inline constexpr double kMixedEssPerChainAtLeast = 100.0;
inline constexpr double kNotMixedRhatAbove = 1.1;

enum class Mixing {
    Unmeasured,   ///< too few draws for R-hat and ESS
    Mixed,        ///< split R-hat ≤ 1.01 and min bulk ESS ≥ 100
    NotConverged, ///< split R-hat in (1.01, 1.1], min bulk ESS ≥ 100
    NotMixed      ///< split R-hat > 1.1 or min bulk ESS < 100
};

struct MixingVerdict {
    Mixing level = Mixing::Unmeasured;
    /// The figures that break the rule, "split R-hat 2.1201 > 1.01; min bulk ESS 1 < 100";
    /// empty unless the level is NotConverged or NotMixed.
    std::string figures;
};

/// The rule on this chain: its own min bulk ESS over every θ coordinate, and the split R-hat
/// over its method's chains (a single chain's two halves).
MixingVerdict checkMixing(const ChainReport &chain);

/// "Vehtari et al. 2021 ask for split R-hat <= 1.01 and a bulk ESS of at least 100 a chain":
/// the rule as the CLI and the compare table cite it.
std::string mixingRule();

/// The level as the summary JSON's "mixing" writes it: "mixed", "not converged", "not mixed";
/// empty for Unmeasured.
std::string mixingName(Mixing level);

/// What to try for a chain of `config` that has not mixed, in the CLI's option names.
std::string mixingAdvice(const RunConfig &config);

/// For a method without an accept step (sgld, sghmc): that its chain is approximate, how its
/// bias grows with the step, and what to compare it with, in the CLI's option names; empty for
/// the methods with an accept step. Every front end shows it beside the figures, so that a
/// mixed SGLD chain is not read as the posterior.
std::string approximationNote(const RunConfig &config);

/// One line per method whose chains break the rule, "tunamh: not mixed, split R-hat 2.1201 >
/// 1.01; min bulk ESS 1 < 100 (chain 1)", from its worst chain; empty when every chain mixed.
std::vector<std::string> unmixedMethods(const RunOutcome &outcome);

} // namespace core
