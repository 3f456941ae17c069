#pragma once
/// The rows the pre-run forecasts (TunaMH's, SMH's) read: a fixed sample, so that a forecast
/// costs the same at N = 10⁴ as at 10⁷ and says the same for the same data.
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace core {

/// Every row of a data set of at most `limit` rows, listed once; else `limit` rows drawn
/// uniformly with replacement from `rng`.
std::vector<DataIndex> forecastRows(DataIndex dataSize, Rng &rng, DataIndex limit = 10'000);

/// Every row 0 … dataSize − 1.
std::vector<DataIndex> allRows(DataIndex dataSize);

} // namespace core
