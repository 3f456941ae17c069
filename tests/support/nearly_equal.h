#pragma once
// Equality of floating-point results up to their last bits, for checks whose two sides are
// computed along different paths (a sum against a mean times N, a value read back from text).
// Use it as BOOST_TEST(testcheck::nearlyEqual(actual, expected)); a failure prints both values.
// Every other comparison in the suites is exact.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>

#include <boost/test/tools/assertion_result.hpp>

namespace testcheck {

/// True when `actual` and `expected` differ by at most `relative` times the smaller of the two
/// magnitudes. An expected value within `relative` of zero asks for an actual value within
/// `relative` of zero (a relative test cannot hold at zero); an infinite or NaN expected value
/// asks for the same non-finite value.
template <typename Real>
boost::test_tools::assertion_result nearlyEqualWithin(Real actual, Real expected, Real relative)
{
    bool equal = false;
    if (std::isnan(expected))
        equal = std::isnan(actual);
    else if (std::isinf(expected))
        equal = actual == expected;
    else if (std::abs(expected) <= relative)
        equal = std::abs(actual) <= relative;
    else
        equal = std::abs(actual - expected) <= relative * std::min(std::abs(actual), std::abs(expected));
    boost::test_tools::assertion_result result(equal);
    if (!equal)
        result.message() << std::setprecision(std::numeric_limits<Real>::max_digits10) << actual << " != " << expected
                         << " (relative tolerance " << relative << ")";
    return result;
}

/// Doubles: 1e-12 relative, about 4500 units in the last place.
inline boost::test_tools::assertion_result nearlyEqual(double actual, double expected)
{
    return nearlyEqualWithin(actual, expected, 1e-12);
}

/// Floats: 1e-5 relative, about 80 units in the last place.
inline boost::test_tools::assertion_result nearlyEqual(float actual, float expected)
{
    return nearlyEqualWithin(actual, expected, 1e-5f);
}

} // namespace testcheck
