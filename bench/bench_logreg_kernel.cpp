// Throughput of the logistic-regression minibatch kernel (the hot loop of the MNIST experiment,
// Seita et al. Sec. 6.2): data points per second for b random rows of d = 784 features, the
// vectorised model against a plain scalar loop, next to the machine's streaming read bandwidth
// measured in the same program.
//
// usage: bench_logreg_kernel [seconds per measurement, default 1]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/models/logistic_regression_model.h"
#include "core/random/rng.h"

using namespace core;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kFeatures = 784;
constexpr int kBatch = 100;
constexpr int kBatchPool = 4096; // distinct random batches, cycled

volatile double g_sink = 0.0; // keeps results alive

// Calls step() until `seconds` have passed; returns calls per second.
template <typename Step>
double rate(double seconds, Step step)
{
    step(); // warm up
    std::int64_t calls = 0;
    const auto start = Clock::now();
    double elapsed = 0.0;
    do {
        for (int k = 0; k < 16; ++k)
            step();
        calls += 16;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    return static_cast<double>(calls) / elapsed;
}

std::shared_ptr<ClassificationData> randomImages(DataIndex n, std::uint64_t seed)
{
    Rng rng(seed);
    auto data = std::make_shared<ClassificationData>();
    data->features.resize(n, kFeatures);
    data->labels.resize(static_cast<std::size_t>(n));
    // Pixel-like values k/255, a third of them zero as in digit images.
    for (DataIndex i = 0; i < n; ++i) {
        float *row = data->features.row(i).data();
        for (int j = 0; j < kFeatures; ++j)
            row[j] = rng.uniformIndex(3) == 0 ? 0.0f : static_cast<float>(rng.uniformIndex(256)) / 255.0f;
        data->labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(rng.uniformIndex(2));
    }
    return data;
}

// The straightforward loop a first implementation would write: one row at a time, two
// sequential double dot products, then log1p/exp per point.
void scalarRatios(const ClassificationData &data, const Vector &from, const Vector &to,
                  const DataIndex *rows, int count, double *out)
{
    for (int k = 0; k < count; ++k) {
        const float *x = data.features.row(rows[k]).data();
        double z0 = 0.0, z1 = 0.0;
        for (int j = 0; j < kFeatures; ++j) {
            z0 += static_cast<double>(x[j]) * from[j];
            z1 += static_cast<double>(x[j]) * to[j];
        }
        const double s = data.labels[static_cast<std::size_t>(rows[k])] ? 1.0 : -1.0;
        out[k] = LogisticRegressionModel::logSigmoid(s * z1) - LogisticRegressionModel::logSigmoid(s * z0);
    }
}

// Best of several passes of a vectorised sum over `bytes` of floats: the read bandwidth a
// streaming kernel can reach on this machine (GB/s).
double streamingBandwidth(std::size_t bytes)
{
    const std::size_t n = bytes / sizeof(float);
    std::vector<float> big(n);
    for (std::size_t i = 0; i < n; ++i)
        big[i] = static_cast<float>(i & 1023);
    double best = 0.0;
    for (int pass = 0; pass < 5; ++pass) {
        const auto start = Clock::now();
        const float sum = Eigen::Map<const Eigen::ArrayXf>(big.data(), static_cast<Eigen::Index>(n)).sum();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        g_sink = g_sink + sum;
        best = std::max(best, static_cast<double>(bytes) / seconds / 1e9);
    }
    return best;
}

// Rows per second of merely reading (summing) the same random rows, next row prefetched:
// the ceiling for any kernel that must touch b random rows of this matrix.
double randomRowReads(const ClassificationData &data, const std::vector<DataIndex> &pool, double seconds)
{
    const float *base = data.features.data();
    std::size_t next = 0;
    return rate(seconds, [&] {
        float sum = 0.0f;
        for (int k = 0; k < kBatch; ++k, next = (next + 1) % pool.size()) {
            const char *ahead = reinterpret_cast<const char *>(base + static_cast<std::size_t>(pool[(next + 1) % pool.size()]) * kFeatures);
            for (int offset = 0; offset < kFeatures * 4; offset += 64)
                __builtin_prefetch(ahead + offset, 0, 3);
            sum += Eigen::Map<const Eigen::ArrayXf>(base + static_cast<std::size_t>(pool[next]) * kFeatures, kFeatures).sum();
        }
        g_sink = g_sink + sum;
    }) * kBatch;
}

} // namespace

