#include "core/diagnostics/rank_normalisation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include <boost/math/distributions/normal.hpp>

namespace core {
namespace {

// Φ⁻¹ depends only on the rank and S, and a run's diagnostics normalise every weight's draws at
// the same S (784 weights, three times each, for a logistic run): each thread keeps the values
// it has computed for the latest S, indexed by twice the rank (ties give half-integer ranks).
// Above 2²⁰ draws the table (16 bytes a draw) would cost more memory than it saves time.
double normalScoreOfRank(std::size_t twiceRank, std::size_t total)
{
    const auto score = [&] {
        // Double precision throughout: Boost's default promotes to long double, whose inverse
        // error function was a tenth of a 784-weight run's whole time, for digits a rank
        // cannot carry.
        using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
        const boost::math::normal_distribution<double, DoublePolicy> standard;
        const double rank = 0.5 * static_cast<double>(twiceRank);
        return boost::math::quantile(standard, (rank - 0.375) / (static_cast<double>(total) + 0.25));
    };
    constexpr std::size_t kMaxCachedDraws = std::size_t{1} << 20;
    if (total > kMaxCachedDraws)
        return score();
    thread_local std::size_t cachedTotal = 0;
    thread_local std::vector<double> scores;
    if (cachedTotal != total) {
        cachedTotal = total;
        scores.assign(2 * total + 1, std::numeric_limits<double>::quiet_NaN());
    }
    double &cached = scores[twiceRank];
    if (std::isnan(cached))
        cached = score();
    return cached;
}

// Orders (value, position) pairs by value: an LSD radix sort on the values' bits, mapped so that
// unsigned order is numeric order. A comparison sort was a tenth of a 784-weight run's time;
// this makes six linear passes at most, skipping the digits every value shares. Pairs of equal
// value may come in any order (their ranks are averaged), and −0 sorts next to +0.
void sortByValue(std::vector<std::pair<double, std::size_t>> &pairs)
{
    constexpr int kBits = 11;
    constexpr int kPasses = (64 + kBits - 1) / kBits;
    constexpr std::size_t kBuckets = std::size_t{1} << kBits;
    const auto key = [](double value) {
        const auto bits = std::bit_cast<std::uint64_t>(value);
        return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
    };
    std::vector<std::size_t> counts(kPasses * kBuckets, 0);
    for (const auto &pair : pairs) {
        const std::uint64_t k = key(pair.first);
        for (int pass = 0; pass < kPasses; ++pass)
            ++counts[pass * kBuckets + ((k >> (pass * kBits)) & (kBuckets - 1))];
    }
    std::vector<std::pair<double, std::size_t>> buffer(pairs.size());
    for (int pass = 0; pass < kPasses; ++pass) {
        std::size_t *count = counts.data() + pass * kBuckets;
        if (std::find(count, count + kBuckets, pairs.size()) != count + kBuckets)
            continue; // one digit for all: this pass would not move anything
        std::size_t offset = 0;
        for (std::size_t b = 0; b < kBuckets; ++b)
            offset += std::exchange(count[b], offset);
        for (const auto &pair : pairs)
            buffer[count[(key(pair.first) >> (pass * kBits)) & (kBuckets - 1)]++] = pair;
        pairs.swap(buffer);
    }
}

} // namespace

SortedDraws sortDraws(const ChainDraws &chains)
{
    SortedDraws sorted;
    sorted.chains = chains.size();
    sorted.length = chains.empty() ? 0 : chains.front().size();
    sorted.values.reserve(sorted.chains * sorted.length);
    for (std::size_t c = 0; c < chains.size(); ++c)
        for (std::size_t t = 0; t < chains[c].size(); ++t)
            sorted.values.emplace_back(chains[c][t], c * sorted.length + t);
    sortByValue(sorted.values);
    return sorted;
}

SortedDraws foldSorted(const SortedDraws &sorted)
{
    const auto &values = sorted.values;
    const std::size_t n = values.size();
    SortedDraws folded{.values = {}, .chains = sorted.chains, .length = sorted.length};
    if (n == 0)
        return folded;
    const double median = n % 2 == 1 ? values[n / 2].first : 0.5 * (values[n / 2 - 1].first + values[n / 2].first);
    // Below the median (indices < split) the distance falls as θ rises: walked backwards it
    // rises, as it does above. Merging the two walks orders the distances.
    const auto split = static_cast<std::size_t>(
        std::lower_bound(values.begin(), values.end(), median,
                         [](const std::pair<double, std::size_t> &pair, double m) { return pair.first < m; })
        - values.begin());
    folded.values.resize(n);
    std::size_t below = split, above = split, out = 0;
    while (below > 0 || above < n) {
        const bool takeBelow =
            above == n || (below > 0 && std::abs(values[below - 1].first - median) <= std::abs(values[above].first - median));
        const auto &pair = takeBelow ? values[--below] : values[above++];
        folded.values[out++] = {std::abs(pair.first - median), pair.second};
    }
    return folded;
}

ChainDraws normalScores(const SortedDraws &sorted)
{
    const auto &all = sorted.values;
    ChainDraws result(sorted.chains, std::vector<double>(sorted.length));
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].first == all[i].first)
            ++j;
        const double value = normalScoreOfRank(i + 1 + j, all.size()); // average of ranks i+1..j
        for (std::size_t k = i; k < j; ++k)
            result[all[k].second / sorted.length][all[k].second % sorted.length] = value;
        i = j;
    }
    return result;
}

ChainDraws rankNormalise(const ChainDraws &chains) { return normalScores(sortDraws(chains)); }

} // namespace core
