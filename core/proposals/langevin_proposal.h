#pragma once
/// Langevin proposal with a minibatch gradient (a Metropolis-adjusted Langevin step whose drift
/// uses a random subset of the data):
///
///   θ' = θ + (h²/2) ĝ_S(θ) + h ξ,   ξ ~ N(0, I),
///   ĝ_S(θ) = ∇ log p0(θ) + (N / (T·B)) Σ_{i∈S} ∇ log p(x_i | θ),
///
/// with S a fresh subset of B rows drawn uniformly without replacement at every proposal,
/// independently of θ. The proposal density is q_S(θ'|θ) = N(θ'; θ + (h²/2) ĝ_S(θ), h² I), and
/// logProposalRatio evaluates log q_S(θ|θ') − log q_S(θ'|θ) with the SAME S for both
/// directions. Then, for every fixed S, proposing from q_S and accepting by an exact MH test is
/// a π-reversible kernel; drawing S independently of θ makes the chain a mixture of
/// π-reversible kernels, which is π-reversible too. The minibatch gradient therefore adds no
/// bias of its own: the acceptance test stays the only approximation (Seita et al., "Minibatch
/// Acceptance Test", Sec. 3, where any proposal enters through the log proposal ratio in Δ*).
///
/// `step` is h, the standard deviation of the noise per coordinate (as for
/// RandomWalkProposal). B = N gives the full-data gradient (MALA). With a diagonal
/// preconditioner M (the identity unless adapted) the proposal is
///
///   θ' = θ + (h²/2) M ĝ_S(θ) + h M^{1/2} ξ,   q_S(θ'|θ) = N(θ'; θ + (h²/2) M ĝ_S(θ), h² M),
///
/// still exact for every S, so still only the test approximates.
///
/// Adaptive (made with AdaptationSettings; ChainSettings::adaptation): during the burn-in M
/// becomes the chain's own per-coordinate variances and h is steered to a target acceptance,
/// then both freeze, so the samples come from one fixed kernel.
///  - M is estimated over windows whose length doubles (warm-up, 2×, 4×, …), each window's
///    estimate starting afresh: the first window still holds the transient from θ₀ (for
///    logistic regression, the walk from θ = 0 to the mode), so its variances are far too wide
///    in some coordinates; later windows see only the chain near its target. The last window
///    ends at nine tenths of the burn-in, leaving the last tenth for h alone.
///  - When M first replaces the identity, h restarts at d^(−1/6), the order of the optimal
///    MALA step for a target whitened by M (Roberts & Rosenthal 1998: h² ∝ d^(−1/3)).
///  - h follows the Robbins–Monro step on log h of AdaptiveRandomWalkProposal toward α*.
///  - After a live change of T, h is rescaled by √(T′/T) and learned again from a small gain
///    (resumeScaleLearning()), M kept.
/// Target acceptance for Langevin. In Roberts & Rosenthal's limit Δ ~ N(−s²/2, s²) with
/// s ∝ ℓ³ and the speed is ℓ²·α: maximised numerically, α = 0.574 for Metropolis and
/// α = 0.345 for Barker's 1/(1 + e^(−Δ)), the acceptance of the minibatch test with its
/// correction. The default α* = 0.30 keeps 98% of Barker's optimal speed (and Barker's mean
/// acceptance tends to ½ as h → 0, so α* ≥ ½ is refused for Barker-type tests); with the exact
/// Metropolis test pass 0.57 (0.30 keeps 78% of its speed).
///
/// With B = N the gradient at the chain's current point is the one the previous ratio computed
/// (at the candidate, when accepted) or propose() computed (when rejected): it is reused, so MALA
/// reads the data for one gradient per iteration, not two.
///
/// Per-chain object: propose() draws S and caches the gradient at θ in mutable workspace that
/// logProposalRatio() then reads, because the Proposal interface is const and the chain loop
/// calls the two back to back. One object must therefore serve one chain (one thread); the
/// run builds one per chain (experiment_runner.cpp), and withStep() makes an independent one.
#include <memory>
#include <optional>
#include <vector>

#include "core/acceptance/minibatch_sampler.h"
#include "core/proposals/adaptive_proposal.h"

