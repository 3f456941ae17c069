#include "core/diagnostics/effective_sample_size.h"

#include "core/diagnostics/rank_normalisation.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <complex>
#include <cstddef>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

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

bool hasNan(const ChainDraws &chains)
{
    for (const auto &chain : chains)
        for (double x : chain)
            if (std::isnan(x))
                return true;
    return false;
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

// The chains' autocovariances γ_{c,t} (divisor n), computed only as far as they are asked for.
// Geyer's sequence stops after a few dozen lags on a chain that mixes, and direct sums over
// those lags cost a fraction of the two FFTs of twice the chain's length that give every lag
// (at 8,000 draws, 128 lags of direct sums cost about what the FFTs do); a chain that needs
// more lags gets the FFT's. The two agree to rounding.
class LazyAutocovariances {
public:
    explicit LazyAutocovariances(const ChainDraws &chains) : m_chains(chains), m_gamma(chains.size())
    {
        m_centred.reserve(chains.size());
        for (const auto &chain : chains) {
            const double m = mean(chain);
            std::vector<double> &x = m_centred.emplace_back(chain);
            for (double &value : x)
                value -= m;
        }
    }

    double meanAt(std::ptrdiff_t lag)
    {
        const auto t = static_cast<std::size_t>(lag);
        if (t >= m_computed)
            extendTo(t);
        double sum = 0.0;
        for (const auto &g : m_gamma)
            sum += g[t];
        return sum / static_cast<double>(m_gamma.size());
    }

private:
    static constexpr std::size_t kDirectLags = 128;
    static constexpr std::size_t kBlock = 16;

    void extendTo(std::size_t lag)
    {
        const std::size_t n = m_chains.front().size();
        if (lag >= kDirectLags) {
            for (std::size_t c = 0; c < m_chains.size(); ++c)
                m_gamma[c] = autocovariance(m_chains[c]);
            m_computed = n;
            return;
        }
        const std::size_t next = std::min(n, std::max(lag + 1, m_computed + kBlock));
        double sums[kBlock];
        for (std::size_t c = 0; c < m_chains.size(); ++c) {
            m_gamma[c].resize(next);
            for (std::size_t first = m_computed; first < next; first += kBlock) {
                const std::size_t count = std::min(kBlock, next - first);
                laggedProducts(m_centred[c], first, count, sums);
                for (std::size_t k = 0; k < count; ++k)
                    m_gamma[c][first + k] = sums[k] / static_cast<double>(n);
            }
        }
        m_computed = next;
    }

    // Σ_i x_i x_{i+t} for the lags t = first … first + count − 1 (count ≤ kBlock), in one pass
    // over x: each x_i meets the block's kBlock partners side by side (fixed-size arrays, held in
    // vector registers), and every lag keeps two sums (even and odd i) added in a fixed order.
    // A library dot product would choose its order by where the vectors lie in memory, and two
    // runs of the same chain would then differ in the last bits.
    static void laggedProducts(const std::vector<double> &x, std::size_t first, std::size_t count, double *out)
    {
        const std::size_t n = x.size();
        const double *data = x.data();
        using Block = Eigen::Array<double, static_cast<int>(kBlock), 1>;
        Block even = Block::Zero(), odd = Block::Zero();
        // Rows whose whole block of partners lies inside x.
        const std::size_t full = n > first + kBlock - 1 ? n - (first + kBlock - 1) : 0;
        std::size_t i = 0;
        for (; i + 2 <= full; i += 2) {
            even += data[i] * Eigen::Map<const Block>(data + i + first);
            odd += data[i + 1] * Eigen::Map<const Block>(data + i + 1 + first);
        }
        for (std::size_t k = 0; k < count; ++k) {
            double tail = 0.0;
            for (std::size_t j = i; j + first + k < n; ++j)
                tail += data[j] * data[j + first + k];
            out[k] = (even[static_cast<Eigen::Index>(k)] + odd[static_cast<Eigen::Index>(k)]) + tail;
        }
    }

    const ChainDraws &m_chains;
    std::vector<std::vector<double>> m_centred;
    std::vector<std::vector<double>> m_gamma;
    std::size_t m_computed = 0;
};

// ESS of chains that are already split (and transformed, if at all): Vehtari et al. Eq. 10–13.
double essOfSplit(const ChainDraws &split)
{
    if (hasNan(split))
        return std::nan("");
    const auto chains = static_cast<double>(split.size());
    const auto length = static_cast<std::ptrdiff_t>(split.front().size());
    const auto n = static_cast<double>(length);
    const double total = chains * n;
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    for (const auto &chain : split) { // no NaN here: vector min and max
        const Eigen::Map<const Eigen::ArrayXd> values(chain.data(), static_cast<Eigen::Index>(chain.size()));
        lowest = std::min(lowest, values.minCoeff());
        highest = std::max(highest, values.maxCoeff());
    }
    if (highest - lowest < 1e-15)
        return total; // constant draws: every draw is as good as independent

    LazyAutocovariances gamma(split);
    std::vector<double> means;
    for (const auto &chain : split)
        means.push_back(mean(chain));
    auto meanGamma = [&](std::ptrdiff_t lag) { return gamma.meanAt(lag); };
    const double within = meanGamma(0) * n / (n - 1.0); // W: mean of the chains' s²
    double varPlus = within * (n - 1.0) / n;
    if (split.size() > 1)
        varPlus += variance(means);
    // ρ̂_t = 1 − (W − mean_c γ_{c,t}) / var⁺ (Vehtari et al. Eq. 10).
    auto rhoAt = [&](std::ptrdiff_t lag) { return 1.0 - (within - meanGamma(lag)) / varPlus; };

    double tau = truncatedAutocorrelationTime(rhoAt, length);
    if (std::isnan(tau))
        return std::nan("");
    // τ̂ ≥ 1/log10(S) keeps antithetic chains from claiming an unbounded ESS.
    tau = std::max(tau, 1.0 / std::log10(total));
    return total / tau;
}

// Classic R-hat of split (and transformed) chains: sqrt(var⁺ / W) (Vehtari et al. Eq. 3–4).
double rhatOfSplit(const ChainDraws &split)
{
    const auto n = static_cast<double>(split.front().size());
    std::vector<double> means, variances;
    for (const auto &chain : split) {
        means.push_back(mean(chain));
        variances.push_back(variance(chain));
    }
    const double within = mean(variances);
    const double between = n * variance(means); // split chains: always at least two halves
    if (!(within > 0.0))
        return 1.0; // every draw tied: nothing disagrees
    return std::sqrt((between / within + n - 1.0) / n);
}

ChainDraws indicatorBelow(const ChainDraws &chains, double threshold)
{
    ChainDraws indicator = chains;
    for (auto &chain : indicator)
        for (double &x : chain)
            x = x <= threshold ? 1.0 : 0.0;
    return indicator;
}

} // namespace

