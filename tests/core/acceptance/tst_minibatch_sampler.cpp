// Minibatch rows are a uniform random subset drawn without replacement within each test, both
// where the sampler keeps a permutation array and where (above 2³¹ − 1 rows) it keeps only the
// positions a test's swaps moved.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "core/acceptance/minibatch_sampler.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

// The two ways of holding the permutation: as an array (N up to the limit), and sparsely, which
// a limit of 0 forces at any N.
constexpr DataIndex kArray = MinibatchSampler::kLargestPermutation;
constexpr DataIndex kSparse = 0;
const std::vector<DataIndex> kBothLayouts{kArray, kSparse};

} // namespace

BOOST_AUTO_TEST_CASE(noRepeatsWithinATest)
{
    for (const DataIndex layout : kBothLayouts) {
    MinibatchSampler sampler(1000, layout);
    BOOST_TEST(sampler.keepsPermutation() == (layout == kArray));
    Rng rng(3);
    for (int test = 0; test < 50; ++test) {
        sampler.beginTest();
        std::set<DataIndex> seen;
        for (int look = 0; look < 12; ++look)
            for (DataIndex row : sampler.drawMore(100, rng)) {
                BOOST_TEST((row >= 0 && row < 1000));
                BOOST_TEST(seen.insert(row).second, "a row was drawn twice in one test");
            }
        BOOST_TEST(sampler.drawn() == DataIndex(1000)); // capped at N
        BOOST_TEST(seen.size() == std::size_t(1000));
    }
    }
}

// Every 3-subset of 7 rows must be equally likely: chi-squared over the 35 subsets.
BOOST_AUTO_TEST_CASE(subsetsAreUniform)
{
    for (const DataIndex layout : kBothLayouts) {
    MinibatchSampler sampler(7, layout);
    Rng rng(5);
    std::map<std::set<DataIndex>, int> counts;
    const int draws = 70000;
    for (int k = 0; k < draws; ++k) {
        sampler.beginTest();
        const DataIndex first = sampler.drawMore(1, rng)[0];
        const auto rest = sampler.drawMore(2, rng); // grown in two looks, as tests do
        std::set<DataIndex> subset{first, rest[0], rest[1]};
        BOOST_TEST(sampler.drawnRows()[0] == first);
        BOOST_TEST(subset.size() == std::size_t(3));
        ++counts[subset];
    }
    BOOST_TEST(counts.size() == std::size_t(35));
    const double expected = draws / 35.0;
    double chi2 = 0.0;
    for (const auto &[subset, count] : counts)
        chi2 += (count - expected) * (count - expected) / expected;
    BOOST_TEST(chi2 < teststats::chiSquaredUpper(34, 1e-4), "chi2 = " << chi2);
    }
}

// Not contiguous slices: on sorted data the first batch must look like the whole set.
BOOST_AUTO_TEST_CASE(notContiguous)
{
    for (const DataIndex layout : kBothLayouts) {
    MinibatchSampler sampler(100000, layout);
    Rng rng(9);
    sampler.beginTest();
    const auto rows = sampler.drawMore(1000, rng);
    double mean = 0.0;
    for (DataIndex row : rows)
        mean += row;
    mean /= 1000.0;
    // Uniform on 0..99999: mean 49999.5, sd of the mean ≈ 28868/√1000 ≈ 913.
    BOOST_TEST(std::abs(mean - 49999.5) < 5 * 913.0, "mean row " << mean);
    }
}

BOOST_AUTO_TEST_CASE(rejectsEmptyPopulation)
{
    BOOST_CHECK_THROW(MinibatchSampler(0), std::invalid_argument);
    BOOST_CHECK_THROW(MinibatchSampler(10, MinibatchSampler::kLargestPermutation + 1), std::invalid_argument);
}

