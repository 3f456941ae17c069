// NumPy .npy arrays (core/data/npy_array.h, npy_dataset.h): every input, raw or gzipped, either
// reads into a consistent data set or is rejected with std::runtime_error, and no header makes
// the reader allocate more than the input can hold (libFuzzer's malloc limit catches that).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "core/data/npy_dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    // The first byte picks the label column, from the front or the back.
    static const char *const kColumns[] = {"1", "2", "-1", "-2"};
    try {
        const core::ClassificationData parsed =
            core::parseNpyDataset(std::span<const std::uint8_t>(data + 1, size - 1), "fuzz.npy", kColumns[data[0] & 3u]);
        if (parsed.features.rows() != static_cast<Eigen::Index>(parsed.labels.size()) || parsed.features.cols() < 1
            || !parsed.features.allFinite())
            std::abort();
        for (const auto label : parsed.labels)
            if (label > 1)
                std::abort();
    } catch (const std::runtime_error &) {
    }
    return 0;
}
