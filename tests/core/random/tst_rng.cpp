// The random-number engine's uniform draws: ranges at the extreme raw values, and uniformity.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <vector>

#include "core/random/rng.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/statistics.h"

using namespace core;

// The open interval must hold at both ends for every raw value: log(u) and quantile(u)
// are taken of it. The largest raw draw used to give exactly 1.0 (probability 2⁻⁵³ per draw).
BOOST_AUTO_TEST_CASE(openUnitIntervalExcludesBothEnds)
{
    const std::uint64_t extremes[] = {0, 1, (std::uint64_t{1} << 11) - 1, std::uint64_t{1} << 63,
                                      ~std::uint64_t{0} - (std::uint64_t{1} << 12), ~std::uint64_t{0}};
    for (std::uint64_t bits : extremes) {
        const double u = Rng::openUnitFromBits(bits);
        BOOST_TEST((u > 0.0 && u < 1.0), "bits " << bits << " gave " << std::setprecision(17) << u);
        BOOST_TEST((std::isfinite(std::log(u)) && std::isfinite(std::log1p(-u))));
    }
    BOOST_TEST(testcheck::nearlyEqual(Rng::openUnitFromBits(~std::uint64_t{0}), 1.0 - 0x1.0p-53));
    BOOST_TEST(testcheck::nearlyEqual(Rng::openUnitFromBits(0), 0x1.0p-53));
}

BOOST_AUTO_TEST_CASE(openUnitDrawsAreUniform)
{
    Rng rng(11);
    constexpr int kCells = 100;
    constexpr int kDraws = 1'000'000;
    std::vector<double> counts(kCells, 0.0);
    for (int k = 0; k < kDraws; ++k) {
        const double u = rng.uniformOpen01();
        BOOST_TEST((u > 0.0 && u < 1.0));
        counts[static_cast<std::size_t>(u * kCells)] += 1.0;
    }
    const double expected = static_cast<double>(kDraws) / kCells;
    double chi2 = 0.0;
    for (double c : counts)
        chi2 += (c - expected) * (c - expected) / expected;
    BOOST_TEST(chi2 < teststats::chiSquaredUpper(kCells - 1, 1e-4), "chi2 " << chi2);
}

BOOST_AUTO_TEST_CASE(logisticDrawsAreFinite)
{
    Rng rng(5);
    for (int k = 0; k < 100000; ++k)
        BOOST_TEST(std::isfinite(rng.logistic()));
}

