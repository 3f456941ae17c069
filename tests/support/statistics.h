#pragma once
// Exact reference quantities for the statistical tests: Barker and Metropolis acceptance
// probabilities, Kolmogorov–Smirnov p-values and chi-squared quantiles (Boost.Math).
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>

namespace teststats {

inline double barkerProbability(double delta) { return 1.0 / (1.0 + std::exp(-delta)); }
inline double metropolisProbability(double delta) { return std::min(1.0, std::exp(delta)); }

/// E[S(Δ + s Z)], Z ~ N(0, 1): the naive test's acceptance probability when Δ* ~ N(Δ, s²).
inline double smearedBarkerProbability(double delta, double sd)
{
    // Composite Simpson on [-10, 10] standard deviations; the integrand is smooth.
    const int n = 4000;
    const double h = 20.0 / n;
    double sum = 0.0;
    for (int k = 0; k <= n; ++k) {
        const double z = -10.0 + k * h;
        const double weight = (k == 0 || k == n) ? 1.0 : (k % 2 ? 4.0 : 2.0);
        sum += weight * barkerProbability(delta + sd * z) * std::exp(-0.5 * z * z);
    }
    return sum * h / 3.0 / std::sqrt(2.0 * M_PI);
}

/// Two-sided z such that a normal statistic exceeds it with probability alpha.
inline double zCritical(double alpha)
{
    return boost::math::quantile(boost::math::complement(boost::math::normal(), alpha / 2.0));
}

/// Upper quantile of chi-squared(df) at tail probability alpha.
inline double chiSquaredUpper(double df, double alpha)
{
    return boost::math::quantile(boost::math::complement(boost::math::chi_squared(df), alpha));
}
inline double chiSquaredLower(double df, double alpha)
{
    return boost::math::quantile(boost::math::chi_squared(df), alpha);
}

/// The sample variance of `draws` against `variance` by a two-sided χ² test at `alpha`, with
/// `effective` draws (the chain's ESS of them, at most their count) as its degrees of freedom
/// plus one. It resolves a variance ratio off 1 by about zCritical(alpha)·√(2/n): ±10 % (an sd
/// off by 5 %) at n = 3,000 and α = 10⁻⁴.
struct VarianceCheck {
    double ratio = 0.0;        ///< sample variance / `variance`
    double lower = 0.0;        ///< the ratios the test accepts: [lower, upper]
    double upper = 0.0;
    bool consistent() const { return ratio >= lower && ratio <= upper; }
};
inline VarianceCheck varianceAgainst(const std::vector<double> &draws, double variance, double effective, double alpha)
{
    const auto n = static_cast<double>(draws.size());
    double mean = 0.0;
    for (double x : draws)
        mean += x / n;
    double square = 0.0;
    for (double x : draws)
        square += (x - mean) * (x - mean);
    const double df = std::max(1.0, std::min(effective, n) - 1.0);
    VarianceCheck check;
    check.ratio = square / (n - 1.0) / variance;
    check.lower = chiSquaredLower(df, alpha / 2.0) / df;
    check.upper = chiSquaredUpper(df, alpha / 2.0) / df;
    return check;
}

/// One-sample KS statistic D_n of `values` against the continuous CDF `cdf`.
inline double ksStatistic(std::vector<double> values, const std::function<double(double)> &cdf)
{
    std::sort(values.begin(), values.end());
    const double n = static_cast<double>(values.size());
    double d = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double f = cdf(values[i]);
        d = std::max({d, (i + 1) / n - f, f - i / n});
    }
    return d;
}

/// Asymptotic KS p-value with Stephens' small-sample correction:
/// Q(λ) = 2 Σ_{k≥1} (−1)^{k−1} exp(−2k²λ²), λ = (√n + 0.12 + 0.11/√n) D.
inline double ksPValue(double d, std::size_t count)
{
    const double rootN = std::sqrt(static_cast<double>(count));
    const double lambda = (rootN + 0.12 + 0.11 / rootN) * d;
    if (lambda < 0.2)
        return 1.0;
    double sum = 0.0;
    for (int k = 1; k <= 100; ++k)
        sum += (k % 2 ? 2.0 : -2.0) * std::exp(-2.0 * k * k * lambda * lambda);
    return std::clamp(sum, 0.0, 1.0);
}

// Lag-1 autocorrelation of a series: the stationary suites thin their chains until it is near 0
// and then treat the draws as independent.
inline double lagOneCorrelation(const std::vector<double> &values)
{
    double mean = 0.0;
    for (double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    double lagged = 0.0, squares = 0.0;
    for (std::size_t t = 0; t < values.size(); ++t) {
        squares += (values[t] - mean) * (values[t] - mean);
        if (t + 1 < values.size())
            lagged += (values[t] - mean) * (values[t + 1] - mean);
    }
    return lagged / squares;
}

} // namespace teststats
