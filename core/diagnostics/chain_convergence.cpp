#include "core/diagnostics/chain_convergence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "core/diagnostics/effective_sample_size.h"

namespace core {
namespace {

std::vector<double> column(const ChainResult &chain, int component, std::int64_t first, std::int64_t last)
{
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(last - first));
    for (std::int64_t t = first; t < last; ++t)
        values.push_back(chain.samples(t, component));
    return values;
}

// Calls work(k) for k in [0, count), on every core when there is enough of it to pay for the
// threads; each k writes only its own results.
template <class Work>
void forEachComponent(int count, const Work &work)
{
    const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, count / 16 + 1);
    std::vector<std::jthread> helpers;
    for (int t = 1; t < threads; ++t)
        helpers.emplace_back([&, t] {
            for (int k = t; k < count; k += threads)
                work(k);
        });
    for (int k = 0; k < count; k += threads)
        work(k);
}

std::int64_t finalSegmentRows(const ChainResult &chain)
{
    return std::max<std::int64_t>(0, chain.completed - chain.finalSegmentStart());
}

bool moved(const ChainDraws &draws)
{
    return std::any_of(draws.begin(), draws.end(), [](const std::vector<double> &chain) {
        return std::any_of(chain.begin(), chain.end(), [&](double x) { return x != chain.front(); });
    });
}

// The largest R-hat, or the first that is not finite (constant chains): max() must not hide a NaN.
double worstRhat(const std::vector<double> &rhats)
{
    double worst = 0.0;
    for (double rhat : rhats) {
        if (!std::isfinite(rhat))
            return rhat;
        worst = std::max(worst, rhat);
    }
    return worst;
}

} // namespace

double samplerBulkEss(const ChainDraws &draws)
{
    return moved(draws) ? bulkEffectiveSampleSize(draws) : 0.0;
}

ChainDiagnostics finalSegmentDiagnostics(const ChainResult &chain)
{
    const std::int64_t rows = finalSegmentRows(chain);
    if (rows < kMinDiagnosticDraws)
        return {.bulkEss = {}, .maxSplitRhat = std::nan("")};
    return pooledDiagnostics({&chain}, rows); // one chain's last rows: its final segment
}

std::vector<double> bulkEssPerComponent(const ChainResult &chain)
{
    std::vector<int> all(static_cast<std::size_t>(chain.samples.cols()));
    for (std::size_t k = 0; k < all.size(); ++k)
        all[k] = static_cast<int>(k);
    return bulkEssPerComponent(chain, all);
}

std::vector<double> bulkEssPerComponent(const ChainResult &chain, const std::vector<int> &components)
{
    if (finalSegmentRows(chain) < kMinDiagnosticDraws)
        return {};
    std::vector<double> ess(components.size());
    forEachComponent(static_cast<int>(components.size()), [&](int i) {
        const int k = components[static_cast<std::size_t>(i)];
        ess[static_cast<std::size_t>(i)] = samplerBulkEss({column(chain, k, chain.finalSegmentStart(), chain.completed)});
    });
    return ess;
}

ComponentMoments finalSegmentMoments(const ChainResult &chain)
{
    ComponentMoments moments;
    const std::int64_t rows = finalSegmentRows(chain);
    if (rows < kMinDiagnosticDraws)
        return moments;
    const auto block = chain.samples.middleRows(static_cast<Eigen::Index>(chain.finalSegmentStart()),
                                                static_cast<Eigen::Index>(rows));
    const Eigen::RowVectorXd mean = block.colwise().mean();
    const Eigen::RowVectorXd variance =
        (block.rowwise() - mean).array().square().colwise().sum() / static_cast<double>(rows - 1);
    moments.mean.assign(mean.data(), mean.data() + mean.size());
    moments.sd.resize(moments.mean.size());
    for (std::size_t k = 0; k < moments.sd.size(); ++k)
        moments.sd[k] = std::sqrt(variance[static_cast<Eigen::Index>(k)]);
    moments.rows = rows;
    return moments;
}

std::vector<double> pooledBulkEssPerComponent(const std::vector<const ChainResult *> &chains, std::int64_t rows)
{
    if (chains.empty())
        return {};
    std::vector<double> ess(static_cast<std::size_t>(chains.front()->samples.cols()));
    forEachComponent(static_cast<int>(ess.size()), [&](int k) {
        ChainDraws draws;
        for (const ChainResult *chain : chains)
            draws.push_back(column(*chain, k, chain->completed - rows, chain->completed));
        ess[static_cast<std::size_t>(k)] = samplerBulkEss(draws);
    });
    return ess;
}

ChainDiagnostics pooledDiagnostics(const std::vector<const ChainResult *> &chains, std::int64_t rows)
{
    ChainDiagnostics diagnostics{.bulkEss = {}, .maxSplitRhat = std::nan("")};
    if (chains.empty())
        return diagnostics;
    const int dimension = static_cast<int>(chains.front()->samples.cols());
    diagnostics.bulkEss.resize(static_cast<std::size_t>(dimension));
    std::vector<double> rhats(static_cast<std::size_t>(dimension));
    forEachComponent(dimension, [&](int k) {
        ChainDraws draws;
        for (const ChainResult *chain : chains)
            draws.push_back(column(*chain, k, chain->completed - rows, chain->completed));
        const BulkDiagnostics both = bulkEssAndSplitRhat(draws);
        diagnostics.bulkEss[static_cast<std::size_t>(k)] = moved(draws) ? both.bulkEss : 0.0;
        rhats[static_cast<std::size_t>(k)] = both.splitRhat;
    });
    diagnostics.maxSplitRhat = worstRhat(rhats);
    return diagnostics;
}

double maxSplitRhat(const std::vector<const ChainResult *> &chains)
{
    if (chains.empty())
        return std::nan("");
    std::int64_t rows = std::numeric_limits<std::int64_t>::max();
    for (const ChainResult *chain : chains) {
        rows = std::min(rows, finalSegmentRows(*chain));
        if (!chain->segments.empty() && !chains.front()->segments.empty()
            && chain->segments.back().temperature != chains.front()->segments.back().temperature)
            return std::nan(""); // different targets: R-hat would only say so
    }
    if (rows < kMinDiagnosticDraws)
        return std::nan("");
    const int dimension = static_cast<int>(chains.front()->samples.cols());
    std::vector<double> rhats(static_cast<std::size_t>(dimension));
    forEachComponent(dimension, [&](int k) {
        ChainDraws draws;
        for (const ChainResult *chain : chains)
            draws.push_back(column(*chain, k, chain->completed - rows, chain->completed));
        rhats[static_cast<std::size_t>(k)] = splitRhat(draws);
    });
    return worstRhat(rhats);
}

} // namespace core
