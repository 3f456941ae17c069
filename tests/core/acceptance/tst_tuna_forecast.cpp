// TunaMH's forecast (tuna_forecast.h): the variance of TunaTest's log-ratio estimate for a fixed
// move is ρ²/(χ + 1/(2L)), as the forecast's expansion says (measured over repeated decisions,
// at χL = 3, 30 and 100); the forecast's batch is the kernel's expected batch χL² + L; its χ for
// mixing makes that variance 1; and its batch at a mixing move grows in proportion to N, which
// is why TunaMH cannot beat full-data Metropolis on a posterior that concentrates.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "core/acceptance/exact_minibatch_tests.h"
#include "core/acceptance/tuna_forecast.h"
#include "core/models/logistic_regression_model.h"
#include "core/random/rng.h"
#include "tests/support/small_logistic_models.h"

using namespace core;

namespace {

struct Sample {
    double mean = 0.0;
    double variance = 0.0;
    double meanPoints = 0.0;
};

Sample repeatDecisions(const Model &model, const Vector &from, const Vector &to, double chi, int repetitions)
{
    TunaTest test(chi, false);
    Rng rng(5);
    const TestProblem problem{model, from, to, 1.0, 0.0};
    double sum = 0.0, squares = 0.0, points = 0.0;
    for (int r = 0; r < repetitions; ++r) {
        const Decision decision = test.decide(problem, rng);
        sum += decision.deltaEstimate;
        squares += decision.deltaEstimate * decision.deltaEstimate;
        points += static_cast<double>(decision.pointsUsed);
    }
    Sample s;
    s.mean = sum / repetitions;
    s.variance = (squares - repetitions * s.mean * s.mean) / (repetitions - 1);
    s.meanPoints = points / repetitions;
    return s;
}

} // namespace

BOOST_AUTO_TEST_CASE(logRatioNoiseIsTheBoundUseOverChi)
{
    const auto model = testdata::syntheticLogistic(4'000, 4, true, 3); // d = 5
    const GaussianApproximation fit = model->laplaceFit(1.0, 50, {});
    const TunaForecast forecast = forecastTuna(*model, fit, 1.0, 1.0);
    // One move of the forecast's mixing length, centred on the mode.
    Vector direction = Vector::Ones(model->dimension()).normalized();
    const Vector half = 0.5 * forecast.mixingMove * direction;
    const Vector from = fit.mode - half, to = fit.mode + half;
    const double rho2 = tunaBoundUse(*model, from, to, {});
    const double L = forecast.boundTotal * forecast.mixingMove;
    BOOST_TEST_MESSAGE("C M = " << L << ", rho^2 of the move " << rho2 << ", rho^2 of the forecast " << forecast.boundUse);
    BOOST_TEST(rho2 > 0.0);
    BOOST_TEST(rho2 < 1.0);
    constexpr int kRepetitions = 4'000;
    for (double chi : {3.0 / L, 30.0 / L, 100.0 / L}) { // λ = 3 L, 30 L and 100 L
        const Sample s = repeatDecisions(*model, from, to, chi, kRepetitions);
        const double predicted = rho2 / (chi + 0.5 / L);
        // The sample variance of 4,000 near-Gaussian draws is within ±10 % of its mean at about
        // 4.5 standard errors (√(2/4000) = 2.2 %); the expansion keeps terms of first order in
        // r_i/(T M_i), which is small here (ρ² ≈ 0.01).
        BOOST_TEST_MESSAGE("chi " << chi << ": variance " << s.variance << " vs rho^2/(chi + 1/(2L)) " << predicted
                                  << ", mean points " << s.meanPoints << " vs " << forecast.batchAt(chi) / 1.0);
        BOOST_TEST(std::abs(s.variance / predicted - 1.0) < 0.10);
        // The batch: Poisson(χL² + L) at this move's length, the forecast's at the mixing length.
        BOOST_TEST(std::abs(s.meanPoints / forecast.batchAt(chi) - 1.0) < 0.01);
    }
}

BOOST_AUTO_TEST_CASE(chiForMixingGivesUnitNoise)
{
    const auto model = testdata::syntheticLogistic(4'000, 4, true, 3);
    const GaussianApproximation fit = model->laplaceFit(1.0, 50, {});
    const TunaForecast forecast = forecastTuna(*model, fit, 1.0, 1e-5);
    BOOST_TEST(forecast.noiseAt(forecast.chiForMixing()) == 1.0, boost::test_tools::tolerance(1e-12));
    const double L = forecast.mixingLipschitz();
    BOOST_TEST(forecast.mixingBatch() == (forecast.boundUse - 0.5 / L) * L * L + L, boost::test_tools::tolerance(1e-12));
    // The forecast is the same on every call (fixed rows and moves).
    BOOST_TEST(forecastTuna(*model, fit, 1.0, 1e-5).boundUse == forecast.boundUse);
    // At the authors' χ the noise of a mixing move is far above 1: the forecast says so.
    BOOST_TEST(forecast.noiseAt(1e-5) > 10.0);
    BOOST_TEST(forecast.summary().find("rejected") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(mixingBatchGrowsInProportionToN)
{
    // C grows like N and the mixing move shrinks like N^-1/2, so B* / N stays put, and above 1
    // on logistic data: TunaMH cannot mix on fewer than all the points.
    std::vector<double> ratios;
    for (std::int64_t n : {2'000, 8'000, 32'000}) {
        const auto model = testdata::syntheticLogistic(n, 9, true, 1); // d = 10
        const GaussianApproximation fit = model->laplaceFit(1.0, 50, {});
        const TunaForecast forecast = forecastTuna(*model, fit, 1.0, 1e-5);
        ratios.push_back(forecast.mixingBatch() / static_cast<double>(n));
        BOOST_TEST_MESSAGE("N = " << n << ": rho^2 " << forecast.boundUse << ", C M " << forecast.mixingLipschitz()
                                  << ", B* / N " << ratios.back());
        BOOST_TEST(!forecast.mixesOnFewerThanAllPoints());
        BOOST_TEST(forecast.summary().find("cannot mix for less than full-data") != std::string::npos);
    }
    BOOST_TEST(std::abs(ratios[2] / ratios[0] - 1.0) < 0.25);
}
