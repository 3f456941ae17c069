#pragma once
/// The Zig-Zag process with subsampling and control variates (Bierkens, Fearnhead & Roberts,
/// "The Zig-Zag process and super-efficient sampling for Bayesian analysis of big data", Annals
/// of Statistics 2019, Sec. 3–4, Algorithm 3 with the control-variate estimator of Sec. 3.3):
/// an exact, continuous-time, non-reversible sampler whose cost per effective sample can fall
/// with N.
///
/// The state is (θ, v), v ∈ {−1, +1}^d; θ moves at velocity v, and v_i flips at rate
/// λ_i(θ, v) = (v_i ∂_iU(θ))⁺ of the potential U = −log p0 − (1/T) Σ_j ℓ_j. With U^j = −log p0 −
/// (N/T) ℓ_j, whose mean over j is U, the control-variate estimate of ∂_iU around the mode θ̂,
///     E_i^j(θ) = ∂_iU(θ̂) + ∂_iU^j(θ) − ∂_iU^j(θ̂),   j uniform on the N points,
/// is unbiased, and flipping at the random rate (v_i E_i^j(θ))⁺ keeps the posterior invariant
/// (Sec. 3.1). With the model's per-point gradient Lipschitz constants L_i and the prior's P,
/// |E_i^j(θ) − ∂_iU(θ̂)| ≤ C_i ‖θ − θ̂‖₂, C_i = (N/T) L_i + P, so along θ + v s
///     (v_i E_i^j)⁺ ≤ a_i + b_i s,   a_i = (v_i ∂_iU(θ̂))⁺ + C_i ‖θ − θ̂‖₂,   b_i = C_i √d,
/// and the events are drawn by Poisson thinning against these affine bounds: the first event of
/// each coordinate's bound, the earliest of them taken, one point j drawn and the flip accepted
/// with probability (v_i E_i^j)⁺ / (a_i + b_i s). The bounds are recomputed from the state after
/// every proposed event and at the end of every output interval: each dominates the true rate
/// from the state it is computed at, which is all the thinning needs.
///
/// Without control variates (`zigzag+none`, Zig-Zag with subsampling, Sec. 3.2), the estimate is
/// the plain one, E_i^j(θ) = −∂_i log p0(θ) − (N/T) ∂_iℓ_j(θ), bounded globally: a model whose
/// points have Lipschitz log-likelihoods, |ℓ_j(θ) − ℓ_j(θ')| ≤ c_j ‖θ − θ'‖₂ (TunaMH's constants),
/// has |∂_iℓ_j| ≤ ‖∇ℓ_j‖₂ ≤ c_j, so with M = max_j c_j and the prior's P,
///     (v_i E_i^j(θ + v s))⁺ ≤ a_i + b_i s,   a_i = (−v_i ∂_i log p0(θ))⁺ + (N/T) M,   b_i = P √d.
/// M does not shrink near the mode, so each unit of time costs O(N) proposed events: the
/// process is exact but not super-efficient, which is what the control variates buy (Sec. 4).
/// (Bierkens et al.'s logistic bound, N max_j |x_ji| per coordinate, is tighter than c_j = ‖x̃_j‖₂
/// by up to √d; the model does not offer it.)
///
/// The chain's draws are the skeleton read off every `spacing` units of time: propose() runs the
/// process from `from` for that long and writes θ at the end. Each proposed event reads one point
/// (its gradient at θ and at θ̂), counted in lastMoveCost(); an event whose rate exceeds its bound
/// is counted as a bound violation (the process is exact only at 0). The velocity is carried from
/// one output to the next (a chain of it refuses checkpoints).
#include <cstdint>
#include <memory>
#include <vector>

#include "core/proposals/random_walk_proposal.h"

namespace core {

class TaylorProxies;

class ZigZagProcess final : public Proposal {
public:
    /// Keeps references to `model` and `controlVariates` (their anchor θ̂ and Σ_j ∇ℓ_j(θ̂); null:
    /// subsampling without them), which must outlive it. Reads the model's gradient Lipschitz
    /// constants, or without control variates its points' Lipschitz constants (one pass over the
    /// data). `boundScale` multiplies every C_i, or M (1: the derived bound; tests pass < 1 to
    /// break it). Throws std::invalid_argument for a spacing that is not finite and > 0, a model
    /// without gradients or the constants its bound needs, or proxies of another dimension.
    /// `step`: the run's step the spacing was derived from (0: the spacing itself), what step()
    /// reports and a live step change scales.
    ZigZagProcess(const Model &model, const TaylorProxies *controlVariates, double spacing, double boundScale = 1.0,
                  double step = 0.0);

    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    /// No accept step: 0.
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    /// The run's step; the spacing is a fixed multiple of it (spacing()).
    double step() const override { return m_step; }
    double spacing() const { return m_spacing; }
    /// The same process with the spacing scaled as the step is (a live step change): a copy, so
    /// the velocity goes on and no constant is read from the data again; its path starts empty.
    std::unique_ptr<Proposal> withStep(double step) const override;
    MoveCost lastMoveCost() const override { return m_cost; }
    /// The path since the last call: where it started, every switch, and each output's end,
    /// at most kPathCorners corners (the oldest dropped first).
    void takeRecentPath(std::vector<Vector> &out) const override;
    static constexpr std::size_t kPathCorners = 4000;

    /// The velocity now (empty before the first output).
    const Vector &velocity() const { return m_velocity; }
    /// Switches (accepted events) in the latest output interval.
    std::int64_t lastSwitches() const { return m_switches; }
    /// C_i at temperature T (with control variates).
    Vector rateSlopes(double temperature) const;
    bool usesControlVariates() const { return m_proxies != nullptr; }
    /// M = max_j c_j, the bound on every |∂_iℓ_j| (without control variates; 0 with them).
    double pointGradientBound() const { return m_pointGradientBound; }

private:
    double coordinateEstimate(const Vector &theta, int coordinate, DataIndex point, double temperature) const;
    /// The first proposed event from m_work along m_velocity: its time, coordinate and the
    /// bound's value there; time is +inf where no bound is positive.
    struct ProposedEvent {
        double time;
        int coordinate;
        double bound;
    };
    ProposedEvent firstProposedEvent(Rng &rng) const;

    const Model &m_model;
    const TaylorProxies *m_proxies;
    double m_spacing;
    double m_boundScale;
    double m_step;
    Vector m_lipschitz;      // L_i
    double m_priorLipschitz; // P
    double m_pointGradientBound = 0.0; // M, without control variates
    Vector m_priorAtAnchor;  // ∇ log p0(θ̂)
    mutable Vector m_velocity;
    mutable Vector m_anchorGradient; // ∂U(θ̂) at m_gradientTemperature
    mutable double m_gradientTemperature = 0.0;
    mutable Vector m_slopes;         // C_i at m_gradientTemperature
    mutable double m_dataRate = 0.0; // N·M/T at m_gradientTemperature (without control variates)
    mutable Vector m_work;
    mutable Vector m_rowGradient;
    mutable Vector m_anchorRowGradient;
    mutable Vector m_priorGradient;
    mutable MoveCost m_cost;
    // The corners since the last takeRecentPath(), d numbers each, the oldest dropped past
    // kPathCorners: those from corner m_pathStart on are kept. Flat, so that recording a corner
    // allocates nothing once the buffer has grown.
    mutable std::vector<double> m_path;
    mutable std::size_t m_pathStart = 0;
    std::size_t pathCorners() const { return m_path.size() / static_cast<std::size_t>(m_work.size()); }
    void recordCorner(const Vector &corner) const;
    mutable std::int64_t m_switches = 0;
};

} // namespace core
