#pragma once
/// Choosing AustereMH's (m, ε) as the papers did: tabulate the dynamic program for a grid of
/// designs (Seita et al., "Minibatch Acceptance Test", appendix C.2.1: m ∈ {50, …, 500}, ε ∈
/// {0.001, 0.005, 0.01, 0.05, 0.1, 0.2}), then pick the design with the lowest expected data usage
/// whose expected acceptance error over pilot proposals stays within a bound (Korattikara et al.,
/// "Austerity in MCMC Land", supplement Sec. D, Eq. 34–35). The same tables re-design the test at
/// every iteration for AustereMH(nc).
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <vector>

#include "core/acceptance/austere_design.h"
#include "core/models/model.h"
#include "core/proposals/random_walk_proposal.h"

namespace core {

/// A proposal's full-data statistics in the Λ scale (Λ_i = N l_i / T).
struct ProposalMoments {
    double meanLambda = 0.0;
    double sdLambda = 0.0;
    double logPriorProposalRatio = 0.0;
};

/// One design's figures averaged over pilot proposals.
struct AustereCandidate {
    std::int64_t batch = 0;
    double epsilon = 0.0;
    double meanAbsError = 0.0;     ///< mean over proposals of |ΔP| (Eq. 21)
    double meanDataFraction = 0.0; ///< mean over proposals of E_u[π̄] (Eq. 19)
    bool feasible = false;         ///< meanAbsError ≤ the bound
};

class AustereDesigner {
public:
    static std::vector<std::int64_t> defaultBatches();  ///< 50, 100, …, 500
    static std::vector<double> defaultEpsilons();       ///< 0.001, 0.005, 0.01, 0.05, 0.1, 0.2

    /// Tabulates every (m, ε) for a dataset of N rows, on two threads. progress(fraction) is
    /// called from the calling thread; a stop request throws core::Cancelled.
    /// Batches above N are dropped. Throws std::invalid_argument for an empty grid.
    AustereDesigner(std::int64_t populationSize, std::vector<std::int64_t> batches, std::vector<double> epsilons,
                    const std::function<void(double)> &progress = {}, std::stop_token stop = {});

    /// A designer over tables tabulated earlier (see austere_design_cache.h). Throws
    /// std::invalid_argument if there are none.
    explicit AustereDesigner(std::vector<AustereDesignTable> tables);

    const std::vector<AustereDesignTable> &tables() const { return m_tables; }

    /// Conservative design (Eq. 35): every design's figures over the pilot proposals, and
    /// `best` set to the feasible design with the least data (or, if none is feasible, the
    /// one with the smallest error).
    std::vector<AustereCandidate> evaluate(const std::vector<ProposalMoments> &pilot, double errorBound,
                                           std::size_t &best) const;

    /// Non-conservative design for one proposal: the index of the cheapest design whose
    /// |ΔP| for this proposal is within the bound (the most accurate one if none is).
    std::size_t choose(const ProposalMoments &proposal, double errorBound) const;

private:
    std::vector<AustereDesignTable> m_tables;
};

/// Full-data moments of Λ for `count` proposals met along a short exact Barker chain from
/// `start` (the pilot of Korattikara et al., "Austerity in MCMC Land", supplement Sec. D). Costs
/// count full passes over the data.
std::vector<ProposalMoments> collectPilot(const Model &model, const Proposal &proposal, const Vector &start,
                                          double temperature, int count, std::uint64_t seed,
                                          const std::function<void(double)> &progress = {}, std::stop_token stop = {});

} // namespace core
