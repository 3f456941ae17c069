// TunaMH's forecast (tuna_forecast.h): the variance of TunaTest's log-ratio estimate for a fixed
// move is ρ²/(χ + 1/(2L)), as the forecast's expansion says (measured over repeated decisions,
// at χL = 3, 30 and 100); the forecast's batch is the kernel's expected batch χL² + L; the
// kernel's acceptance on Crank–Nicolson moves is the forecast's 2Φ(−σ/2); the χ it chooses reads
// no more points per effective draw than any other χ on a fine grid, both where the own kernel
// wins and where the full-data fallback does; and the own kernel's cost per effective draw grows
// in proportion to N, which is why TunaMH cannot beat full-data Metropolis on a posterior that
// concentrates.
#include <boost/test/unit_test.hpp>

#include <algorithm>
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
    const TunaForecast forecast = forecastTuna(*model, fit, 1.0, 1.0, 0.3);
    // One move of the length of the forecast's scale ½, centred on the mode.
    const TunaScaleForecast &at = forecast.scales.at(2);
    BOOST_TEST(at.scale == 0.5, boost::test_tools::tolerance(1e-12));
    Vector direction = Vector::Ones(model->dimension()).normalized();
    const Vector half = 0.5 * at.move * direction;
    const Vector from = fit.mode - half, to = fit.mode + half;
    const double rho2 = tunaBoundUse(*model, from, to, {});
    const double L = at.lipschitz;
    BOOST_TEST_MESSAGE("C M = " << L << ", rho^2 of the move " << rho2 << ", rho^2 of the forecast " << at.boundUse);
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
                                  << ", mean points " << s.meanPoints << " vs " << at.batchAt(chi));
        BOOST_TEST(std::abs(s.variance / predicted - 1.0) < 0.10);
        // The batch: Poisson(χL² + L), L = C M for this move's length.
        BOOST_TEST(std::abs(s.meanPoints / at.batchAt(chi) - 1.0) < 0.01);
    }
    // The forecast is the same on every call (fixed rows and moves).
    BOOST_TEST(forecastTuna(*model, fit, 1.0, 1e-5, 0.3).scales.at(2).boundUse == at.boundUse);
}

