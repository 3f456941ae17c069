// Minibatch rows are a uniform random subset drawn without replacement within each test.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>

#include "core/acceptance/minibatch_sampler.h"
#include "tests/support/statistics.h"

using namespace core;

BOOST_AUTO_TEST_CASE(noRepeatsWithinATest)
{
    MinibatchSampler sampler(1000);
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

// Every 3-subset of 7 rows must be equally likely: chi-squared over the 35 subsets.
BOOST_AUTO_TEST_CASE(subsetsAreUniform)
{
    MinibatchSampler sampler(7);
    Rng rng(5);
    std::map<std::set<DataIndex>, int> counts;
    const int draws = 70000;
    for (int k = 0; k < draws; ++k) {
        sampler.beginTest();
        const auto first = sampler.drawMore(1, rng);
        const auto rest = sampler.drawMore(2, rng); // grown in two looks, as tests do
        std::set<DataIndex> subset{first[0], rest[0], rest[1]};
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

// Not contiguous slices: on sorted data the first batch must look like the whole set.
BOOST_AUTO_TEST_CASE(notContiguous)
{
    MinibatchSampler sampler(100000);
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

BOOST_AUTO_TEST_CASE(rejectsEmptyPopulation)
{
    BOOST_CHECK_THROW(MinibatchSampler(0), std::invalid_argument);
}

