#include "core/acceptance/forecast_rows.h"

#include <algorithm>
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

} // namespace core
