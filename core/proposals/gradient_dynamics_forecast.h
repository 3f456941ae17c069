#pragma once
/// What SGLD and SGHMC (stochastic_gradient_dynamics.h) will do on a posterior before their
/// chain runs: the spread of their stationary law against the posterior's, and the effective
/// draws they make per iteration, from the closed form of their dynamics on a Gaussian.
///
/// On a Gaussian posterior N(μ, H⁻¹) the minibatch gradient is ĝ(θ) = −H(θ − μ) + ζ, with ζ of
/// covariance V (the minibatch's: (N²/B)(1 − B/N) times the rows' gradient covariance, over T²),
/// and both methods are linear recursions z' = M z + w, w ~ N(0, Q):
///  - SGLD, z = θ − μ:  M = I − (ε/2) H,  Q = ε I + (ε/2)² V;
///  - SGHMC, z = (θ − μ, v), with v ← (1 − α) v + ε ĝ + √(2αε) ξ and θ' = θ + v:
///      M = [[I − εH, (1 − α) I], [−εH, (1 − α) I]],  Q = [[P, P], [P, P]],  P = ε² V + 2αε I.
/// Their stationary covariance solves S = M S Mᵀ + Q (Welling & Teh 2011 Sec. 3 and Chen, Fox &
/// Guestrin 2014 Sec. 3 give the dynamics; for SGLD on N(μ, σ²) with V = 0 it is the known
/// σ²/(1 − ε/(4σ²))), and the lag-k covariances are M^k S, so a coordinate's integrated
/// autocorrelation time is τ_j = 1 + 2 [M (I − M)⁻¹ S]_jj / S_jj: an effective draw every τ_j
/// iterations, each reading B rows. The forecast takes the Laplace fit's Gaussian as the
/// posterior, so it sees the bias in spread that the step and the gradient's noise make, not a
/// shift of the mean from the posterior's skew. Nor does it see a chain spread so wide that the
/// noise and the curvature change across it: such a chain drifts from the mode toward noisier
/// gradients and spreads wider than forecast (SGHMC at the preset's step on tall data, d = 20:
/// about 21 % at the worst coordinate; docs/methods.md measures it).
#include <cstddef>
#include <cstdint>
#include <optional>

#include <Eigen/Core>

#include "core/proposals/stochastic_gradient_dynamics.h"

namespace core {

/// The stationary law of one step's dynamics against the posterior.
struct GradientDynamicsForecast {
    bool stable = false;         ///< the recursion's spectral radius is below 1
    double sdRatio = 0.0;        ///< the largest √(S_jj / Σ_jj) over the coordinates
    double autocorrelation = 0.0; ///< the largest τ_j: iterations per effective draw
    /// The iterations per effective draw that the bulk ESS (effective_sample_size.h) will read
    /// off one chain of `bulkEssDraws` draws at this step: its truncated sum over the
    /// recursion's exact autocorrelations ρ_j(k) = [M^k S]_jj / S_jj, the largest over the
    /// coordinates. Where they stay positive the truncation reads them whole and this is
    /// `autocorrelation`; where they swing negative (SGHMC's momentum at a long step makes a
    /// damped oscillation) it leaves the negative swings out and counts fewer effective draws
    /// than the chain's mean has. Nothing where no draws were given, where the dynamics are
    /// unstable, for more than kMostTruncatedCoordinates coordinates (a lag costs d·(2d)²), or
    /// where a coordinate's sum has not stopped within kMostTruncatedLags lags.
    std::optional<double> bulkEssAutocorrelation;
};

/// `precision`: H (at the run's temperature); `noise`: V; `step`: h (ε = h²); `friction`: SGHMC's α;
/// `bulkEssDraws`: a chain's length for the bulk ESS's reading (0: not wanted), which reuses the
/// stationary covariance solved for the rest.
GradientDynamicsForecast forecastGradientDynamics(GradientDynamics dynamics, const Eigen::MatrixXd &precision,
                                                  const Eigen::MatrixXd &noise, double step, double friction,
                                                  std::int64_t bulkEssDraws = 0);
inline constexpr Eigen::Index kMostTruncatedCoordinates = 64;
inline constexpr std::ptrdiff_t kMostTruncatedLags = 2000;

/// The largest step on the grid h₀ · 2^(−k/4), k = 0 … 80, whose chain is stable and whose
/// sds are within `sdTolerance` (0.1: 10 %) of the posterior's; none where no step on it is.
std::optional<double> largestStepWithin(GradientDynamics dynamics, const Eigen::MatrixXd &precision,
                                        const Eigen::MatrixXd &noise, double friction, double sdTolerance,
                                        double startStep);

} // namespace core
