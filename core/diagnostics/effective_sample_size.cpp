#include "core/diagnostics/effective_sample_size.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>
#include <unsupported/Eigen/FFT>

namespace core {
namespace {

void check(const ChainDraws &chains)
{
    if (chains.empty())
        throw std::invalid_argument("diagnostics need at least one chain");
    for (const auto &chain : chains)
        if (chain.size() != chains.front().size())
            throw std::invalid_argument("diagnostics need chains of equal length");
    if (chains.front().size() < 4)
        throw std::invalid_argument("diagnostics need at least 4 draws per chain");
}

// Each chain cut into its first and second half (dropping a middle draw when odd), so that a
// trend within a chain shows up as disagreement between halves.
ChainDraws splitChains(const ChainDraws &chains)
{
    ChainDraws halves;
    const std::size_t half = chains.front().size() / 2;
    const std::size_t offset = chains.front().size() - half;
    for (const auto &chain : chains) {
        halves.emplace_back(chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(half));
        halves.emplace_back(chain.begin() + static_cast<std::ptrdiff_t>(offset), chain.end());
    }
    return halves;
}

// Replaces every draw by Φ⁻¹((rank − 3/8) / (S + 1/4)) over all draws of all chains
// (Blom's offsets, as in Vehtari et al. 2021, Eq. 14). Ties share their average rank.
ChainDraws rankNormalise(const ChainDraws &chains)
{
    std::vector<std::pair<double, std::size_t>> all;
    for (std::size_t c = 0; c < chains.size(); ++c)
        for (std::size_t t = 0; t < chains[c].size(); ++t)
            all.emplace_back(chains[c][t], c * chains[c].size() + t);
    std::sort(all.begin(), all.end());
    const double total = static_cast<double>(all.size());
    std::vector<double> z(all.size());
    const boost::math::normal standard;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].first == all[i].first)
            ++j;
        const double rank = 0.5 * static_cast<double>(i + 1 + j); // average of ranks i+1..j
        const double value = boost::math::quantile(standard, (rank - 0.375) / (total + 0.25));
        for (std::size_t k = i; k < j; ++k)
            z[all[k].second] = value;
        i = j;
    }
    ChainDraws result = chains;
    for (std::size_t c = 0; c < chains.size(); ++c)
        for (std::size_t t = 0; t < chains[c].size(); ++t)
            result[c][t] = z[c * chains[c].size() + t];
    return result;
}

double mean(const std::vector<double> &values)
{
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double variance(const std::vector<double> &values)
{
    const double m = mean(values);
    double sum = 0.0;
    for (double v : values)
        sum += (v - m) * (v - m);
    return sum / static_cast<double>(values.size() - 1);
}

double essOfSplit(const ChainDraws &split)
{
    const auto chains = static_cast<double>(split.size());
    const auto n = static_cast<double>(split.front().size());
    std::vector<std::vector<double>> rho;
    std::vector<double> means, variances;
    for (const auto &chain : split) {
        rho.push_back(autocorrelation(chain));
        means.push_back(mean(chain));
        variances.push_back(variance(chain));
    }
    const double within = mean(variances);
    const double between = n * variance(means); // split chains: always at least two halves
    const double varPlus = (n - 1.0) / n * within + between / n;
    if (!(varPlus > 0.0))
        return chains * n; // constant draws: every draw is as good as independent
    // ρ̂_t = 1 − (W − mean_c(s²_c ρ_{c,t})) / var⁺ (BDA3 Eq. 11.7, multi-chain form).
    auto combined = [&](std::size_t lag) {
        double sum = 0.0;
        for (std::size_t c = 0; c < split.size(); ++c)
            sum += variances[c] * rho[c][lag];
        return 1.0 - (within - sum / chains) / varPlus;
    };
    // Geyer: sum pairs Γ_k = ρ_{2k} + ρ_{2k+1} while positive, forced non-increasing.
    const auto maxLag = static_cast<std::size_t>(n) - 1;
    double tau = -1.0, previousPair = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; 2 * k + 1 <= maxLag; ++k) {
        double pair = combined(2 * k) + combined(2 * k + 1);
        if (!(pair > 0.0))
            break;
        pair = std::min(pair, previousPair);
        tau += 2.0 * pair;
        previousPair = pair;
    }
    const double total = chains * n;
    // τ ≥ 1/log10(total) keeps antithetic chains from claiming absurd ESS (as Stan does).
    return total / std::max(tau, 1.0 / std::log10(total));
}

} // namespace

std::vector<double> autocorrelation(const std::vector<double> &series)
{
    const std::size_t n = series.size();
    std::vector<double> rho(n, 0.0);
    if (n == 0)
        return rho;
    std::size_t size = 1;
    while (size < 2 * n)
        size <<= 1; // zero padding to ≥ 2n makes the circular correlation linear
    const double m = mean(series);
    std::vector<double> padded(size, 0.0);
    for (std::size_t t = 0; t < n; ++t)
        padded[t] = series[t] - m;
    Eigen::FFT<double> fft;
    std::vector<std::complex<double>> spectrum;
    fft.fwd(spectrum, padded);
    for (auto &value : spectrum)
        value = std::complex<double>(std::norm(value), 0.0);
    std::vector<double> covariance;
    fft.inv(covariance, spectrum);
    if (!(covariance[0] > 0.0)) {
        rho[0] = 1.0;
        return rho;
    }
    for (std::size_t t = 0; t < n; ++t)
        rho[t] = covariance[t] / covariance[0];
    return rho;
}

double effectiveSampleSize(const ChainDraws &chains)
{
    check(chains);
    return essOfSplit(splitChains(chains));
}

double bulkEffectiveSampleSize(const ChainDraws &chains)
{
    check(chains);
    return essOfSplit(rankNormalise(splitChains(chains)));
}

double splitRhat(const ChainDraws &chains)
{
    check(chains);
    const ChainDraws split = rankNormalise(splitChains(chains));
    const auto n = static_cast<double>(split.front().size());
    std::vector<double> means, variances;
    for (const auto &chain : split) {
        means.push_back(mean(chain));
        variances.push_back(variance(chain));
    }
    const double within = mean(variances);
    const double between = n * variance(means);
    if (!(within > 0.0))
        return 1.0;
    const double varPlus = (n - 1.0) / n * within + between / n;
    return std::sqrt(varPlus / within);
}

} // namespace core
