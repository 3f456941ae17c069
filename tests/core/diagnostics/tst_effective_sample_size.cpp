// ESS and split R-hat against chains with known autocorrelation: AR(1) x_t = φ x_{t−1} + e_t
// has ρ_k = φ^k and ESS/n = (1 − φ)/(1 + φ).
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>

#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/diagnostics/rank_normalisation.h"
#include "core/random/rng.h"
#include "tests/support/nearly_equal.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

ChainDraws ar1Chains(int chains, int length, double phi, std::uint64_t seed, double shiftLast = 0.0)
{
    Rng rng(seed);
    ChainDraws draws(static_cast<std::size_t>(chains));
    const double innovation = std::sqrt(1.0 - phi * phi); // stationary variance 1
    for (int c = 0; c < chains; ++c) {
        double x = rng.normal(); // start in the stationary law: no burn-in needed
        auto &chain = draws[static_cast<std::size_t>(c)];
        for (int t = 0; t < length; ++t) {
            x = phi * x + innovation * rng.normal();
            chain.push_back(x + (c == chains - 1 ? shiftLast : 0.0));
        }
    }
    return draws;
}

} // namespace

BOOST_AUTO_TEST_CASE(autocorrelationOfAr1)
{
    const auto chains = ar1Chains(1, 200000, 0.8, 1);
    const auto rho = autocorrelation(chains[0]);
    BOOST_TEST(testcheck::nearlyEqual(rho[0], 1.0));
    for (int k = 1; k <= 5; ++k)
        BOOST_TEST(std::abs(rho[static_cast<std::size_t>(k)] - std::pow(0.8, k)) < 0.02,
                   "lag " << k << ": " << rho[static_cast<std::size_t>(k)]);
}

struct PhiRow {
    std::string name;
    double phi;
};
std::ostream &operator<<(std::ostream &out, const PhiRow &row) { return out << row.name; }

const std::vector<PhiRow> kPhiRows = {{"independent", 0.0}, {"phi=0.5", 0.5}, {"phi=0.9", 0.9}, {"phi=0.97", 0.97}};

// Over 16 independent replicates of 4 chains × 50,000 draws, ESS/expected − 1 is checked
// against fixed bounds per φ, not against the replicates' own spread (which a noisier estimator
// would widen): the sd of one estimate, measured at 0.6 % for φ = 0, 1.3 % at 0.5, 3.1 % at 0.9
// and 4.6 % at 0.97, is allowed 1.5 times that (`sdOfOne`); the replicates' mean must lie within
// 4.9 of the standard errors that allowance implies plus 2 % for the estimator's truncation bias
// (Geyer's initial monotone sequence stops early on a decaying ρ_k; measured −0.5 % to −2.9 %),
// and each replicate within 4.9 allowed sds plus the same 2 %. So a mean ESS wrong by more than
// about 3 % (φ = 0), 4.4 % (0.5), 7.7 % (0.9) or 10.5 % (0.97) is caught, where one estimate was
// allowed ±15 %.
BOOST_DATA_TEST_CASE(essOfAr1, data::make(kPhiRows), row)
{
    const double phi = row.phi;
    const int chains = 4, length = 50000, replicates = 16;
    const double expected = chains * length * (1.0 - phi) / (1.0 + phi);
    const double measuredSd = phi == 0.0 ? 0.006 : phi == 0.5 ? 0.013 : phi == 0.9 ? 0.031 : 0.046;
    const double sdOfOne = 1.5 * measuredSd;
    for (const bool bulk : {false, true}) {
        std::vector<double> errors;
        for (int r = 0; r < replicates; ++r) {
            const auto draws = ar1Chains(chains, length, phi, 7 + 31 * static_cast<std::uint64_t>(r));
            errors.push_back((bulk ? bulkEffectiveSampleSize(draws) : effectiveSampleSize(draws)) / expected - 1.0);
        }
        double mean = 0.0, square = 0.0;
        for (double e : errors)
            mean += e / replicates;
        for (double e : errors)
            square += (e - mean) * (e - mean) / (replicates - 1);
        const double sd = std::sqrt(square);
        BOOST_TEST_MESSAGE(row.name << (bulk ? " bulk" : "") << ": mean relative error " << mean << ", sd of one "
                                    << sd << " (allowed " << sdOfOne << ")");
        BOOST_TEST(std::abs(mean) <= 4.9 * sdOfOne / std::sqrt(static_cast<double>(replicates)) + 0.02,
                   row.name << (bulk ? " bulk" : "") << ": mean ESS/expected − 1 = " << mean);
        for (double e : errors)
            BOOST_TEST(std::abs(e) <= 4.9 * sdOfOne + 0.02, row.name << ": one estimate off by " << e);
        BOOST_TEST(sd <= sdOfOne, row.name << ": the estimates spread by " << sd);
    }
}

