#pragma once
/// The Poisson minibatch of the exact minibatch kernels (SMH: Cornish et al. 2019, Sec. 3.2;
/// TunaMH: Zhang, Cooper & De Sa 2020, Algorithm 1): a count n ~ Poisson(rate), then n points
/// drawn independently in proportion to per-point weights, each with its log-likelihood ratio.
#include <cstdint>
#include <vector>

#include "core/models/model.h"
#include "core/models/point_weights.h"
#include "core/random/rng.h"

namespace core {

/// A draw from Poisson(mean); 0 when mean ≤ 0. The mean may be large (up to N).
std::int64_t poissonDraw(double mean, Rng &rng);

class PoissonMinibatch {
public:
    static constexpr std::size_t kFirstChunk = 16;
    static constexpr std::size_t kLargestChunk = 1024;

    PoissonMinibatch();

    /// Draws n ~ Poisson(rate) points by `weights` and evaluates their ratios
    /// model.logLikelihoodRatios(from, to, ·) in chunks (16, 32, … up to 1024 points, one
    /// vectorised call each), calling visit(i, ratio_i) for each in turn until it returns false.
    /// Returns the points evaluated: those visited plus the rest of the last chunk, since a
    /// chunk is read whole (the data-read count every figure uses). No allocation.
    template <typename Visit>
    std::int64_t run(const Model &model, const Vector &from, const Vector &to, const PointWeights &weights,
                     double rate, Rng &rng, Visit &&visit)
    {
        const std::int64_t count = poissonDraw(rate, rng);
        std::int64_t evaluated = 0;
        std::size_t chunk = kFirstChunk;
        while (evaluated < count) {
            const auto size = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(chunk),
                                                                              count - evaluated));
            for (std::size_t k = 0; k < size; ++k)
                m_rows[k] = static_cast<DataIndex>(weights.table.draw(rng));
            model.logLikelihoodRatios(from, to, {m_rows.data(), size}, {m_ratios.data(), size});
            evaluated += static_cast<std::int64_t>(size);
            for (std::size_t k = 0; k < size; ++k)
                if (!visit(m_rows[k], m_ratios[k]))
                    return evaluated;
            chunk = std::min(2 * chunk, m_rows.size());
        }
        return evaluated;
    }

    /// The mean of run()'s return when each visited point stops the walk with probability
    /// `stopChance` independently (SMH's thinning: q = U/Λ): chunks read whole included.
    static double expectedEvaluated(double rate, double stopChance);

private:
    std::vector<DataIndex> m_rows;
    std::vector<double> m_ratios;
};

} // namespace core
