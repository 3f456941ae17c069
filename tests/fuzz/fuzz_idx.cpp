// IDX image and label files, raw or gzipped (core/data/idx_reader.h): every input either parses
// into data whose size matches its header or is rejected with std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "core/data/idx_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::span<const std::uint8_t> bytes(data, size);
    try {
        const core::IdxImages images = core::parseIdxImages(bytes, "fuzz-images");
        if (images.pixels.size()
            != static_cast<std::size_t>(images.count) * static_cast<std::size_t>(images.rows)
                   * static_cast<std::size_t>(images.cols))
            std::abort();
    } catch (const std::runtime_error &) {
    }
    try {
        const auto labels = core::parseIdxLabels(bytes, "fuzz-labels");
        if (labels.empty())
            std::abort();
    } catch (const std::runtime_error &) {
    }
    return 0;
}