// The between-chain term, pinned: four chains of independent N(0, 1) draws, the last shifted by
// δ = 0.5. In the limit of long chains the rank-normalised split R-hat (Vehtari et al. 2021,
// Sec. 4.2) is a population quantity: the pooled law F = ¾Φ(x) + ¼Φ(x − δ), the normal scores
// z = Φ⁻¹(F(x)), six halves with the z-mean and variance of X ~ N(0, 1) and two with those of
// X + δ, and R̂ = √((W + B/n)/W) with W the mean within-half variance and B/n the variance (m − 1
// denominator) of the eight half means; the folded draws |x − median| give a smaller value. It is
// integrated here (Simpson, 20,001 points): 1.0264. The estimate from 4 × 100,000 draws must
// match it within 0.002 (about 5 of its standard errors, about 4e-4, each half mean being known
// to ±0.0045). An R-hat without its between term (1 here) is off by 0.026; one over whole chains
// instead of halves (4 means, B/n ≈ 0.060 against 0.051) gives about 1.0308, off by 0.004.
BOOST_AUTO_TEST_CASE(rhatOfAShiftedChainMatchesItsPopulationValue)
{
    const double delta = 0.5;
    const boost::math::normal standard;
    const auto pooledCdf = [&](double x) { return 0.75 * boost::math::cdf(standard, x) + 0.25 * boost::math::cdf(standard, x - delta); };
    // E[g(X + shift)] for X ~ N(0, 1), by Simpson on ±10.
    const auto expectation = [&](auto g, double shift) {
        const int n = 20000;
        const double a = -10.0, h = 20.0 / n;
        double total = 0.0;
        for (int k = 0; k <= n; ++k) {
            const double x = a + k * h;
            const double w = (k == 0 || k == n) ? 1.0 : (k % 2 ? 4.0 : 2.0);
            total += w * g(x + shift) * boost::math::pdf(standard, x);
        }
        return total * h / 3.0;
    };
    const auto score = [&](double x) {
        const double u = std::clamp(pooledCdf(x), 1e-300, 1.0 - 1e-16);
        return boost::math::quantile(standard, u);
    };
    const double mean0 = expectation(score, 0.0), mean1 = expectation(score, delta);
    const double var0 = expectation([&](double x) { return std::pow(score(x) - mean0, 2); }, 0.0);
    const double var1 = expectation([&](double x) { return std::pow(score(x) - mean1, 2); }, delta);
    const double grand = (6.0 * mean0 + 2.0 * mean1) / 8.0;
    const double between = (6.0 * std::pow(mean0 - grand, 2) + 2.0 * std::pow(mean1 - grand, 2)) / 7.0;
    const double within = (6.0 * var0 + 2.0 * var1) / 8.0;
    const double population = std::sqrt((within + between) / within);

    ChainDraws draws(4);
    Rng rng(91);
    for (std::size_t c = 0; c < draws.size(); ++c)
        for (int t = 0; t < 100000; ++t)
            draws[c].push_back(rng.normal() + (c == 3 ? delta : 0.0));
    const double estimate = splitRhat(draws);
    BOOST_TEST_MESSAGE("shifted chain: split R-hat " << estimate << ", population value " << population);
    BOOST_TEST(population > 1.02); // a between term the check must resolve
    BOOST_TEST(std::abs(estimate - population) < 0.002, "split R-hat " << estimate << " vs " << population);
}

BOOST_AUTO_TEST_CASE(rhatSeparatesAgreeingFromDisagreeingChains)
{
    const double agreeing = splitRhat(ar1Chains(4, 20000, 0.9, 3));
    const double disagreeing = splitRhat(ar1Chains(4, 20000, 0.9, 3, 2.0));
    BOOST_TEST(agreeing < 1.01, agreeing);
    BOOST_TEST(disagreeing > 1.1, disagreeing);
    // A trend inside one chain shows through the split halves.
    ChainDraws trend(1);
    for (int t = 0; t < 4000; ++t)
        trend[0].push_back(t / 1000.0);
    BOOST_TEST(splitRhat(trend) > 1.5);
}

