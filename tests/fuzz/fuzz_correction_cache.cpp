// Correction-table cache files (core/correction/correction_cache.h). The parameters the
// parser checks against are taken from the input's own header when they are valid and small,
// and each input is parsed twice, as it is and with its last 4 bytes replaced by the right
// CRC-32, so that mutations get past the parameter and checksum checks and reach the table.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include <zlib.h>

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
// Bounds the work per input (loading is linear in the grid).
constexpr int kLargestGrid = 5000;

void parse(std::span<const char> bytes, const core::CorrectionParams &params)
{
    try {
        const auto table = core::parseCorrectionCacheFile(bytes, params, "fuzz-correction.bin");
        // A table that loads must be usable: draws and the CDF error read every part of it.
        core::Rng rng(1);
        for (int k = 0; k < 8; ++k)
            if (!std::isfinite(table.sample(rng)))
                std::abort();
        if (!std::isfinite(table.cdfError(0.5)))
            std::abort();
    } catch (const std::runtime_error &) {
    }
}

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
    const auto *chars = reinterpret_cast<const char *>(data);
    parse(std::span<const char>(chars, size), params);
    if (size >= 4) {
        std::vector<char> fixed(chars, chars + size);
        const auto crc = static_cast<std::uint32_t>(
            crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef *>(data), static_cast<uInt>(size - 4)));
        std::memcpy(fixed.data() + size - 4, &crc, sizeof crc);
        parse(fixed, params);
    }
    return 0;
}
