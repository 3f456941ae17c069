#include "core/acceptance/forecast_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace core {

std::vector<DataIndex> forecastRows(DataIndex dataSize, Rng &rng, DataIndex limit)
{
    if (dataSize <= limit)
        return allRows(dataSize);
    std::vector<DataIndex> rows(static_cast<std::size_t>(limit));
    for (DataIndex &row : rows)
        row = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(dataSize)));
    return rows;
}

std::vector<DataIndex> allRows(DataIndex dataSize)
{
    std::vector<DataIndex> rows(static_cast<std::size_t>(dataSize));
    std::iota(rows.begin(), rows.end(), DataIndex{0});
    return rows;
}

double crankNicolsonEffectiveDraws(double acceptance, double scale)
{
    // 1 − √(1 − s²) as s²/(1 + √(1 − s²)), without the cancellation at small s.
    const double s2 = scale * scale;
    const double oneMinusRho = acceptance * s2 / (1.0 + std::sqrt(std::max(0.0, 1.0 - s2)));
    return oneMinusRho / (2.0 - oneMinusRho);
}

} // namespace core