// The array layout draws exactly what a plain partial Fisher–Yates over one persistent
// permutation draws (the rule every measured figure in the docs was made with), across growing
// looks, checkpoints' restarts and tests that exhaust the population.
BOOST_AUTO_TEST_CASE(theArrayLayoutDrawsWhatAPersistentShuffleDraws)
{
    const DataIndex n = 500;
    MinibatchSampler sampler(n);
    std::vector<DataIndex> permutation(static_cast<std::size_t>(n));
    std::iota(permutation.begin(), permutation.end(), DataIndex{0});
    Rng rng(11), reference(11);
    for (int test = 0; test < 400; ++test) {
        if (test % 97 == 96) { // a checkpoint puts both back to the identity
            sampler.restart();
            std::iota(permutation.begin(), permutation.end(), DataIndex{0});
        }
        sampler.beginTest();
        DataIndex drawn = 0;
        for (const DataIndex look : {DataIndex{3}, DataIndex{40}, DataIndex{test % 7 == 0 ? 600 : 10}}) {
            const auto rows = sampler.drawMore(look, rng);
            const DataIndex last = std::min(n, drawn + look);
            BOOST_TEST(rows.size() == static_cast<std::size_t>(last - drawn));
            for (DataIndex position = drawn; position < last; ++position) {
                const auto pick = position + static_cast<DataIndex>(reference.uniformIndex(static_cast<std::uint64_t>(n - position)));
                std::swap(permutation[static_cast<std::size_t>(position)], permutation[static_cast<std::size_t>(pick)]);
                BOOST_TEST(rows[static_cast<std::size_t>(position - drawn)] == permutation[static_cast<std::size_t>(position)]);
            }
            drawn = last;
        }
        BOOST_TEST(sampler.drawnRows().size() == static_cast<std::size_t>(drawn));
    }
}

// A population beyond 32-bit row numbers: rows above 2³¹ are drawn, none twice, uniformly
// (the mean and the share above 2³¹), and the sampler holds no N-entry array.
BOOST_AUTO_TEST_CASE(populationsBeyond32BitRowNumbersAreSampledSparsely)
{
    const DataIndex n = DataIndex{3'000'000'000};
    MinibatchSampler sampler(n);
    BOOST_TEST(!sampler.keepsPermutation());
    Rng rng(17);
    double sum = 0.0;
    std::int64_t above = 0, count = 0;
    for (int test = 0; test < 200; ++test) {
        sampler.beginTest();
        std::set<DataIndex> seen;
        for (int look = 0; look < 5; ++look)
            for (const DataIndex row : sampler.drawMore(200, rng)) {
                BOOST_TEST((row >= 0 && row < n));
                BOOST_TEST(seen.insert(row).second, "a row was drawn twice in one test");
                sum += static_cast<double>(row);
                above += row > DataIndex{2'147'483'647};
                ++count;
            }
        BOOST_TEST(sampler.drawnRows().size() == std::size_t(1000));
    }
    // 200,000 uniform rows: the mean's sd is N/√12/√200000 ≈ 1.94·10⁶; P(row > 2³¹−1) ≈ 0.2842.
    const double mean = sum / static_cast<double>(count);
    BOOST_TEST(std::abs(mean - 0.5 * static_cast<double>(n - 1)) < 5 * 1.94e6, "mean row " << mean);
    const double share = static_cast<double>(above) / static_cast<double>(count);
    const double expected = 1.0 - 2'147'483'648.0 / static_cast<double>(n);
    BOOST_TEST(std::abs(share - expected) < 5 * std::sqrt(expected * (1 - expected) / static_cast<double>(count)),
               "share above 2^31 " << share);
}

// The sparse layout's draws restart with the stream: a checkpoint then gives the same rows.
BOOST_AUTO_TEST_CASE(theSparseLayoutRestartsWithItsStream)
{
    MinibatchSampler first(1000, kSparse), second(1000, kSparse);
    Rng a(23), b(23);
    for (int test = 0; test < 20; ++test) {
        first.beginTest();
        first.drawMore(300, a);
    }
    first.restart();
    Rng c(99), d(99);
    first.beginTest();
    second.beginTest();
    const auto x = first.drawMore(700, c);
    const std::vector<DataIndex> fromFirst(x.begin(), x.end());
    const auto y = second.drawMore(700, d);
    BOOST_TEST(fromFirst == std::vector<DataIndex>(y.begin(), y.end()), boost::test_tools::per_element());
}

