#pragma once
/// Preconditioned Crank–Nicolson proposal around a Gaussian reference N(μ, Σ), Σ = L Lᵀ
/// (Cotter, Roberts, Stuart & White 2013, "MCMC methods for functions"; with s = 1 it
/// is the independence sampler of Tierney 1994):
///
///   θ' = μ + ρ (θ − μ) + s L ξ,   ξ ~ N(0, I),   ρ = √(1 − s²),   s ∈ (0, 1].
///
/// In whitened coordinates z = L⁻¹(θ − μ) this is the AR(1) step z' = ρ z + s ξ, which leaves
/// N(0, I) invariant and is reversible with respect to it: N(θ; μ, Σ) q(θ'|θ) =
/// N(θ'; μ, Σ) q(θ|θ'). The proposal's share of the acceptance ratio is therefore
///
///   log q(θ|θ') − log q(θ'|θ) = log N(θ; μ, Σ) − log N(θ'; μ, Σ) = ½‖z'‖² − ½‖z‖²,
///
/// and the test weighs only how the target departs from the reference: when the target is
/// N(μ, Σ) itself every candidate is accepted under Metropolis, whatever s. Any μ and any
/// positive-definite Σ give an exact kernel (Seita et al., "Minibatch Acceptance Test", Sec. 3: a
/// proposal enters only through the log proposal ratio in Δ*), so a poor reference costs speed,
/// never correctness.
///
/// Why it suits a posterior that the Laplace approximation describes well (logistic regression
/// with N ≫ d, logistic_laplace.h): a random walk or Langevin step must stay small, because its
/// acceptance ratio contains the full quadratic form of the move, which grows with d; here the
/// quadratic part cancels against the reference, and only the target's non-Gaussian remainder
/// limits s. With s = 1 successive candidates are independent draws from N(μ, Σ).
///
/// `step` is s, the innovation's scale in units of the reference's sd. Adaptive (made with
/// AdaptationSettings): the burn-in starts at s = 1 and steers log s toward the target
/// acceptance with the Robbins–Monro gain of AdaptiveRandomWalkProposal, never above 1, then
/// freezes it; the chain's --step is not used, since a random walk's step has no meaning here.
///
/// propose() keeps ½‖z‖² of its two points so that logProposalRatio() needs no triangular solve
/// for the candidate it just drew; this scratch is mutable because the Proposal interface is
/// const, so one object serves one chain (experiment_runner.cpp builds one per chain).
#include <memory>
#include <optional>

#include "core/proposals/adaptive_proposal.h"
#include "core/proposals/scale_adaptation.h"

namespace core {

class CrankNicolsonProposal final : public ScaleAdaptiveProposal {
public:
    /// Throws std::invalid_argument unless `mean` and `lowerFactor` are finite, of matching
    /// sizes, the factor lower-triangular with a positive diagonal, step in (0, 1], or the
    /// adaptation's target outside (0, 1).
    CrankNicolsonProposal(Vector mean, Eigen::MatrixXd lowerFactor, double step,
                          std::optional<AdaptationSettings> adaptation = std::nullopt);

    /// Allocates nothing; O(d²) for the solve and the product with L.
    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    /// ½‖L⁻¹(to − μ)‖² − ½‖L⁻¹(from − μ)‖², from the latest propose() when it drew `to` from
    /// `from`, by two triangular solves otherwise.
    double logProposalRatio(const Vector &from, const Vector &to) const override;
    /// Throws std::invalid_argument unless step is in (0, 1].
    std::unique_ptr<Proposal> withStep(double step) const override;
    // step() is s; learned() (ScaleAdaptiveProposal) reports s and the reference's variances diag(Σ).

    const Vector &mean() const { return m_mean; }
    /// The mean μ: at scale 1 every move is an independent draw from N(μ, Σ), and from a point
    /// far in a heavy-tailed posterior's tail, where the posterior is many times that density,
    /// every one would be rejected (θ = 0 on robust linear regression's tall data: acceptance
    /// 0.000 in a whole burn-in).
    const Vector *preferredStart() const override { return &m_mean; }
    const Eigen::MatrixXd &factor() const { return *m_factor; }
    /// ½‖L⁻¹(θ − μ)‖²: minus log N(θ; μ, Σ) up to its constant.
    double referenceEnergy(const Vector &theta) const;

private:
    Vector m_mean;
    // The latest propose(): its two points and their energies; see the class comment.
    mutable Vector m_whitened;
    mutable Vector m_from;
    mutable Vector m_to;
    mutable double m_energyFrom = 0.0;
    mutable double m_energyTo = 0.0;
    mutable bool m_haveProposal = false;
};

} // namespace core
