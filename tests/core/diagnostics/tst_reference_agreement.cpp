// Agreement with a reference sample: two independent samples of the same law agree within the
// tolerances and within Monte Carlo error; a shifted mean or a shrunken sd is found, with the
// parameter that shows it, at the size it has.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/diagnostics/reference_agreement.h"
#include "core/random/rng.h"

using namespace core;

namespace {

// Two chains of `length` independent N(mean, sd²) draws.
ChainDraws normalDraws(double mean, double sd, std::uint64_t seed, int length = 4000)
{
    Rng rng(seed);
    ChainDraws draws(2);
    for (auto &chain : draws)
        for (int t = 0; t < length; ++t)
            chain.push_back(mean + sd * rng.normal());
    return draws;
}

} // namespace

BOOST_AUTO_TEST_CASE(samplesOfOneLawAgree)
{
    std::vector<ParameterAgreement> parameters;
    for (int k = 0; k < 200; ++k) {
        const double mean = 0.1 * k, sd = 0.5 + 0.01 * k;
        parameters.push_back(compareWithReference(summarizeParameter(normalDraws(mean, sd, 100 + k)),
                                                  summarizeParameter(normalDraws(mean, sd, 10'000 + k))));
    }
    const AgreementSummary summary = summarizeAgreement(parameters);
    BOOST_TEST(summary.parameters == std::size_t(200));
    // 8,000 draws a side: the mean's shift has sd √(2/8000) = 0.016 reference sds, the sd ratio
    // about the same relative spread.
    BOOST_TEST(summary.withinShift == std::size_t(200));
    BOOST_TEST(summary.withinSdRatio == std::size_t(200));
    BOOST_TEST(summary.medianAbsShift < 0.03);
    BOOST_TEST(std::abs(summary.medianSdRatio - 1.0) < 0.01);
    // |shift| / MCSE is about N(0, 1): beyond 3 for 0.27 % (0.5 of 200) on average.
    BOOST_TEST(summary.beyondThreeMcse <= std::size_t(3));
}

BOOST_AUTO_TEST_CASE(aShiftedMeanAndAShrunkenSdAreFound)
{
    std::vector<ParameterAgreement> parameters;
    for (int k = 0; k < 9; ++k)
        parameters.push_back(compareWithReference(summarizeParameter(normalDraws(1.0, 2.0, 200 + k)),
                                                  summarizeParameter(normalDraws(1.0, 2.0, 300 + k))));
    // Parameter 9: the mean 0.5 sd off. Parameter 10: the sd 30 % short (a chain that has not
    // explored the posterior's width).
    parameters.push_back(compareWithReference(summarizeParameter(normalDraws(2.0, 2.0, 400)),
                                              summarizeParameter(normalDraws(1.0, 2.0, 401))));
    parameters.push_back(compareWithReference(summarizeParameter(normalDraws(1.0, 1.4, 500)),
                                              summarizeParameter(normalDraws(1.0, 2.0, 501))));
    const AgreementSummary summary = summarizeAgreement(parameters);
    BOOST_TEST(summary.worstShift == std::size_t(9));
    BOOST_TEST(std::abs(summary.maxAbsShift - 0.5) < 0.06, "worst shift " << summary.maxAbsShift);
    BOOST_TEST(parameters[9].meanShiftInSd > 0.0); // the run's mean is the higher
    BOOST_TEST(parameters[9].meanShiftInMcse > 10.0);
    BOOST_TEST(summary.withinShift == std::size_t(10));
    BOOST_TEST(summary.worstSdRatio == std::size_t(10));
    BOOST_TEST(std::abs(summary.minSdRatio - 0.7) < 0.03, "smallest sd ratio " << summary.minSdRatio);
    BOOST_TEST(summary.withinSdRatio == std::size_t(10));
    BOOST_TEST(summary.beyondThreeMcse >= std::size_t(1));
}

BOOST_AUTO_TEST_CASE(constantsAndEmptyInputs)
{
    ParameterSummary constant;
    constant.mean = 3.0;
    BOOST_TEST(compareWithReference(constant, constant).meanShiftInSd == 0.0);
    BOOST_TEST(compareWithReference(constant, constant).sdRatio == 1.0);
    ParameterSummary moved = constant;
    moved.mean = 4.0;
    moved.sd = 0.5;
    const ParameterAgreement apart = compareWithReference(moved, constant);
    BOOST_TEST(apart.meanShiftInSd == std::numeric_limits<double>::infinity());
    BOOST_TEST(apart.sdRatio == std::numeric_limits<double>::infinity());
    BOOST_CHECK_THROW(summarizeAgreement({}), std::invalid_argument);
}
