#pragma once
/// Gaussian random-walk proposal θ' = θ + step · z, z ~ N(0, I).
///
/// `step` is the per-coordinate STANDARD DEVIATION, so the proposal covariance is step² · I.
/// Seita et al. write "covariance Σ = diag(0.15, 0.15)" for the mixture ("Minibatch Acceptance
/// Test", Sec. 6.1) and "covariance 0.05 I" for MNIST (Sec. 6.2), i.e. a variance; a step of 0.15
/// taken as a standard deviation is a different, smaller proposal. Pass step = √0.15 ≈ 0.387 to
/// follow the text's covariance literally. The proposal is symmetric, so log q(θ|θ') − log q(θ'|θ)
/// = 0.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace core {

class Proposal {
public:
    virtual ~Proposal() = default;
    /// Writes a candidate into `to` (resized by the caller to θ's dimension) for the target at
    /// temperature T (the posterior with its log-likelihood divided by T; a gradient-informed
    /// proposal follows that target's gradient). Allocates nothing.
    virtual void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const = 0;
    /// log q(from | to) − log q(to | from): the proposal's share of the acceptance ratio, for the
    /// candidate `to` that the latest propose(from, to, …) call drew. A proposal that drew
    /// random auxiliary choices with its candidate (the gradient minibatch of
    /// LangevinProposal) evaluates both directions with those same choices.
    virtual double logProposalRatio(const Vector &from, const Vector &to) const = 0;
    /// The proposal's scale (for a random walk, the per-coordinate standard deviation).
    virtual double step() const = 0;
    /// The same kind of proposal with another scale (a live step change, see LiveTuning).
    /// Throws std::invalid_argument unless step is finite and > 0.
    virtual std::unique_ptr<Proposal> withStep(double step) const = 0;
    /// Puts a minibatch sampler the proposal draws gradient rows with back in its initial order
    /// (MinibatchSampler::restart), at a chain's checkpoint. Nothing for proposals without one.
    virtual void restartSampling() const {}
    /// Where a chain should start when nothing else sets its start: null for most proposals
    /// (the model's initial θ). A proposal centred on a fit (Crank–Nicolson around the Laplace
    /// mode) names the fit's centre.
    virtual const Vector *preferredStart() const { return nullptr; }
    /// What the latest propose() call read, for a move that reads a number of points of its own
    /// choosing (the Zig-Zag process: one per proposed switch; the stochastic-gradient moves:
    /// their gradient minibatch) and has no test to count them:
    /// pointsRead < 0 where the move does not say (the test's count stands).
    struct MoveCost {
        std::int64_t pointsRead = -1;
        /// Proposed events whose rate broke the bound they were thinned against (must stay 0).
        std::int64_t boundViolations = 0;
    };
    virtual MoveCost lastMoveCost() const { return {}; }
    /// A move that follows a continuous path (the Zig-Zag process): the path since the last
    /// call, its corners in order (where the velocity switched), the latest output last, moved
    /// into `out` (replacing its contents) and forgotten here. Other moves leave `out` empty.
    virtual void takeRecentPath(std::vector<Vector> &out) const { out.clear(); }
};

class RandomWalkProposal final : public Proposal {
public:
    /// Throws std::invalid_argument unless step is finite and > 0.
    explicit RandomWalkProposal(double step);

    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    double step() const override { return m_step; }
    std::unique_ptr<Proposal> withStep(double step) const override;

private:
    double m_step;
};

} // namespace core
