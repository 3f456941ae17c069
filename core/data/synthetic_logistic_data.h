#pragma once
/// Tall synthetic data for Bayesian logistic regression, as in the experiments of Cornish et
/// al. (Scalable Metropolis–Hastings, ICML 2019, experiments): covariates with independent standard
/// normal entries, labels drawn from the model itself at a stated true parameter
/// θ* = (1, …, 1), so the posterior concentrates around θ* at the rate N^−1/2 as N grows.
///
/// Rows are generated in blocks of kSyntheticBlockRows, block k from its own stream seeded by
/// (seed, k): the data depend on the seed and the sizes only, never on how many threads made
/// them, and every thread writes its own rows of the one matrix (no copy). Features are float
/// (classification_data.h explains why); N = 10⁷ rows of 19 features take 760 MB.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

#include "core/data/classification_data.h"

namespace core {

/// The most rows tall-logreg makes: 2⁴⁰, far beyond any memory; the memory check comes first.
inline constexpr std::int64_t kMaxSyntheticRows = std::int64_t{1} << 40;
/// Rows per independently seeded block.
inline constexpr DataIndex kSyntheticBlockRows = 65'536;

struct SyntheticLogisticSpec {
    /// Rows N, in [2, 2⁴⁰] (in memory: as many as the machine's memory holds).
    std::int64_t rows = 100'000;
    /// Feature columns, in [1, 10⁴]; the model's bias weight, when on, comes on top (so a
    /// model dimension d with a bias has d − 1 feature columns).
    int features = 19;
    /// True when the labels were drawn with an intercept θ*_bias = 1 (the model's bias column).
    bool bias = true;
    std::uint64_t seed = 1;
    /// Threads that generate blocks; 0: std::thread::hardware_concurrency().
    int threads = 0;
};

/// Generates the data: x_ij ~ N(0, 1) (j < features), z_i = Σ_j x_ij + [bias], y_i ~
/// Bernoulli(σ(z_i)), i.e. θ* = (1, …, 1). `progress` (fraction done) is called from the
/// calling thread; a stop request ends generation with core::Cancelled. Throws
/// std::invalid_argument naming the field when rows or features are out of range, and
/// std::length_error, before allocating, when the rows would take more than the machine's
/// physical memory.
ClassificationData generateSyntheticLogistic(const SyntheticLogisticSpec &spec,
                                             const std::function<void(double)> &progress = {},
                                             std::stop_token stop = {});

/// Block `block` of the data generateSyntheticLogistic() makes, rows [block·kSyntheticBlockRows,
/// …) up to spec.rows, written to `features` (row-major, spec.features per row) and `labels`:
/// the same rows, bit for bit, without holding the others, for writing data larger than memory
/// as a stream (spec.rows may exceed 2³¹ here). Returns the rows written (0 past the end).
std::int64_t syntheticLogisticBlock(const SyntheticLogisticSpec &spec, std::int64_t block, float *features,
                                    std::uint8_t *labels);

/// Bytes the features and labels of `rows` × `features` take (float features, byte labels).
std::size_t syntheticLogisticBytes(std::int64_t rows, int features);

/// Checked before a tall dataset allocates its rows: an allocation larger than the machine's
/// memory would either fail deep inside Eigen or, with overcommit, succeed and swap the machine
/// to a halt. Throws std::length_error naming the dataset ("tall-logreg: 10 rows x 19 features
/// need …") when `bytes` exceed the machine's physical memory.
void requireFitsInMemory(const std::string &dataset, std::int64_t rows, int columns, const std::string &columnWord,
                         double bytes);

} // namespace core
