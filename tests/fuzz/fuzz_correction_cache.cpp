// Correction-table cache files (core/correction/correction_cache.h). The parameters the
// parser checks against are taken from the input's own header when they are valid and small,
// so that mutations get past the parameter check and reach the table itself.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <stdexcept>

#include "core/correction/correction_cache.h"
#include "core/random/rng.h"

namespace {

template <typename T>
T at(const std::uint8_t *data, std::size_t offset)
{
    T value{};
    std::memcpy(&value, data + offset, sizeof value);
    return value;
}

// Where the layout puts grid, solver, range, sigma and lambda.
constexpr std::size_t kGridOffset = 16, kParamsEnd = 48;
// Bounds the solve-free work per input (fromMasses is linear in the grid).
constexpr int kLargestGrid = 5000;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    core::CorrectionParams params;
    params.grid = 50;
    if (size >= kParamsEnd) {
        core::CorrectionParams own;
        own.grid = at<std::int32_t>(data, kGridOffset);
        own.solver = static_cast<core::CorrectionSolver>(at<std::int32_t>(data, kGridOffset + 4));
        own.range = at<double>(data, kGridOffset + 8);
        own.sigma = at<double>(data, kGridOffset + 16);
        own.lambda = at<double>(data, kGridOffset + 24);
        try {
            core::validate(own);
            if (own.grid <= kLargestGrid)
                params = own;
        } catch (const std::invalid_argument &) {
        }
    }
    try {
        const auto table = core::parseCorrectionCacheFile(
            std::span<const char>(reinterpret_cast<const char *>(data), size), params, "fuzz-correction.bin");
        // A table that loads must be usable: draws and the CDF error read every part of it.
        core::Rng rng(1);
        for (int k = 0; k < 8; ++k)
            if (!std::isfinite(table.sample(rng)))
                std::abort();
        if (!std::isfinite(table.cdfError(0.5)))
            std::abort();
    } catch (const std::runtime_error &) {
    }
    return 0;
}