double truncatedAutocorrelationTime(const std::function<double(std::ptrdiff_t)> &rhoAt, std::ptrdiff_t length)
{
    std::vector<double> rho(static_cast<std::size_t>(length), 0.0);
    auto at = [&](std::ptrdiff_t lag) -> double & { return rho[static_cast<std::size_t>(lag)]; };
    at(0) = 1.0;
    at(1) = rhoAt(1);
    // Initial positive sequence: pairs (ρ̂_{2k}, ρ̂_{2k+1}) are taken while the previous pair's
    // sum is positive; a pair with a negative sum is evaluated but not kept.
    double even = at(0), odd = at(1);
    std::ptrdiff_t t = 1;
    while (t < length - 3 && even + odd > 0.0) {
        even = rhoAt(t + 1);
        odd = rhoAt(t + 2);
        if (even + odd >= 0.0) {
            at(t + 1) = even;
            at(t + 2) = odd;
        }
        t += 2;
    }
    const std::ptrdiff_t last = t - 2; // last lag summed twice; −1 when no pair was examined
    // The even term of the first rejected pair still carries positive correlation.
    if (even > 0.0)
        at(last + 1) = even;
    // Initial monotone sequence: no pair sum may exceed the one before it.
    for (std::ptrdiff_t k = 1; k <= last - 2; k += 2) {
        const double previous = at(k - 1) + at(k);
        if (at(k + 1) + at(k + 2) > previous)
            at(k + 1) = at(k + 2) = previous / 2.0;
    }
    double tau = -1.0;
    for (std::ptrdiff_t k = 0; k <= last; ++k)
        tau += 2.0 * at(k);
    if (last + 1 < length)
        tau += at(last + 1);
    for (double r : rho)
        if (std::isnan(r))
            return std::nan("");
    return tau;
}