// A retuned chain: the first segment is a far-off constant drift, the final one AR(1).
// The wrappers must look at the final segment only.
BOOST_AUTO_TEST_CASE(chainWrappersUseTheFinalSegment)
{
    const int before = 20000, length = 20000;
    std::vector<ChainResult> chains(3);
    for (std::size_t c = 0; c < chains.size(); ++c) {
        const auto ar = ar1Chains(1, length, 0.5, 40 + c)[0];
        ChainResult &chain = chains[c];
        chain.samples.resize(before + length, 1);
        for (int t = 0; t < before; ++t)
            chain.samples(t, 0) = 50.0 + t * (1.0 + static_cast<double>(c));
        for (int t = 0; t < length; ++t)
            chain.samples(before + t, 0) = ar[static_cast<std::size_t>(t)];
        chain.completed = before + length;
        chain.segments = {{0, 1.0, 0.1}, {before, 2.0, 0.1}};
    }
    const std::vector<double> ess = bulkEssPerComponent(chains[0]);
    BOOST_TEST_REQUIRE(ess.size() == std::size_t(1));
    const double expected = length / 3.0; // (1 − φ)/(1 + φ) at φ = 0.5
    BOOST_TEST(std::abs(ess[0] / expected - 1.0) < 0.15, ess[0]);
    const double rhat = maxSplitRhat({&chains[0], &chains[1], &chains[2]});
    BOOST_TEST(rhat < 1.01, rhat);
    // Over the whole chains the drift dominates and R-hat is far from 1.
    for (ChainResult &chain : chains)
        chain.segments = {{0, 2.0, 0.1}};
    BOOST_TEST(maxSplitRhat({&chains[0], &chains[1], &chains[2]}) > 1.1);
    // Final segments at different temperatures target different laws: no R-hat.
    chains[2].segments = {{0, 3.0, 0.1}};
    BOOST_TEST(std::isnan(maxSplitRhat({&chains[0], &chains[1], &chains[2]})));
    // One chain: its two halves disagree just as well.
    BOOST_TEST(maxSplitRhat({&chains[0]}) > 1.1);
}

// Bulk ESS and split R-hat see only ranks, so a strictly increasing map of the draws leaves
// them exactly as they were. The draws mix signs, ±0 and the repeats of rejected proposals: a
// sort that misordered negative values, or split a tie, would change the ranks of one of the two.
BOOST_AUTO_TEST_CASE(rankDiagnosticsSeeOnlyTheOrder)
{
    ChainDraws draws = ar1Chains(2, 3001, 0.7, 11);
    for (auto &chain : draws)
        for (std::size_t t = 0; t < chain.size(); ++t)
            if (t % 3 == 1)
                chain[t] = chain[t - 1]; // a rejection repeats the draw
    draws[0][5] = 0.0;
    draws[0][6] = -0.0;
    draws[1][7] = 0.0;
    ChainDraws mapped = draws;
    for (auto &chain : mapped)
        for (double &x : chain)
            x = std::exp(x) + 3.0; // positive, increasing, and −0 maps where +0 does
    BOOST_TEST(bulkEffectiveSampleSize(draws) == bulkEffectiveSampleSize(mapped));
    BOOST_TEST(splitRhat({draws[0]}) == splitRhat({mapped[0]}));
    // Blom's scores are symmetric about the middle rank: mirrored draws get negated scores,
    // hence the same autocorrelations and ESS.
    ChainDraws mirrored = draws;
    for (auto &chain : mirrored)
        for (double &x : chain)
            x = -x;
    BOOST_TEST(bulkEffectiveSampleSize(draws) == bulkEffectiveSampleSize(mirrored), boost::test_tools::tolerance(1e-9));
}

