// The GLM families (core/models/glm/glm_family.h): their derivatives against finite differences
// of their log-likelihoods, and each stated bound sup|∂^k ℓ/∂z^k| against a dense scan of z
// (and of the responses that matter): the scan must never exceed the bound, and must come within
// 1 % of it, so that a bound both holds and is the one derived (a loose bound would still be
// exact but would make SMH and TunaMH read more points). The scan's checker is shown to fail on
// a bound 1 % too small.
#include <boost/math/distributions/normal.hpp>
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/models/glm/glm_family.h"
#include "core/random/rng.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

const std::vector<std::string> kFamilies = {"probit", "poisson", "linear", "robust-linear"};

GlmFamilySpec specOf(const std::string &name, double nu = 4.0, double scale = 1.0)
{
    GlmFamilySpec spec;
    spec.name = name;
    spec.nu = nu;
    spec.noiseScale = scale;
    return spec;
}

double logLikelihood(const GlmFamily &family, double y, double z)
{
    double out = 0.0;
    family.logLikelihood(&y, &z, &out, 1);
    return out;
}

std::pair<double, double> derivatives(const GlmFamily &family, double y, double z)
{
    double first = 0.0, second = 0.0;
    family.derivatives(&y, &z, &first, &second, 1);
    return {first, second};
}

// The responses a family's scan covers: its bounds must hold for each.
std::vector<double> responsesOf(GlmResponse kind)
{
    switch (kind) {
    case GlmResponse::Binary: return {0.0, 1.0};
    case GlmResponse::Count: return {0.0, 1.0, 3.0, 20.0};
    case GlmResponse::Real: return {-2.0, 0.0, 0.7};
    }
    return {};
}

// max |∂^k ℓ/∂z^k| over z in [−range, range] (step 1e-3) and the responses; the third
// derivative by central differences of the exact second.
double scannedMaximum(const GlmFamily &family, int k, double range)
{
    double largest = 0.0;
    for (double y : responsesOf(family.response()))
        for (double z = -range; z <= range; z += 1e-3) {
            double value = 0.0;
            if (k == 1) {
                value = derivatives(family, y, z).first;
            } else if (k == 2) {
                value = derivatives(family, y, z).second;
            } else {
                const double h = 1e-4;
                value = (derivatives(family, y, z + h).second - derivatives(family, y, z - h).second) / (2.0 * h);
            }
            largest = std::max(largest, std::abs(value));
        }
    return largest;
}

// Whether `bound` holds over the scan (with room for the finite differences' error) and is within
// 1 % of its largest value.
bool boundIsTheSupremum(double bound, double scanned)
{
    return scanned <= bound * (1.0 + 1e-6) + 1e-9 && scanned >= 0.99 * bound;
}

} // namespace

BOOST_DATA_TEST_CASE(derivativesMatchFiniteDifferences, data::make(kFamilies), name)
{
    const auto family = makeGlmFamily(specOf(name, 3.0, 1.7));
    Rng rng(3);
    const double h = 1e-5;
    for (int trial = 0; trial < 200; ++trial) {
        const std::vector<double> responses = responsesOf(family->response());
        const double y = responses[rng.uniformIndex(responses.size())];
        const double z = 4.0 * rng.normal();
        const auto [first, second] = derivatives(*family, y, z);
        const double numericFirst = (logLikelihood(*family, y, z + h) - logLikelihood(*family, y, z - h)) / (2.0 * h);
        const double numericSecond = (derivatives(*family, y, z + h).first - derivatives(*family, y, z - h).first) / (2.0 * h);
        BOOST_TEST(std::abs(first - numericFirst) <= 1e-6 * std::max(1.0, std::abs(first)),
                   name << " y = " << y << " z = " << z << ": " << first << " vs " << numericFirst);
        BOOST_TEST(std::abs(second - numericSecond) <= 1e-6 * std::max(1.0, std::abs(second)),
                   name << " y = " << y << " z = " << z << ": " << second << " vs " << numericSecond);
    }
}

// The ratio kernel (vectorised, constants cancelled) against the difference of log-likelihoods.
BOOST_DATA_TEST_CASE(ratiosAreDifferencesOfLogLikelihoods, data::make(kFamilies), name)
{
    const auto family = makeGlmFamily(specOf(name, 3.0, 1.7));
    Rng rng(5);
    const std::vector<double> responses = responsesOf(family->response());
    std::vector<double> y(300), from(300), to(300), ratio(300);
    for (std::size_t k = 0; k < y.size(); ++k) {
        y[k] = responses[rng.uniformIndex(responses.size())];
        from[k] = 3.0 * rng.normal();
        to[k] = from[k] + (k % 3 == 0 ? 1e-6 : 0.5) * rng.normal();
    }
    family->logLikelihoodRatio(y.data(), from.data(), to.data(), ratio.data(), static_cast<int>(y.size()));
    for (std::size_t k = 0; k < y.size(); ++k) {
        const double difference = logLikelihood(*family, y[k], to[k]) - logLikelihood(*family, y[k], from[k]);
        const double scale = std::max({1.0, std::abs(logLikelihood(*family, y[k], to[k]))});
        BOOST_TEST(std::abs(ratio[k] - difference) <= 1e-13 * scale, name << " k = " << k << ": " << ratio[k] << " vs " << difference);
    }
}

