#pragma once
/// The rank normalisation behind the bulk ESS and split R-hat (effective_sample_size.h):
/// every draw replaced by Φ⁻¹((r − 3/8) / (S + 1/4)), r its average rank among all S draws of
/// all chains (Blom's offsets, Vehtari et al. 2021, Eq. 14), for the draws themselves and for
/// the folded draws |θ − median θ|.
///
/// Why a sorted form: a run's diagnostics rank every coordinate's draws twice, as they are and
/// folded (784 weights for a logistic run, 16,667 draws each). The folded draws' order follows
/// from the draws' own: below the median the distance falls as θ rises, above it it rises, so
/// merging the two runs orders them in one linear pass instead of a second sort.
#include <cstddef>
#include <utility>
#include <vector>

namespace core {

using ChainDraws = std::vector<std::vector<double>>; ///< one inner vector per chain

/// All draws of equal-length chains in ascending order, each with its position
/// chain · length + t.
struct SortedDraws {
    std::vector<std::pair<double, std::size_t>> values;
    std::size_t chains = 0;
    std::size_t length = 0; ///< draws per chain
};

/// Sorts the draws (chains of equal length, checked by the caller).
SortedDraws sortDraws(const ChainDraws &chains);

/// |θ − median θ| over all draws, in ascending order, from the draws' own order. The median
/// is the middle order statistic, or the mean of the two middle ones.
SortedDraws foldSorted(const SortedDraws &sorted);

/// The normal scores of the sorted draws, in the chains' shape; ties share their average rank.
ChainDraws normalScores(const SortedDraws &sorted);

/// normalScores(sortDraws(chains)).
ChainDraws rankNormalise(const ChainDraws &chains);

} // namespace core
