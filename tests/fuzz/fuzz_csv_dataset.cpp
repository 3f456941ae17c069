// A user's CSV classification data (core/data/csv_dataset.h): every input either parses into a
// consistent data set or is rejected with std::runtime_error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/data/csv_dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char *>(data), size), std::ios::binary);
    try {
        const core::ClassificationData parsed = core::parseCsvDataset(in, "fuzz.csv");
        // What the reader promises: rows and labels agree, labels are 0/1, features finite.
        if (parsed.features.rows() != static_cast<Eigen::Index>(parsed.labels.size()) || parsed.features.cols() < 1)
            std::abort();
        for (const auto label : parsed.labels)
            if (label > 1)
                std::abort();
        if (!parsed.features.allFinite())
            std::abort();
    } catch (const std::runtime_error &) {
    }
    return 0;
}
