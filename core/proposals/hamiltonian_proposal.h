#pragma once
/// Hamiltonian Monte Carlo proposal with a fixed mass matrix and, optionally, a minibatch
/// gradient held fixed along each trajectory (Duane et al. 1987; Neal 2011, "MCMC using
/// Hamiltonian dynamics"). In the coordinates z = L⁻¹θ that the preconditioner M⁻¹ = L Lᵀ
/// whitens (for logistic regression, L of the Laplace approximation's covariance,
/// logistic_laplace.h), one proposal is
///
///   p ~ N(0, I);  k steps of leapfrog with step ε on U_S(θ) = −log p0(θ) − (N/(T·B)) Σ_{i∈S} log p(x_i|θ):
///     p ← p + (ε/2) Lᵀ ĝ_S(θ);  θ ← θ + ε L p;  p ← p + (ε/2) Lᵀ ĝ_S(θ)
///
/// and the candidate is θ' at the trajectory's end. For a fixed S and ε the leapfrog map is
/// volume-preserving and, followed by p ↦ −p, an involution, so accepting (θ', p') with the
/// target's own density, exp(−U(θ') − ½‖p'‖² + U(θ) + ½‖p‖²), is an exact MH step on (θ, p)
/// whatever potential U_S steered the path (a surrogate only costs acceptance). S (fresh
/// each trajectory, B rows drawn without replacement), ε (jittered uniformly within ±20 %) and
/// the number of steps k (uniform on 1 … 2K − 1, mean K) are drawn independently of θ for each
/// trajectory: a mixture of exact kernels. The random length matters: a fixed one near half a
/// period of the whitened posterior (K·ε ≈ π) makes successive draws antithetic, which
/// inflates the ESS of the mean while the variance mixes slowly (measured on Fashion-MNIST with
/// K = 8: bulk ESS 3,400–4,600 per chain, yet per-weight sds of two chains 0.81–1.32 apart);
/// a length spread over (0, 2K·ε) averages over the phases, as the randomised durations of
/// Bou-Rabee & Sanz-Serna (2017) do.
/// The proposal's share of the acceptance ratio is the kinetic-energy change,
///
///   logProposalRatio = ½‖p‖² − ½‖p'‖²,
///
/// and the test estimates log π(θ') − log π(θ) as for any proposal (Seita et al., "Minibatch
/// Acceptance Test", Sec. 3: a proposal enters only through the log proposal ratio in Δ*), so the
/// minibatch test stays the only approximation.
///
/// Why here: Langevin (one leapfrog step) moves diffusively, O(ε) per accepted step in a random
/// direction; K steps of one trajectory travel O(Kε) in a consistent direction, so with K·ε
/// near π/2 in whitened units a near-Gaussian posterior is crossed in one proposal.
///
/// `step` is ε (whitened units); K is `--leapfrog-steps`, so the data read per iteration are K
/// gradients over B rows on average (one more when B < N, at the start; with B = N the gradient
/// at the chain's current point is kept from the previous trajectory). Adaptive
/// (AdaptationSettings): the burn-in starts at ε = d^(−1/4) (the order of the optimal step,
/// Beskos et al. 2013) and steers log ε toward the target acceptance with the Robbins–Monro gain
/// of AdaptiveRandomWalkProposal, then freezes it. Optimal acceptance (Beskos et al.'s limit,
/// speed ∝ ε·α with Δ ~ N(−s²/2, s²), s ∝ ε²): 0.651 for Metropolis, 0.382 for Barker's test
/// (computed the same way as LangevinProposal's figures); the default 0.3 keeps 94 % of Barker's
/// optimal speed, and with --method mh pass 0.65.
///
/// Where LLᵀ is a multiple of the identity but for a few directions (the Laplace covariance
/// under a N(0, s²I) prior on images: the data inform some tens of the 784 weights) the moves
/// use the symmetric root S of a covariance within 5 % of LLᵀ instead of L (low_rank_root.h):
/// 2·d·k operations per product instead of d²/2, and the chain stays exact, since S² is a
/// positive-definite mass matrix of its own. learned() still reports L.
///
/// Per-chain object: propose() runs the trajectory and keeps the kinetic-energy change and the
/// gradients in mutable workspace for logProposalRatio(), because the Proposal interface is
/// const; one object serves one chain (experiment_runner.cpp builds one per chain).
#include <memory>
#include <optional>
#include <vector>

#include "core/acceptance/minibatch_sampler.h"
#include "core/proposals/adaptive_proposal.h"
#include "core/proposals/low_rank_root.h"
#include "core/proposals/scale_adaptation.h"

namespace core {

class HamiltonianProposal final : public ScaleAdaptiveProposal {
public:
    /// Keeps a reference to `model`, which must outlive the proposal. Throws
    /// std::invalid_argument unless the model has gradients, L is d×d, finite, lower-triangular
    /// with a positive diagonal, step is finite and > 0, gradBatch is in [1, N], leapfrogSteps
    /// is in [1, 1000], and the adaptation's target is in (0, 1).
    HamiltonianProposal(const Model &model, Eigen::MatrixXd lowerFactor, double step, DataIndex gradBatch,
                        int leapfrogSteps, std::optional<AdaptationSettings> adaptation = std::nullopt);

    /// Runs one trajectory. Allocates nothing.
    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    /// ½‖p‖² − ½‖p'‖² of the latest trajectory. Throws std::logic_error unless (from, to) are
    /// that trajectory's ends: the momentum behind another pair is unknown.
    double logProposalRatio(const Vector &from, const Vector &to) const override;
    std::unique_ptr<Proposal> withStep(double step) const override;
    void restartSampling() const override { m_sampler.restart(); }
    // step() is ε; learned() (ScaleAdaptiveProposal) reports ε and diag(L Lᵀ).

    int leapfrogSteps() const { return m_leapfrogSteps; }
    DataIndex gradBatch() const { return m_gradBatch; }

private:
    void gradient(const Vector &theta, double temperature, Vector &out) const;
    /// out = Lᵀ g (the dense factor's moves; those through m_root need no whitening).
    void whiten(const Vector &g, Vector &out) const;

    const Model &m_model;
    DataIndex m_gradBatch;
    int m_leapfrogSteps;
    // Workspace of one chain; see the class comment for why it is mutable.
    mutable MinibatchSampler m_sampler;
    mutable std::span<const DataIndex> m_subset;
    std::vector<DataIndex> m_allRows; // S when B = N
    mutable Vector m_momentum;
    mutable Vector m_gradient;        // ĝ_S at the trajectory's current point
    mutable Vector m_whitened;        // Lᵀ ĝ_S; through m_root, S² r and at first ξ
    mutable Vector m_likelihoodSum;
    /// S with S² ≈ L Lᵀ, used in place of L when the covariance is a multiple of the identity
    /// but for a few directions (low_rank_root.h); null otherwise. Shared with copies.
    std::shared_ptr<const LowRankRoot> m_root;
    mutable Vector m_rootScratch;
    mutable double m_kineticChange = 0.0;
    mutable bool m_haveTrajectory = false;
    mutable Vector m_from;            // the latest trajectory's ends and ĝ at each (B = N reuses them)
    mutable Vector m_to;
    mutable Vector m_gradientFrom;
    mutable Vector m_gradientTo;
    mutable double m_temperature = 0.0;
};

} // namespace core
