#include "core/diagnostics/chain_convergence.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

std::int64_t finalSegmentRows(const ChainResult &chain)
{
    return std::max<std::int64_t>(0, chain.completed - chain.finalSegmentStart());
}

} // namespace

double samplerBulkEss(const ChainDraws &draws)
{
    bool moved = false;
    for (const std::vector<double> &chain : draws)
        moved = moved || std::any_of(chain.begin(), chain.end(), [&](double x) { return x != chain.front(); });
    return moved ? bulkEffectiveSampleSize(draws) : 0.0;
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
    std::vector<double> ess;
    if (finalSegmentRows(chain) < kMinDiagnosticDraws)
        return ess;
    for (int k : components)
        ess.push_back(samplerBulkEss({column(chain, k, chain.finalSegmentStart(), chain.completed)}));
    return ess;
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
    double worst = 0.0;
    for (int k = 0; k < static_cast<int>(chains.front()->samples.cols()); ++k) {
        ChainDraws draws;
        for (const ChainResult *chain : chains)
            draws.push_back(column(*chain, k, chain->completed - rows, chain->completed));
        const double rhat = splitRhat(draws);
        // A NaN (constant chains) must not be hidden by max().
        if (!std::isfinite(rhat))
            return rhat;
        worst = std::max(worst, rhat);
    }
    return worst;
}

} // namespace core
