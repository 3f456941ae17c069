#pragma once
/// Adaptive Gaussian random walk: learns its covariance during the burn-in, then freezes.
///
///   θ' = θ + s · L z,   z ~ N(0, I),   L Lᵀ = Σ̂,
///
/// During the burn-in the chain runner calls observe(θ_t, accepted_t) after every iteration:
///  - Σ̂ is the running covariance of the chain's own history plus ε·I (Haario, Saksman &
///    Tamminen 2001, the Adaptive Metropolis algorithm; ε keeps Σ̂ positive definite while the
///    chain has explored fewer than d directions). ε = 10⁻⁶ × the mean variance, so the
///    regulariser is as scale-free as the target (the worst case's posterior sd is 1/√N).
///  - Until `warmUpObservations` draws have been seen, Σ̂ = I and s starts at the given step:
///    the plain random walk. When the estimate takes over, s restarts at 2.38/√d, the optimal
///    scale for a Gaussian target (Roberts & Rosenthal 2001).
///  - s follows a Robbins–Monro step on log s toward a target acceptance rate α*:
///    log s ← log s + γ_k (1{accepted} − α*), γ_k = (k + 1)^(−0.6) (Andrieu & Thoms 2008,
///    Algorithm 4), which makes the chain's acceptance rate converge to α*.
///
/// Target acceptance for a Barker-type test. The minibatch test with its correction accepts
/// with Barker's probability 1/(1 + e^(−Δ)) (Seita et al., "Minibatch Acceptance Test", Sec. 3),
/// which is below Metropolis' min(1, e^Δ) for the same proposal. In the high-dimensional Gaussian
/// limit of Roberts, Gelman & Gilks (1997) the speed is ℓ²·α(ℓ) with α(ℓ) = E[a(Z)], Z ~ N(−ℓ²/2,
/// ℓ²); maximising it numerically gives ℓ = 2.38, α = 0.234 for Metropolis and ℓ = 2.46, α = 0.158
/// for Barker. Low dimensions favour larger acceptance (Metropolis' optimum is 0.44 at d = 1).
/// Those optima count iterations. A minibatch test also pays per iteration a batch that grows
/// like the step squared (the variance of Δ* must fall below σ², "Minibatch Acceptance Test",
/// Algorithm 1) down to its floor m, so per data point read smaller steps, and so larger acceptance
/// rates, win until the batch reaches m. The default α* = 0.30 is where the paper's mixture (d = 2,
/// N = 10⁶, T = 10⁴, m = 100) measured best: about the ESS per iteration of α* = 0.2 at less than
/// half the data points per effective sample (README, "Proposals"). At stationarity a symmetric
/// proposal's Δ has density p with p(−δ) = e^δ p(δ), so Barker's mean acceptance is
/// ∫_{δ>0} p(δ) 2e^δ/(1+e^δ) dδ ≤ ½ ∫_{δ>0} p(δ)(1+e^δ) dδ = ½, tending to ½ as the step
/// shrinks: a target of ½ or more would shrink the scale without end, and run_config.cpp
/// refuses it for the Barker-type tests.
///
/// Structure: d ≤ `fullCovarianceMaxDimension` learns the full covariance and proposes with its
/// Cholesky factor (O(d²) per proposal, O(d³) per refresh); above it, per-coordinate variances
/// only (O(d)), which scales to d = 784 (MNIST logistic regression) where a d×d factor would
/// cost 600k multiply-adds per proposal and needs far more burn-in draws than d to estimate.
///
/// freeze() (the chain runner calls it when the burn-in ends) fixes L and s for good. From
/// then on the proposal is a fixed symmetric kernel, log q(θ|θ') − log q(θ'|θ) = 0, and the
/// chain is as exact as its acceptance test: adaptation never continues into the samples the
/// figures are computed from. observe() after freeze() is ignored.
///
/// Per-chain object (mutable noise workspace). propose() allocates nothing.
#include <cstdint>
#include <memory>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/proposals/adaptive_proposal.h"

namespace core {

class AdaptiveRandomWalkProposal final : public AdaptiveProposal {
public:
    /// Throws std::invalid_argument unless dimension ≥ 1, initialStep is finite and > 0, and
    /// the settings are in range (target in (0, 1), regulariser ≥ 0, warm-up ≥ 1).
    AdaptiveRandomWalkProposal(int dimension, double initialStep, AdaptationSettings settings = {});

    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    /// The overall scale s (the per-coordinate sd when Σ̂ = I).
    double step() const override { return m_scale; }
    /// A frozen copy with the covariance learned so far and scale `step` (a live step change).
    std::unique_ptr<Proposal> withStep(double step) const override;

    void observe(const Vector &theta, bool accepted) override;
    void freeze() override { m_frozen = true; }
    bool frozen() const override { return m_frozen; }
    bool fullCovariance() const { return m_full; }
    LearnedProposal learned() const override;

private:
    /// Re-learns the scale alone from kRelearnGainStart, the covariance kept (relearning()).
    bool resumeScaleLearning() override;
    /// Welford's update of the running mean and covariance, and the factor refreshed from it.
    void observeCovariance(const Vector &theta);
    void refreshFactor();

    int m_dimension;
    AdaptationSettings m_settings;
    bool m_full;
    bool m_frozen = false;
    bool m_covarianceLearned = false;
    bool m_scaleOnly = false;          // re-learning after a live T change: Σ̂ stays as learned
    double m_scale;
    double m_logScale;
    std::int64_t m_scaleUpdates = 0;   // k of the Robbins–Monro gain since the scale restarted
    std::int64_t m_observations = 0;
    std::int64_t m_accepted = 0;
    // Welford's running mean and sum of outer products (full) or squares (diagonal).
    Vector m_mean;
    Vector m_delta;
    Eigen::MatrixXd m_sumProducts;     // d×d, or d×1
    Eigen::MatrixXd m_covariance;      // Σ̂ as last factorised
    Eigen::MatrixXd m_factor;          // lower-triangular L (full) or d×1 standard deviations
    Eigen::LLT<Eigen::MatrixXd> m_llt;
    mutable Vector m_noise;
};

} // namespace core
