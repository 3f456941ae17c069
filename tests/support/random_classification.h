#pragma once
// Classification data with uniform random features and labels, for model tests that need rows
// of a given width without any structure.
#include <cstdint>
#include <memory>

#include "core/data/classification_data.h"
#include "core/random/rng.h"

namespace testdata {

/// n rows of d features, each uniform on [offset, offset + 1), and fair random labels.
inline std::shared_ptr<core::ClassificationData> randomClassification(core::DataIndex n, int d, std::uint64_t seed,
                                                                      double offset = 0.0)
{
    core::Rng rng(seed);
    auto data = std::make_shared<core::ClassificationData>();
    data->features.resize(n, d);
    data->labels.resize(static_cast<std::size_t>(n));
    for (core::DataIndex i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j)
            data->features(i, j) = static_cast<float>(rng.uniform01() + offset);
        data->labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(rng.uniformIndex(2));
    }
    data->description = "uniform random features";
    return data;
}

} // namespace testdata