std::vector<double> autocovariance(const std::vector<double> &series)
{
    const std::size_t n = series.size();
    if (n == 0)
        return {};
    std::size_t size = 1;
    while (size < 2 * n)
        size <<= 1; // zero padding to ≥ 2n makes the circular correlation linear
    const double m = mean(series);
    std::vector<double> padded(size, 0.0);
    for (std::size_t t = 0; t < n; ++t)
        padded[t] = series[t] - m;
    // One transform object per thread: it keeps its plans (twiddle factors) between calls, and
    // a run's diagnostics transform every weight's draws at the same length.
    thread_local Eigen::FFT<double> fft;
    std::vector<std::complex<double>> spectrum;
    fft.fwd(spectrum, padded);
    for (auto &value : spectrum)
        value = std::complex<double>(std::norm(value), 0.0);
    std::vector<double> covariance;
    fft.inv(covariance, spectrum);
    covariance.resize(n);
    for (double &c : covariance)
        c /= static_cast<double>(n);
    return covariance;
}

std::vector<double> autocorrelation(const std::vector<double> &series)
{
    const std::vector<double> gamma = autocovariance(series);
    std::vector<double> rho(gamma.size(), 0.0);
    if (rho.empty())
        return rho;
    rho[0] = 1.0;
    if (gamma[0] > 0.0)
        for (std::size_t t = 1; t < gamma.size(); ++t)
            rho[t] = gamma[t] / gamma[0];
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
    if (hasNan(chains))
        return std::nan("");
    return essOfSplit(rankNormalise(splitChains(chains)));
}

double quantileEffectiveSampleSize(const ChainDraws &chains, double prob)
{
    if (!(prob > 0.0 && prob < 1.0))
        throw std::domain_error("quantile ESS: prob must lie in (0, 1), got " + std::to_string(prob));
    check(chains);
    if (hasNan(chains))
        return std::nan("");
    return essOfSplit(splitChains(indicatorBelow(chains, pooledQuantile(chains, prob))));
}

double tailEffectiveSampleSize(const ChainDraws &chains)
{
    return std::min(quantileEffectiveSampleSize(chains, 0.05), quantileEffectiveSampleSize(chains, 0.95));
}

double splitRhat(const ChainDraws &chains)
{
    check(chains);
    if (hasNan(chains))
        return std::nan("");
    return bulkEssAndSplitRhat(chains).splitRhat;
}

BulkDiagnostics bulkEssAndSplitRhat(const ChainDraws &chains)
{
    check(chains);
    if (hasNan(chains))
        return {std::nan(""), std::nan("")};
    const SortedDraws sorted = sortDraws(splitChains(chains));
    const ChainDraws ranked = normalScores(sorted);
    return {.bulkEss = essOfSplit(ranked),
            .splitRhat = std::max(rhatOfSplit(ranked), rhatOfSplit(normalScores(foldSorted(sorted))))};
}

double pooledQuantile(const ChainDraws &chains, double prob)
{
    if (!(prob >= 0.0 && prob <= 1.0))
        throw std::domain_error("quantile: prob must lie in [0, 1], got " + std::to_string(prob));
    std::vector<double> all;
    for (const auto &chain : chains)
        all.insert(all.end(), chain.begin(), chain.end());
    if (all.empty())
        throw std::invalid_argument("quantile: no draws");
    std::sort(all.begin(), all.end());
    const auto n = static_cast<double>(all.size());
    if (all.size() == 1)
        return all.front();
    // Type 7 written as the position h = n·p + (1 − p) among 1-based order statistics,
    // interpolating between x_(⌊h⌋) and x_(⌊h⌋+1); this form gives bit-identical results to
    // the common reference implementations, which matters for the tail-ESS indicator on ties.
    const double h = n * prob + (1.0 - prob);
    const double k = std::floor(std::clamp(h, 1.0, n - 1.0));
    const double weight = std::clamp(h - k, 0.0, 1.0);
    const auto index = static_cast<std::size_t>(k);
    return (1.0 - weight) * all[index - 1] + weight * all[index];
}

} // namespace core