int main(int argc, char **argv)
{
    const double seconds = argc > 1 ? std::max(0.05, std::atof(argv[1])) : 1.0;
    std::printf("logistic-regression minibatch kernel: d = %d features (float), b = %d random rows\n", kFeatures, kBatch);
    const double bandwidth = streamingBandwidth(std::size_t{1} << 30);
    std::printf("streaming read bandwidth (1 GiB, best of 5): %.1f GB/s = %.2e rows/s of %d bytes\n\n", bandwidth,
                bandwidth * 1e9 / (kFeatures * 4.0), kFeatures * 4);

    std::printf("%8s %8s | %15s %13s %8s | %9s %7s | %15s %7s | %14s\n", "N", "data MB", "vectorised pt/s",
                "scalar pt/s", "speedup", "vec GB/s", "of bw", "row-read pt/s", "reached", "full pass pt/s");
    for (const DataIndex n : {DataIndex{12'000}, DataIndex{100'000}}) {
        const auto data = randomImages(n, 42);
        const LogisticRegressionModel model(data);
        Rng rng(7);
        Vector from(kFeatures), to(kFeatures);
        for (int j = 0; j < kFeatures; ++j) {
            from[j] = 0.05 * rng.normal();
            to[j] = from[j] + 0.01 * rng.normal();
        }
        std::vector<DataIndex> pool(static_cast<std::size_t>(kBatchPool) * kBatch);
        for (auto &row : pool)
            row = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));
        std::vector<double> out(kBatch), reference(kBatch);

        int next = 0;
        const double vectorised = rate(seconds, [&] {
            const DataIndex *rows = pool.data() + static_cast<std::size_t>(next) * kBatch;
            next = (next + 1) % kBatchPool;
            model.logLikelihoodRatios(from, to, std::span<const DataIndex>(rows, kBatch), out);
            g_sink = g_sink + out[0];
        }) * kBatch;
        next = 0;
        const double scalar = rate(seconds, [&] {
            const DataIndex *rows = pool.data() + static_cast<std::size_t>(next) * kBatch;
            next = (next + 1) % kBatchPool;
            scalarRatios(*data, from, to, rows, kBatch, reference.data());
            g_sink = g_sink + reference[0];
        }) * kBatch;
        // Same rows through both paths: they must agree before their speeds mean anything.
        model.logLikelihoodRatios(from, to, std::span<const DataIndex>(pool.data(), kBatch), out);
        scalarRatios(*data, from, to, pool.data(), kBatch, reference.data());
        double worst = 0.0;
        for (int k = 0; k < kBatch; ++k)
            worst = std::max(worst, std::abs(out[static_cast<std::size_t>(k)] - reference[static_cast<std::size_t>(k)]));
        const double fullPass = rate(seconds, [&] { g_sink = g_sink + model.logLikelihoodSum(from); }) * n;
        const double ceiling = randomRowReads(*data, pool, seconds);

        const double megabytes = static_cast<double>(n) * kFeatures * 4.0 / 1e6;
        const double gbPerSecond = vectorised * kFeatures * 4.0 / 1e9;
        std::printf("%8lld %8.0f | %15.3e %13.3e %7.1fx | %9.1f %6.0f%% | %15.3e %6.0f%% | %14.3e   (max |diff| %.1e)\n",
                    static_cast<long long>(n),
                    megabytes, vectorised, scalar, vectorised / scalar, gbPerSecond, 100.0 * gbPerSecond / bandwidth,
                    ceiling, 100.0 * vectorised / ceiling, fullPass, worst);
    }
    std::printf("\npt/s: data points whose log-likelihood ratio is computed per second (both θ and θ').\n"
                "vec GB/s: feature bytes the vectorised kernel reads per second; 'of bw' compares it with the\n"
                "streaming bandwidth above. row-read pt/s: merely summing the same random rows (next row\n"
                "prefetched), the ceiling for this access pattern; 'reached' is the kernel's share of it.\n"
                "full pass: logLikelihoodSum over all N rows in order (the full-data tests' cost per point).\n");
    return 0;
}
