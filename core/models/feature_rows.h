#pragma once
/// How the logistic model reads its feature rows, and the two kernels it runs over a row: the
/// dot products x·w for one or more weight vectors and the update out += c·x, both in double
/// precision whatever the rows are stored as. Three kinds of rows: floats in memory, floats read
/// in place from a memory-mapped file (standardised as they are read when asked), and pixel
/// bytes (feature = byte/255) for images, a quarter of the floats' size. For
/// logistic_regression_model.cpp alone.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/classification_data.h"
#include "core/io/mapped_file.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace core::feature_rows {

template <typename Element>
inline void prefetchRow(const Element *row, Eigen::Index features)
{
    const char *bytes = reinterpret_cast<const char *>(row);
    const auto size = static_cast<std::size_t>(features) * sizeof(Element);
    for (std::size_t offset = 0; offset < size; offset += 64)
        __builtin_prefetch(bytes + offset, 0, 3);
}

// Eight floats and eight doubles as GCC/Clang vector types: the compiler maps them to one
// AVX-512 register, two AVX ones or four SSE ones, and __builtin_convertvector widens a float
// vector to doubles in registers. Eigen 3.4 has no packet conversion from float to double, and
// its dot() keeps a single accumulator, so the kernel would wait on the add latency.
typedef float Float8 __attribute__((vector_size(32)));
typedef double Double8 __attribute__((vector_size(64)));

// Rows of pixel bytes k_j hold the features k_j/255: the sums run over the bytes widened to
// double and take the 1/255 once. A row is a quarter of its floats' size, so Fashion-MNIST's
// 12,000 rows (9 MB) stay in the last-level cache, where their floats (38 MB) did not.
typedef std::uint8_t Byte8 __attribute__((vector_size(8)));
typedef std::int32_t Int8 __attribute__((vector_size(32)));

// What a stored value is multiplied by to give the feature.
template <typename Element>
inline constexpr double kFeatureScale = 1.0;
template <>
inline constexpr double kFeatureScale<std::uint8_t> = 1.0 / 255.0;

// Eight stored values widened to doubles in registers. The result is an out-parameter: a
// 64-byte vector returned by value changes the calling convention between builds with and
// without AVX-512, which GCC warns about.
inline void widen(const float *x, Double8 &wide)
{
#if defined(__AVX512F__)
    // One vcvtps2pd zmm, ymm; GCC's generic lowering of the conversion takes three.
    wide = reinterpret_cast<Double8>(_mm512_cvtps_pd(_mm256_loadu_ps(x)));
#else
    Float8 narrow;
    std::memcpy(&narrow, x, sizeof narrow);
    wide = __builtin_convertvector(narrow, Double8);
#endif
}

// Bytes: a zero-extension to 32-bit integers and a conversion, one instruction each (GCC's
// generic lowering goes element by element, which made byte rows slower than floats).
inline void widen(const std::uint8_t *x, Double8 &wide)
{
#if defined(__AVX512F__) && defined(__AVX2__)
    const __m256i ints = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(x)));
    wide = reinterpret_cast<Double8>(_mm512_cvtepi32_pd(ints));
#elif defined(__AVX2__)
    const __m256i ints = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(x)));
    const __m256d low = _mm256_cvtepi32_pd(_mm256_castsi256_si128(ints));
    const __m256d high = _mm256_cvtepi32_pd(_mm256_extracti128_si256(ints, 1));
    std::memcpy(&wide, &low, sizeof low);
    std::memcpy(reinterpret_cast<char *>(&wide) + sizeof low, &high, sizeof high);
#else
    Byte8 narrow;
    std::memcpy(&narrow, x, sizeof narrow);
    wide = __builtin_convertvector(__builtin_convertvector(narrow, Int8), Double8);
#endif
}

// acc[m] += Σ_j x[j] · w_m[j] for K weight vectors in one pass over the row x (floats, or pixel
// bytes scaled once at the end), in double precision. Four independent accumulators per vector
// keep several additions in flight.
template <int K, typename Element>
inline void accumulateDots(const Element *x, const std::array<const double *, K> &weights, Eigen::Index n,
                           std::array<double, K> &acc)
{
    Double8 sums[K][4] = {};
    Eigen::Index j = 0;
    const auto step = [&](Eigen::Index at, int slot) {
        Double8 wide;
        widen(x + at, wide);
        for (int m = 0; m < K; ++m) {
            Double8 w;
            std::memcpy(&w, weights[static_cast<std::size_t>(m)] + at, sizeof w);
            sums[m][slot] += wide * w;
        }
    };
    for (; j + 32 <= n; j += 32)
        for (int slot = 0; slot < 4; ++slot)
            step(j + 8 * slot, slot);
    for (; j + 8 <= n; j += 8)
        step(j, 0);
    for (int m = 0; m < K; ++m) {
        const Double8 lanes = (sums[m][0] + sums[m][1]) + (sums[m][2] + sums[m][3]);
        double total = 0.0;
        for (int lane = 0; lane < 8; ++lane)
            total += lanes[lane];
        for (Eigen::Index i = j; i < n; ++i)
            total += static_cast<double>(x[i]) * weights[static_cast<std::size_t>(m)][i];
        acc[static_cast<std::size_t>(m)] += kFeatureScale<Element> * total;
    }
}