namespace core {

class LangevinProposal final : public AdaptiveProposal {
public:
    /// Keeps a reference to `model`, which must outlive the proposal. Throws
    /// std::invalid_argument unless step is finite and > 0, gradBatch is in [1, N] and the
    /// model has gradients (Model::hasGradient), or the adaptation settings are out of range.
    /// Allocates a permutation of N rows. Without `adaptation` the proposal is fixed (M = I)
    /// and observe() does nothing.
    LangevinProposal(const Model &model, double step, DataIndex gradBatch,
                     std::optional<AdaptationSettings> adaptation = std::nullopt);

    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    /// log q_S(from | to) − log q_S(to | from) with the subset S and temperature of the latest
    /// propose() call; costs one minibatch gradient at `to` (and one at `from` if `from` is not
    /// the point of that call). Throws std::logic_error when propose() was never called.
    double logProposalRatio(const Vector &from, const Vector &to) const override;
    double step() const override { return m_step; }
    std::unique_ptr<Proposal> withStep(double step) const override;
    void restartSampling() const override { m_sampler.restart(); }

    void observe(const Vector &theta, bool accepted) override;
    void freeze() override { m_frozen = true; }
    bool frozen() const override { return m_frozen; }
    /// h, and M as d×1 variances (fullCovariance false).
    LearnedProposal learned() const override;
    bool adaptive() const { return m_adaptation.has_value(); }
    /// Uses the fixed full preconditioner M = L Lᵀ (L lower-triangular, d×d, e.g. a Laplace
    /// approximation's covariance factor) instead of a diagonal one: the drift is (h²/2) L Lᵀ ĝ,
    /// the noise h L ξ, and the density's quadratic form ‖L⁻¹ r‖². An adaptive proposal then
    /// learns h only. Costs O(d²) per proposal and per ratio. Call before the chain starts;
    /// throws std::invalid_argument unless L is d×d with a positive diagonal.
    void useFullPreconditioner(Eigen::MatrixXd lowerFactor);
    bool fullPreconditioner() const { return m_factor != nullptr; }
    /// The diagonal preconditioner M, as variances.
    const Vector &preconditioner() const { return m_mass; }

    DataIndex gradBatch() const { return m_gradBatch; }
    /// The rows S of the latest proposal (empty before the first).
    std::span<const DataIndex> subset() const { return m_subset; }
    /// ĝ_S(θ) for the given rows and temperature, into `out` (tests and diagnostics).
    void gradientEstimate(const Vector &theta, double temperature, std::span<const DataIndex> rows, Vector &out) const;

protected:
    /// The step h alone learned again after a live change of T (AdaptiveProposal::relearning),
    /// the preconditioner kept: where the likelihood dominates, the tempered posterior's
    /// covariance is T times the untempered one's, so h² M, the scale of the drift and of the
    /// noise, follows it when h alone is multiplied by √(T′/T), and M, in units of the old
    /// posterior's variances, stays right up to that factor.
    bool resumeScaleLearning() override;

private:
    void endWindow();

    const Model &m_model;
    double m_step;
    DataIndex m_gradBatch;
    std::optional<AdaptationSettings> m_adaptation;
    Vector m_mass;      // M, per-coordinate variances (the diagonal of L Lᵀ with a full M)
    Vector m_massSqrt;  // M^{1/2}
    std::shared_ptr<const Eigen::MatrixXd> m_factor; // L of a full M = L Lᵀ; null for a diagonal M
    mutable Vector m_work;           // O(d) scratch of the full-M products, so that none allocates
    mutable Vector m_whitenedFrom;   // Lᵀ ĝ(θ) and Lᵀ ĝ(θ')
    mutable Vector m_whitenedTo;
    bool m_frozen = false;
    bool m_massLearned = false;
    double m_logStep;
    std::int64_t m_stepUpdates = 0;  // k of the Robbins–Monro gain
    std::int64_t m_observations = 0;
    std::int64_t m_accepted = 0;
    std::int64_t m_windowStart = 0;  // observations when the current window began
    std::int64_t m_windowEnd = 0;    // observations at which it ends (0: no more windows)
    Vector m_windowMean;             // Welford over the current window
    Vector m_windowSquares;
    // Workspace of one chain; see the class comment for why it is mutable.
    mutable MinibatchSampler m_sampler;
    mutable std::span<const DataIndex> m_subset;
    std::vector<DataIndex> m_allRows; // S when B = N: contiguous rows, no shuffling needed
    mutable double m_temperature = 0.0;
    mutable Vector m_from;         // θ of the latest propose()
    mutable Vector m_gradientFrom; // ĝ_S at m_from
    mutable Vector m_gradientTo;
    mutable Vector m_likelihoodSum;
    // B = N: the gradient is a function of θ alone, so the chain's next proposal reuses the one
    // at the point it moved to (or stayed at) instead of another pass over the data.
    mutable Vector m_to;
    mutable bool m_haveTo = false;
};

} // namespace core
