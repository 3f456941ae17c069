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
/// bias of its own: the acceptance test stays the only approximation (Seita et al., 000_…txt
/// Sec. 3, where any proposal enters through the log proposal ratio in Δ*).
///
/// `step` is h, the standard deviation of the noise per coordinate (as for
/// RandomWalkProposal); the mass matrix is the identity. B = N gives the full-data gradient
/// (MALA).
///
/// Per-chain object: propose() draws S and caches the gradient at θ in mutable workspace that
/// logProposalRatio() then reads, because the Proposal interface is const and the chain loop
/// calls the two back to back. One object must therefore serve one chain (one thread); the
/// run builds one per chain (experiment_runner.cpp), and withStep() makes an independent one.
#include <memory>
#include <vector>

#include "core/acceptance/minibatch_sampler.h"
#include "core/proposals/random_walk_proposal.h"

namespace core {

class LangevinProposal final : public Proposal {
public:
    /// Keeps a reference to `model`, which must outlive the proposal. Throws
    /// std::invalid_argument unless step is finite and > 0, gradBatch is in [1, N] and the
    /// model has gradients (Model::hasGradient). Allocates a permutation of N rows.
    LangevinProposal(const Model &model, double step, DataIndex gradBatch);

    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override;
    /// log q_S(from | to) − log q_S(to | from) with the subset S and temperature of the latest
    /// propose() call; costs one minibatch gradient at `to` (and one at `from` if `from` is not
    /// the point of that call). Throws std::logic_error when propose() was never called.
    double logProposalRatio(const Vector &from, const Vector &to) const override;
    double step() const override { return m_step; }
    std::unique_ptr<Proposal> withStep(double step) const override;

    DataIndex gradBatch() const { return m_gradBatch; }
    /// The rows S of the latest proposal (empty before the first).
    std::span<const DataIndex> subset() const { return m_subset; }
    /// ĝ_S(θ) for the given rows and temperature, into `out` (tests and diagnostics).
    void gradientEstimate(const Vector &theta, double temperature, std::span<const DataIndex> rows, Vector &out) const;

private:
    const Model &m_model;
    double m_step;
    DataIndex m_gradBatch;
    // Workspace of one chain; see the class comment for why it is mutable.
    mutable MinibatchSampler m_sampler;
    mutable std::span<const DataIndex> m_subset;
    std::vector<DataIndex> m_allRows; // S when B = N: contiguous rows, no shuffling needed
    mutable double m_temperature = 0.0;
    mutable Vector m_from;         // θ of the latest propose()
    mutable Vector m_gradientFrom; // ĝ_S at m_from
    mutable Vector m_gradientTo;
    mutable Vector m_likelihoodSum;
};

} // namespace core