// Student-t at several ν and scales, probit, linear: every bound stated is the supremum; Poisson
// states none, and its derivatives do grow past any constant.
BOOST_DATA_TEST_CASE(boundsAreTheSuprema,
                     data::make(std::vector<std::string>{"robust-linear", "robust-linear", "robust-linear", "probit",
                                                         "linear", "linear"})
                         ^ data::make(std::vector<double>{4.0, 1.0, 30.0, 4.0, 4.0, 4.0})
                         ^ data::make(std::vector<double>{1.0, 0.5, 2.0, 1.0, 1.0, 0.3}),
                     name, nu, scale)
{
    const auto family = makeGlmFamily(specOf(name, nu, scale));
    for (int k = 1; k <= 3; ++k) {
        const auto bound = family->derivativeBound(k);
        const double scanned = scannedMaximum(*family, k, 60.0);
        if (!bound) {
            BOOST_TEST(scanned > 20.0, name << ": derivative " << k << " has no bound, yet peaks at " << scanned);
            continue;
        }
        if (*bound == 0.0) {
            BOOST_TEST(scanned < 1e-6, name << ": derivative " << k << " should vanish; got " << scanned);
            continue;
        }
        BOOST_TEST(boundIsTheSupremum(*bound, scanned),
                   name << " nu = " << nu << " scale = " << scale << ": derivative " << k << " bound " << *bound
                        << ", scanned maximum " << scanned);
        // The check itself: a bound 1 % too small is caught.
        BOOST_TEST(!boundIsTheSupremum(0.99 * *bound * (1.0 - 1e-3), scanned));
    }
}

BOOST_AUTO_TEST_CASE(poissonHasNoBound)
{
    const auto family = makeGlmFamily(specOf("poisson"));
    for (int k = 1; k <= 3; ++k)
        BOOST_TEST(!family->derivativeBound(k).has_value());
    BOOST_TEST(scannedMaximum(*family, 2, 10.0) > 2e4); // e^10
}

// log Φ against Boost.Math where Φ is representable, and across the switch to the asymptotic
// series at u = −30; λ = φ/Φ against its limit −u for u → −∞.
BOOST_AUTO_TEST_CASE(logNormalCdfIsAccurateEverywhere)
{
    const boost::math::normal standard;
    for (double u = -37.0; u <= 8.0; u += 0.01) {
        const double reference = u > 0.0 ? std::log1p(-boost::math::cdf(boost::math::complement(standard, u)))
                                         : std::log(boost::math::cdf(standard, u));
        BOOST_TEST(std::abs(logNormalCdf(u) - reference) <= 1e-13 * std::max(1.0, std::abs(reference)), "u = " << u);
        const double mills = boost::math::pdf(standard, u) / boost::math::cdf(standard, u);
        BOOST_TEST(std::abs(inverseMillsRatio(u) - mills) <= 1e-12 * std::max(1.0, mills), "u = " << u);
    }
    BOOST_TEST(std::abs(inverseMillsRatio(-1e6) / 1e6 - 1.0) < 1e-11);
    BOOST_TEST(std::isfinite(logNormalCdf(-1e150)));
}

BOOST_AUTO_TEST_CASE(badSettingsAreRefusedByName)
{
    const auto refusal = [](const GlmFamilySpec &spec) {
        try {
            makeGlmFamily(spec);
        } catch (const std::invalid_argument &error) {
            return std::string(error.what());
        }
        return std::string();
    };
    BOOST_TEST(refusal(specOf("gamma")).find("model must be probit, poisson, linear or robust-linear") == 0u);
    BOOST_TEST(refusal(specOf("robust-linear", 0.0)).find("nu must be finite and > 0") == 0u);
    BOOST_TEST(refusal(specOf("linear", 4.0, -1.0)).find("noise-scale must be finite and > 0") == 0u);
    BOOST_TEST(refusal(specOf("robust-linear", std::nan(""))).find("nu must") == 0u);
}

BOOST_AUTO_TEST_CASE(responsesAreChecked)
{
    BOOST_TEST(!responseProblem(GlmResponse::Count, 3.0));
    BOOST_TEST(responseProblem(GlmResponse::Count, -1.0).value_or("").find("non-negative integer") != std::string::npos);
    BOOST_TEST(responseProblem(GlmResponse::Count, 2.5).has_value());
    BOOST_TEST(responseProblem(GlmResponse::Binary, 2.0).has_value());
    BOOST_TEST(responseProblem(GlmResponse::Real, std::nan("")).has_value());
    BOOST_TEST(!responseProblem(GlmResponse::Real, -1e30));
}
