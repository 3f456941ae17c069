#pragma once
// The reference model of the proposal stationarity suites: the mean of a Gaussian with known
// variance under a Gaussian prior, whose tempered posterior is Gaussian and known exactly
// (GaussianMeanModel::posteriorMean/posteriorVariance). N = 20,000 points, T = 20, so N/T =
// 1000 and the posterior sd is ≈ 0.032; the prior N(0.2, 0.01) is informative enough that a
// proposal's use of the prior's gradient is exercised too.
//
// A suite declares BOOST_TEST_GLOBAL_FIXTURE(GaussianMeanPosterior); chains are run with
// thinnedChain() and judged with expectPosterior() (mean, variance and KS at α = 10⁻⁴).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/test/unit_test.hpp>
#include <Eigen/Core>

#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/statistics.h"

constexpr double kTemperature = 20.0;

struct GaussianMeanPosterior {
    static inline std::shared_ptr<const core::CorrectionDistribution> correction;
    static inline std::unique_ptr<core::GaussianMeanModel> model;
    static inline Eigen::VectorXd x;

    void setup()
    {
        core::CorrectionParams params;
        params.grid = 2000;
        correction = std::make_shared<const core::CorrectionDistribution>(core::CorrectionDistribution::solve(params));
        core::Rng rng(2024);
        x.resize(20000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        model = std::make_unique<core::GaussianMeanModel>(x, 1.0, 0.2, 0.01);
    }

    static double posteriorMean() { return model->posteriorMean(kTemperature); }
    static double posteriorSd() { return std::sqrt(model->posteriorVariance(kTemperature)); }
};

// About 2000 draws: 1000 burn-in iterations from the posterior mean, then every thinning-th.
inline std::vector<double> thinnedChain(const core::Proposal &proposal, const std::string &method, std::uint64_t seed,
                                        int thinning = 30, double *acceptance = nullptr)
{
    core::RunConfig config;
    config.method = core::parseMethod(method);
    auto test = core::makeAcceptanceTest(config, GaussianMeanPosterior::correction);
    core::ChainSettings settings;
    settings.samples = 1000 + 2000 * static_cast<std::int64_t>(thinning);
    settings.seed = seed;
    settings.temperature = kTemperature;
    settings.initialTheta = core::Vector::Constant(1, GaussianMeanPosterior::posteriorMean());
    const core::ChainResult chain = core::runChain(*GaussianMeanPosterior::model, proposal, *test, settings);
    if (acceptance)
        *acceptance = static_cast<double>(std::count(chain.accepted.begin(), chain.accepted.end(), 1))
                      / static_cast<double>(chain.completed);
    std::vector<double> thinned;
    for (std::int64_t t = 1000; t < chain.completed; t += thinning)
        thinned.push_back(chain.samples(t, 0));
    return thinned;
}

// Σ (v − v̄)² / sd²: chi-squared with n − 1 degrees of freedom for independent N(·, sd²) draws.
inline double sampleVarianceRatio(const std::vector<double> &values, double sd)
{
    const Eigen::Map<const Eigen::ArrayXd> v(values.data(), static_cast<Eigen::Index>(values.size()));
    return (v - v.mean()).square().sum() / (sd * sd);
}

// The draws, nearly independent, against the exact posterior N(mean, sd²) at kTemperature:
// mean (z test), variance (chi-squared) and KS, each at α = 10⁻⁴.
inline void expectPosterior(const std::vector<double> &thinned)
{
    const double mean = GaussianMeanPosterior::posteriorMean();
    const double sd = GaussianMeanPosterior::posteriorSd();
    const double n = static_cast<double>(thinned.size());
    const double sampleMean =
        Eigen::Map<const Eigen::ArrayXd>(thinned.data(), static_cast<Eigen::Index>(thinned.size())).mean();

    const double alpha = 1e-4;
    const double meanTolerance = teststats::zCritical(alpha) * sd / std::sqrt(n);
    BOOST_TEST(std::abs(sampleMean - mean) < meanTolerance,
               "mean " << sampleMean << " vs " << mean << " (tolerance " << meanTolerance << ")");
    const double ratio = sampleVarianceRatio(thinned, sd);
    BOOST_TEST((ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2)),
               "variance " << ratio / (n - 1.0) * sd * sd << " vs " << sd * sd);
    const boost::math::normal posterior(mean, sd);
    const double d = teststats::ksStatistic(thinned, [&](double v) { return boost::math::cdf(posterior, v); });
    const double p = teststats::ksPValue(d, thinned.size());
    BOOST_TEST(p > alpha, "KS D = " << d << ", p = " << p);
}
