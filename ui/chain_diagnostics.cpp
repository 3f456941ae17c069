#include "ui/chain_diagnostics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/diagnostics/effective_sample_size.h"

namespace ui {
namespace {

std::vector<double> column(const core::ChainResult &chain, int component, std::int64_t rows)
{
    std::vector<double> values(static_cast<std::size_t>(rows));
    for (std::int64_t t = 0; t < rows; ++t)
        values[static_cast<std::size_t>(t)] = chain.samples(t, component);
    return values;
}

} // namespace

QVector<double> bulkEssPerComponent(const core::ChainResult &chain)
{
    QVector<double> ess;
    if (chain.completed < kMinDiagnosticDraws)
        return ess;
    for (int k = 0; k < static_cast<int>(chain.samples.cols()); ++k)
        ess.append(core::bulkEffectiveSampleSize({column(chain, k, chain.completed)}));
    return ess;
}

double maxSplitRhat(const std::vector<const core::ChainResult *> &chains)
{
    if (chains.size() < 2)
        return std::nan("");
    std::int64_t rows = std::numeric_limits<std::int64_t>::max();
    for (const auto *chain : chains)
        rows = std::min(rows, chain->completed);
    if (rows < kMinDiagnosticDraws)
        return std::nan("");
    double worst = 0.0;
    for (int k = 0; k < static_cast<int>(chains.front()->samples.cols()); ++k) {
        core::ChainDraws draws;
        for (const auto *chain : chains)
            draws.push_back(column(*chain, k, rows));
        const double rhat = core::splitRhat(draws);
        // A NaN (constant chains) must not be hidden by max().
        if (!std::isfinite(rhat))
            return rhat;
        worst = std::max(worst, rhat);
    }
    return worst;
}

} // namespace ui