// out[j] += c · x[j] over the row x, widened to double in registers.
template <typename Element>
inline void addScaledRow(const Element *x, double c, Eigen::Index n, double *out)
{
    const double scaled = c * kFeatureScale<Element>;
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8) {
        Double8 sum, wide;
        std::memcpy(&sum, out + j, sizeof sum);
        widen(x + j, wide);
        sum += wide * scaled;
        std::memcpy(out + j, &sum, sizeof sum);
    }
    for (; j < n; ++j)
        out[j] += scaled * static_cast<double>(x[j]);
}

// Rows of pixel bytes (LogisticRegressionModel::pixelBytes): row r at base + r·d.
struct ByteRows {
    const std::uint8_t *base;
    Eigen::Index d;
    static constexpr bool kChecked = false;
    const std::uint8_t *address(DataIndex r) const { return base + static_cast<Eigen::Index>(r) * d; }
    const std::uint8_t *read(DataIndex r) const { return address(r); }
    void checkFinite(DataIndex) const {}
};

// Rows in memory: row r at base + r·d, as stored.
struct StoredRows {
    const float *base;
    Eigen::Index d;
    static constexpr bool kChecked = false;
    const float *address(DataIndex r) const { return base + static_cast<Eigen::Index>(r) * d; }
    const float *read(DataIndex r) const { return address(r); }
    void checkFinite(DataIndex) const {}
};

// A scratch row per thread for rows standardised as they are read: allocated the first time a
// thread reads such a row, never per call.
inline float *scaledRowScratch(int columns)
{
    thread_local std::vector<float> scratch;
    if (scratch.size() < static_cast<std::size_t>(columns))
        scratch.resize(static_cast<std::size_t>(columns));
    return scratch.data();
}

// Rows read in place from a memory-mapped file (MappedFeatureRows). They were not checked when
// the file was opened (that would read it all), so a margin that is not finite sends the
// reader back to the row: a NaN or infinite feature there is an error naming row and column.
struct InPlaceRows {
    const MappedFeatureRows *rows;
    float *scratch;
    static constexpr bool kChecked = true;
    const float *address(DataIndex r) const { return rows->stored(r); }
    const float *read(DataIndex r) const { return rows->read(r, scratch); }
    void checkFinite(DataIndex r) const
    {
        const float *x = rows->stored(r);
        for (int j = 0; j < rows->columns; ++j)
            if (!std::isfinite(x[j]))
                throw std::runtime_error(rows->file->path() + ": file row " + std::to_string(rows->fileRow(r) + 1)
                                         + ", feature " + std::to_string(j + 1) + " is " + std::to_string(x[j])
                                         + ", not a finite number; fix or drop that row");
    }
};

// Calls visit(reader) with the reader of `data`'s rows: the one branch between the kinds.
template <typename Visit>
decltype(auto) withFloatRows(const ClassificationData &data, Visit visit)
{
    if (data.mapped)
        return visit(InPlaceRows{data.mapped.get(), data.mapped->scaled() ? scaledRowScratch(data.mapped->columns) : nullptr});
    return visit(StoredRows{data.features.data(), data.features.cols()});
}

// The same with the pixel bytes when the model has them (`bytes` not null).
template <typename Visit>
decltype(auto) withRows(const ClassificationData &data, const std::uint8_t *bytes, Visit visit)
{
    if (bytes)
        return visit(ByteRows{bytes, data.featureCount()});
    return withFloatRows(data, visit);
}

// The features as bytes k with feature = k/255 exactly as the images' loader makes them
// (float(k) / 255 in single precision), or empty when any feature is not such a pixel.
inline std::vector<std::uint8_t> pixelBytesOf(const FeatureMatrix &features)
{
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(features.size()));
    const float *x = features.data();
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const float scaled = x[i] * 255.0f;
        if (!(scaled >= 0.0f && scaled <= 255.0f))
            return {};
        const auto k = static_cast<std::uint8_t>(std::lround(scaled));
        if (static_cast<float>(k) / 255.0f != x[i])
            return {};
        bytes[i] = k;
    }
    return bytes;
}

} // namespace core::feature_rows
