#include "core/data/synthetic_logistic_data.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "core/correction/cancelled.h"
#include "core/random/rng.h"

namespace core {
namespace {

// Block k's stream: the seed and the block index mixed through Rng's SplitMix64 seeding, so
// neighbouring blocks (and neighbouring seeds) get unrelated streams.
Rng blockStream(std::uint64_t seed, std::int64_t block)
{
    return Rng(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(block) * 0xD1B54A32D192ED03ULL + 1);
}

} // namespace

std::int64_t syntheticLogisticBlock(const SyntheticLogisticSpec &spec, std::int64_t block, float *features,
                                    std::uint8_t *labels)
{
    Rng rng = blockStream(spec.seed, block);
    const std::int64_t first = block * kSyntheticBlockRows;
    const std::int64_t last = std::min<std::int64_t>(spec.rows, first + std::int64_t{kSyntheticBlockRows});
    for (std::int64_t i = first; i < last; ++i) {
        float *row = features + (i - first) * spec.features;
        double margin = spec.bias ? 1.0 : 0.0;
        for (int j = 0; j < spec.features; ++j) {
            const float x = static_cast<float>(rng.normal());
            row[j] = x;
            margin += x; // θ* = (1, …, 1): the stored (rounded) feature is the one the model sees
        }
        // y ~ Bernoulli(σ(z)) by inversion: y = 1 iff u < σ(z), i.e. log(u / (1 − u)) < z.
        const double u = rng.uniformOpen01();
        labels[i - first] = std::log(u / (1.0 - u)) < margin ? 1 : 0;
    }
    return std::max<std::int64_t>(0, last - first);
}

namespace {

void generateBlock(ClassificationData &data, const SyntheticLogisticSpec &spec, std::int64_t block)
{
    const auto first = static_cast<DataIndex>(block * kSyntheticBlockRows);
    syntheticLogisticBlock(spec, block, data.features.row(first).data(), data.labels.data() + first);
}

} // namespace

void requireFitsInMemory(const std::string &dataset, std::int64_t rows, int columns, const std::string &columnWord,
                         double bytes)
{
    const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
    if (memory > 0.0 && bytes > memory)
        throw std::length_error(dataset + ": " + std::to_string(rows) + " rows x " + std::to_string(columns) + " "
                                + columnWord + " need " + std::to_string(static_cast<long long>(bytes / 1e9))
                                + " GB, more than this machine's " + std::to_string(static_cast<long long>(memory / 1e9))
                                + " GB of memory: use a smaller --n-data or --dimension");
}

std::size_t syntheticLogisticBytes(std::int64_t rows, int features)
{
    return static_cast<std::size_t>(rows) * (static_cast<std::size_t>(features) * sizeof(float) + 1);
}

ClassificationData generateSyntheticLogistic(const SyntheticLogisticSpec &spec,
                                             const std::function<void(double)> &progress, std::stop_token stop)
{
    if (spec.rows < 2 || spec.rows > kMaxSyntheticRows)
        throw std::invalid_argument("n-data must be in [2, 2^40] for tall-logreg; got " + std::to_string(spec.rows));
    if (spec.features < 1 || spec.features > 10'000)
        throw std::invalid_argument("tall-logreg needs 1 to 10000 feature columns (dimension minus the bias); got "
                                    + std::to_string(spec.features));
    requireFitsInMemory("tall-logreg", spec.rows, spec.features, "features",
                        static_cast<double>(syntheticLogisticBytes(spec.rows, spec.features)));

    ClassificationData data;
    data.features.resize(static_cast<Eigen::Index>(spec.rows), spec.features);
    data.labels.resize(static_cast<std::size_t>(spec.rows));
    data.classNames = {"y = 0", "y = 1"};
    data.description = "synthetic logistic regression (Cornish et al. 2019): N = " + std::to_string(spec.rows)
                       + ", " + std::to_string(spec.features) + " N(0, 1) covariates"
                       + (spec.bias ? " plus a bias" : "") + ", theta* = (1, ..., 1), seed "
                       + std::to_string(spec.seed);

    const std::int64_t blocks = (spec.rows + kSyntheticBlockRows - 1) / kSyntheticBlockRows;
    const int threads = static_cast<int>(std::clamp<std::int64_t>(
        spec.threads > 0 ? spec.threads : std::max(1u, std::thread::hardware_concurrency()), 1, blocks));
    std::atomic<std::int64_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failureMutex;
    // Every thread takes the next block until none is left; the calling thread also reports.
    auto work = [&](bool reporting) {
        try {
            for (std::int64_t block = next++; block < blocks && !failed && !stop.stop_requested(); block = next++) {
                generateBlock(data, spec, block);
                const std::int64_t finished = ++done;
                if (reporting && progress)
                    progress(static_cast<double>(finished) / static_cast<double>(blocks));
            }
        } catch (...) {
            std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            failed = true;
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (int t = 1; t < threads; ++t)
            helpers.emplace_back(work, false);
        work(true);
    } // joins the helpers
    if (failure)
        std::rethrow_exception(failure);
    if (stop.stop_requested())
        throw Cancelled("tall-logreg data generation stopped");
    return data;
}

} // namespace core
