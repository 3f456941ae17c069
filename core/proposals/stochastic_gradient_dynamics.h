#pragma once
/// Stochastic-gradient dynamics: moves driven by a minibatch gradient with NO accept step, so
/// the chain is approximate and its bias grows with the step. They are what most tall-data
/// practitioners use, and what the exact kernels of this library are weighed against.
///
/// With ĝ(θ) the minibatch estimate of the tempered log-posterior's gradient,
///   ĝ(θ) = ∇ log p0(θ) + (N / (T·B)) Σ_{i∈S} ∇ℓ_i(θ),   S: B rows drawn without replacement,
/// and ε = h² (h is the run's step, the noise sd per coordinate, as for LangevinProposal):
///
///  - SGLD (Welling & Teh, "Bayesian learning via stochastic gradient Langevin dynamics",
///    ICML 2011, Sec. 3, Eq. 4):  θ' = θ + (ε/2) ĝ(θ) + √ε ξ,  ξ ~ N(0, I).
///    With B = N it is the unadjusted Langevin algorithm; its stationary law differs from the
///    posterior by O(ε) even then (for a Gaussian N(μ, σ²) the variance is σ² / (1 − ε/(4σ²)),
///    tests/core/proposals/tst_stochastic_gradient_dynamics.cpp), and the gradient's noise
///    adds (ε/2)² Var ĝ to every step.
///  - SGHMC (Chen, Fox & Guestrin, "Stochastic gradient Hamiltonian Monte Carlo", ICML 2014,
///    Sec. 3.3, Eq. 15, with M = I and the noise estimate β̂ = 0):
///        v ← (1 − α) v + ε ĝ(θ) + √(2αε) ξ,   θ' = θ + v,
///    α ∈ (0, 1] the friction per step (1 − α of the momentum is kept). The momentum starts at 0
///    and is carried from one iteration to the next: a chain of SGHMC cannot restart at a
///    checkpoint, and a move from any point other than the last one's end starts it at 0 again.
///  - Control variates (SGLD-CV: Baker, Fearnhead, Fox & Nemeth, "Control variates for
///    stochastic gradient MCMC", Statistics and Computing 2019, Sec. 3, Algorithm 2): around the
///    posterior mode θ̂, with G = Σ_i ∇ℓ_i(θ̂) from one pass over the data,
///        ĝ(θ) = ∇ log p0(θ) + (1/T) [G + (N/B) Σ_{i∈S} (∇ℓ_i(θ) − ∇ℓ_i(θ̂))],
///    still unbiased, with a variance that vanishes as θ → θ̂. First order only: each row's
///    gradient at θ̂ is evaluated beside the one at θ (B rows read, 2B gradients).
///
/// Step schedule: ε_t = h² (1 + t / t₀)^(−γ) at the t-th move of the proposal (Welling & Teh's
/// ε_t = a (b + t)^(−γ), Sec. 3, with a = h² t₀^γ and b = t₀); γ = 0 keeps ε = h² constant.
///
/// Per-chain object (the momentum, the move count and the minibatch sampler are mutable state);
/// withStep() makes an independent one.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/acceptance/minibatch_sampler.h"
#include "core/proposals/random_walk_proposal.h"

namespace core {

class TaylorProxies;

enum class GradientDynamics {
    Langevin,    ///< SGLD
    Hamiltonian, ///< SGHMC
};

struct StochasticGradientSettings {
    GradientDynamics dynamics = GradientDynamics::Langevin;
    DataIndex gradBatch = 100;  ///< B, in [1, N]
    double friction = 0.1;      ///< SGHMC's α, in (0, 1]
    double decay = 0.0;         ///< γ, in [0, 1]: 0 is a constant step
    double decayFrom = 1000.0;  ///< t₀ > 0, in moves
};

/// The gradient minibatch B on N rows: `requested` when > 0, else N/30 within [100, 400]
/// (at most N). Shared by the gradient proposals and the methods without an accept step.
DataIndex gradientBatchSize(DataIndex requested, DataIndex dataSize);

class StochasticGradientDynamics final : public Proposal {
public:
    /// Keeps references to `model` and `controlVariates` (null: plain minibatch gradients),
    /// which must outlive the proposal. Throws std::invalid_argument for a step that is not
    /// finite and > 0, a batch outside [1, N], a friction outside (0, 1], a decay outside
    /// [0, 1], t₀ ≤ 0, a model without gradients, or proxies of another dimension.
    StochasticGradientDynamics(const Model &model, double step, StochasticGradientSettings settings,
                               const TaylorProxies *controlVariates = nullptr);

    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    /// There is no accept step to use it: 0 (AcceptEveryMove never asks).
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    double step() const override { return m_step; }
    std::unique_ptr<Proposal> withStep(double step) const override;
    void restartSampling() const override { m_sampler.restart(); }
    /// The latest move read its gradient minibatch, B rows (with control variates, both
    /// gradients come from those rows): the iteration's points in every figure.
    MoveCost lastMoveCost() const override { return {m_lastBatch, 0}; }

    const StochasticGradientSettings &settings() const { return m_settings; }
    bool usesControlVariates() const { return m_proxies != nullptr; }
    /// ε of the next move (h² at the first, then per the schedule).
    double nextStepSize() const;
    /// ĝ(θ) for the given rows and temperature, into `out` (with the control variates if any).
    void gradientEstimate(const Vector &theta, double temperature, std::span<const DataIndex> rows, Vector &out) const;

private:
    const Model &m_model;
    double m_step;
    StochasticGradientSettings m_settings;
    const TaylorProxies *m_proxies;
    std::vector<DataIndex> m_allRows;    // B = N: every row, no sampler
    mutable MinibatchSampler m_sampler;
    mutable Vector m_gradient;
    mutable Vector m_rowSum;
    mutable Vector m_anchorRowSum;
    mutable Vector m_momentum;           // SGHMC's v, in θ's units
    mutable Vector m_lastEnd;            // the θ' of the last move, where m_momentum belongs
    mutable bool m_haveMomentum = false;
    mutable std::int64_t m_moves = 0;
    mutable std::int64_t m_lastBatch = -1; // rows the latest move read (-1: none yet)
};

} // namespace core