// The acceptance the forecast assigns a noise σ², 2Φ(−σ/2), against TunaTest's own decisions on
// the Crank–Nicolson moves the forecast describes (θ from the fit's Gaussian, θ' its successor),
// with their prior and proposal ratio: 16 moves, 250 decisions each, at scales 1 and ¼ and
// noises 1 and 4. The forecast takes the fit's Gaussian as the posterior, so full-data
// Metropolis' own acceptance (0.98–1 here) bounds how close it can be; 0.06 is about five
// standard errors of 4,000 decisions (0.008) plus that.
BOOST_AUTO_TEST_CASE(acceptanceOnCrankNicolsonMovesIsTwoPhiOfHalfTheNoise)
{
    const auto model = testdata::syntheticLogistic(8'000, 4, true, 5); // d = 5
    const GaussianApproximation fit = model->laplaceFit(1.0, 50, {});
    const TunaForecast forecast = forecastTuna(*model, fit, 1.0, 1.0, 0.3);
    const Eigen::MatrixXd &factor = fit.covarianceFactor;
    const auto referenceEnergy = [&](const Vector &theta) {
        return 0.5 * factor.triangularView<Eigen::Lower>().solve(theta - fit.mode).squaredNorm();
    };
    Rng rng(17);
    const Eigen::Index d = model->dimension();
    for (std::size_t index : {std::size_t{0}, std::size_t{4}}) { // s = 1 and ¼
        const TunaScaleForecast &at = forecast.scales.at(index);
        const double keep = std::sqrt(1.0 - at.scale * at.scale);
        for (double noise : {1.0, 4.0}) {
            const double chi = at.boundUse / noise - 0.5 / at.lipschitz;
            BOOST_REQUIRE(chi > 0.0);
            TunaTest test(chi, false);
            double accepted = 0.0;
            int decisions = 0;
            for (int move = 0; move < 16; ++move) {
                Vector z(d), fresh(d);
                for (Eigen::Index j = 0; j < d; ++j) {
                    z[j] = rng.normal();
                    fresh[j] = rng.normal();
                }
                const Vector from = fit.mode + factor * z;
                const Vector to = fit.mode + keep * (factor * z) + at.scale * (factor * fresh);
                // The Crank–Nicolson proposal's ratio is the reference's density ratio.
                const double logPriorProposal =
                    model->logPrior(to) - model->logPrior(from) + referenceEnergy(to) - referenceEnergy(from);
                const TestProblem problem{*model, from, to, 1.0, logPriorProposal};
                for (int r = 0; r < 250; ++r, ++decisions)
                    accepted += test.decide(problem, rng).accepted ? 1.0 : 0.0;
            }
            const double measured = accepted / decisions;
            const double predicted = tunaAcceptanceForNoise(at.noiseAt(chi));
            BOOST_TEST_MESSAGE("scale " << at.scale << ", noise " << at.noiseAt(chi) << ": acceptance " << measured
                                        << " vs 2 Phi(-sigma/2) = " << predicted);
            BOOST_TEST(std::abs(measured - predicted) < 0.06);
        }
    }
}

namespace {

// A forecast written by hand: scales 1 … 2^−12 of a Gaussian whose moves have root mean square
// √(2 − 2√(1 − s²)) (tr Σ = 1), bounds summing to C, and ρ² the same at every scale.
TunaForecast handForecast(double population, double boundTotal, double rho2)
{
    TunaForecast forecast;
    forecast.population = population;
    forecast.boundTotal = boundTotal;
    forecast.adaptTarget = 0.3;
    double scale2 = 1.0;
    for (int k = 0; k < 25; ++k, scale2 *= 0.5) {
        TunaScaleForecast at;
        at.scale = std::sqrt(scale2);
        at.move = std::sqrt(2.0 - 2.0 * std::sqrt(1.0 - scale2));
        at.lipschitz = boundTotal * at.move;
        at.boundUse = rho2;
        forecast.scales.push_back(at);
    }
    return forecast;
}

// No χ on a grid of steps of 2^(1/16) over 10⁻¹² … 10² runs a chain (chainAt) that reads
// fewer points per effective draw than the chosen χ's, by more than 2 %.
void chosenChiIsTheCheapest(const TunaForecast &forecast)
{
    const double chosen = forecast.chainAt(forecast.chosenChi()).pointsPerEffectiveDraw();
    double cheapest = chosen, at = 0.0;
    for (double chi = 1e-12; chi < 100.0; chi *= std::exp2(1.0 / 16.0)) {
        const double cost = forecast.chainAt(chi).pointsPerEffectiveDraw();
        if (cost < cheapest) {
            cheapest = cost;
            at = chi;
        }
    }
    if (at > 0.0)
        BOOST_TEST_MESSAGE("chosen chi " << forecast.chosenChi() << ": " << chosen << " points per effective draw; "
                                         << "the grid's cheapest " << cheapest << " at chi " << at);
    else
        BOOST_TEST_MESSAGE("chosen chi " << forecast.chosenChi() << ": " << chosen << " points per effective draw, "
                                         << "the cheapest on the grid");
    BOOST_TEST(chosen <= 1.02 * cheapest);
}

} // namespace

// Loose bounds on plenty of data: ρ² L₁² is a small share of N, the own kernel wins, and the
// burn-in, from scale 1, settles where the chosen χ puts the acceptance at its target or above.
BOOST_AUTO_TEST_CASE(whereTheOwnKernelWinsItsBestChiIsChosen)
{
    const TunaForecast forecast = handForecast(1e6, 200.0, 0.01); // ρ² L₁² = 800 ≪ N
    BOOST_TEST(forecast.ownKernelBeatsFullData());
    const TunaChainForecast chain = forecast.chainAt(forecast.chosenChi());
    BOOST_TEST_MESSAGE("scale " << chain.scale << ", acceptance " << chain.acceptance << ", batch "
                                << chain.pointsPerIteration << ", points per effective draw "
                                << chain.pointsPerEffectiveDraw());
    BOOST_TEST(!chain.fallsBack);
    BOOST_TEST(chain.acceptance >= 0.3);
    BOOST_TEST(chain.pointsPerEffectiveDraw() < 0.01 * forecast.fullDataPointsPerEffectiveDraw());
    BOOST_TEST(forecast.chosenChi() == forecast.bestOwnKernel()->chi);
    chosenChiIsTheCheapest(forecast);
}

// Tight enough bounds that ρ² L₁² is six times N, as on tall logistic data: the own kernel
// loses at every χ, and the chosen χ makes moves of scale 1 fall back, so the burn-in stays at
// scale 1 and the chain is full-data Metropolis', N points an effective draw.
BOOST_AUTO_TEST_CASE(whereTheFallbackWinsMovesOfScaleOneTakeTheFullDataTest)
{
    const double n = 1e5;
    const TunaForecast forecast = handForecast(n, std::sqrt(6.0 * n / (0.01 * 2.0)), 0.01);
    BOOST_TEST(!forecast.ownKernelBeatsFullData());
    const TunaChainForecast chain = forecast.chainAt(forecast.chosenChi());
    BOOST_TEST(chain.fallsBack);
    BOOST_TEST(chain.scale == 1.0);
    BOOST_TEST(chain.pointsPerEffectiveDraw() == n);
    BOOST_TEST(forecast.scales.front().batchAt(forecast.chosenChi()) >= 2.0 * n * (1.0 - 1e-12));
    // Shorter moves, which the burn-in tries on its way, keep a noise of at most 1.
    for (const TunaScaleForecast &at : forecast.scales)
        BOOST_TEST(at.noiseAt(forecast.chosenChi()) <= 1.0 + 1e-12);
    chosenChiIsTheCheapest(forecast);
    BOOST_TEST(forecast.summary().find("cannot mix for less than full-data") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(theOwnKernelsCostGrowsInProportionToN)
{
    // C grows like N and the moves shrink like N^-1/2, so the own kernel's least points per
    // effective draw at any fixed scale, over N, stay put, and above 1 on logistic data: TunaMH
    // cannot mix on fewer points than full-data Metropolis reads.
    std::vector<double> ratios;
    for (std::int64_t n : {2'000, 8'000, 32'000}) {
        const auto model = testdata::syntheticLogistic(n, 9, true, 1); // d = 10
        const GaussianApproximation fit = model->laplaceFit(1.0, 50, {});
        const TunaForecast forecast = forecastTuna(*model, fit, 1.0, 1e-5, 0.3);
        const std::optional<TunaChainForecast> own = forecast.ownKernelFloor();
        BOOST_REQUIRE(own.has_value());
        ratios.push_back(own->pointsPerEffectiveDraw() / static_cast<double>(n));
        BOOST_TEST_MESSAGE("N = " << n << ": rho^2 " << forecast.scales.front().boundUse << ", own kernel at chi "
                                  << own->chi << ", scale " << own->scale << ", acceptance " << own->acceptance
                                  << ": " << ratios.back() << " N points per effective draw");
        BOOST_TEST(!forecast.ownKernelBeatsFullData());
        BOOST_TEST(forecast.summary().find("cannot mix for less than full-data") != std::string::npos);
        // The chain the burn-in settles into at the chosen χ is full-data Metropolis'.
        BOOST_TEST(forecast.chainAt(forecast.chosenChi()).fallsBack);
    }
    BOOST_TEST(std::abs(ratios[2] / ratios[0] - 1.0) < 0.25);
}