// The folded draws |θ − median θ| ranked by merging the draws' own order must give exactly the
// scores a fresh sort of the folded values gives. The draws are symmetric about 0, so the median
// is 0 and every distance occurs on both sides of it (ties across the merge), with repeats, for
// an odd count (one draw on the median) and an even one.
BOOST_AUTO_TEST_CASE(foldedRanksFollowFromTheDrawsOwnOrder)
{
    for (const int length : {1001, 1000}) {
        ChainDraws draws = ar1Chains(2, length, 0.6, 17);
        for (auto &chain : draws)
            for (std::size_t t = 0; t < chain.size(); ++t)
                if (t % 4 == 1)
                    chain[t] = chain[t - 1];
        const std::size_t half = static_cast<std::size_t>(length) / 2;
        for (std::size_t t = 0; t < half; ++t)
            draws[0][half + t] = -draws[0][t];
        if (length % 2 == 1)
            draws[0].back() = 0.0;
        std::vector<double> mirror(draws[1].size());
        std::transform(draws[1].begin(), draws[1].end(), mirror.begin(), [](double x) { return -x; });
        draws.push_back(mirror);
        ChainDraws folded = draws;
        for (auto &chain : folded)
            for (double &x : chain)
                x = std::abs(x);
        const SortedDraws merged = foldSorted(sortDraws(draws));
        BOOST_TEST(std::is_sorted(merged.values.begin(), merged.values.end(),
                                  [](const auto &a, const auto &b) { return a.first < b.first; }));
        BOOST_TEST((normalScores(merged) == rankNormalise(folded)), "length " << length);
    }
}

// One pass over a chain's components gives what the separate wrappers give.
BOOST_AUTO_TEST_CASE(oneChainsDiagnosticsInOnePass)
{
    const int length = 4000;
    ChainResult chain;
    chain.samples.resize(length, 3);
    for (int k = 0; k < 3; ++k) {
        const auto ar = ar1Chains(1, length, 0.3 * k, 60 + static_cast<std::uint64_t>(k))[0];
        for (int t = 0; t < length; ++t)
            chain.samples(t, k) = ar[static_cast<std::size_t>(t)] + (k == 2 ? 1e-3 * t : 0.0);
    }
    chain.completed = length;
    chain.segments = {{0, 1.0, 0.1}};
    const ChainDiagnostics both = finalSegmentDiagnostics(chain);
    BOOST_TEST(both.bulkEss == bulkEssPerComponent(chain));
    BOOST_TEST(both.maxSplitRhat == maxSplitRhat({&chain}));
    BOOST_TEST(both.maxSplitRhat > 1.01); // the drifting component
    chain.completed = 3;
    BOOST_TEST(finalSegmentDiagnostics(chain).bulkEss.empty());
    BOOST_TEST(std::isnan(finalSegmentDiagnostics(chain).maxSplitRhat));
}

// The pooled pass over several chains gives what the separate wrappers give, on each chain's
// last rows (the chains' lengths differ: the shortest sets the rows).
BOOST_AUTO_TEST_CASE(pooledDiagnosticsInOnePass)
{
    std::vector<ChainResult> chains(3);
    for (std::size_t c = 0; c < chains.size(); ++c) {
        const int length = 3000 + 500 * static_cast<int>(c);
        ChainResult &chain = chains[c];
        chain.samples.resize(length, 2);
        for (int k = 0; k < 2; ++k) {
            const auto ar = ar1Chains(1, length, 0.5, 80 + 10 * c + static_cast<std::uint64_t>(k))[0];
            for (int t = 0; t < length; ++t)
                chain.samples(t, k) = ar[static_cast<std::size_t>(t)] + (c == 2 && k == 1 ? 0.3 : 0.0);
        }
        chain.completed = length;
        chain.segments = {{0, 1.0, 0.1}};
    }
    const std::vector<const ChainResult *> all = {&chains[0], &chains[1], &chains[2]};
    const ChainDiagnostics both = pooledDiagnostics(all, 3000);
    BOOST_TEST(both.bulkEss == pooledBulkEssPerComponent(all, 3000));
    BOOST_TEST(both.maxSplitRhat == maxSplitRhat(all));
    BOOST_TEST(both.maxSplitRhat > 1.01); // the third chain's second component is shifted
}

BOOST_AUTO_TEST_CASE(rejectsBadInput)
{
    BOOST_CHECK_THROW(effectiveSampleSize({}), std::invalid_argument);
    BOOST_CHECK_THROW(effectiveSampleSize({{1, 2, 3, 4}, {1, 2, 3}}), std::invalid_argument);
    BOOST_CHECK_THROW(splitRhat({{1, 2}}), std::invalid_argument);
    // A constant chain is not an error: every draw carries full information.
    BOOST_TEST(testcheck::nearlyEqual(effectiveSampleSize({{2, 2, 2, 2, 2, 2}}), 6.0));
}

