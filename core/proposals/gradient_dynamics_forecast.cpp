#include "core/proposals/gradient_dynamics_forecast.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "core/diagnostics/effective_sample_size.h"

namespace core {

namespace {

// S = Σ_k M^k Q (M^k)ᵀ by doubling (Smith's method): after n rounds 2ⁿ terms are summed.
// Returns nothing when M^(2ⁿ) has not vanished by then (a spectral radius at or above 1).
std::optional<Eigen::MatrixXd> stationaryCovariance(Eigen::MatrixXd M, Eigen::MatrixXd Q)
{
    for (int round = 0; round < 64; ++round) {
        Q += M * Q * M.transpose();
        M = M * M;
        if (!M.allFinite() || !Q.allFinite())
            return std::nullopt;
        if (M.norm() < 1e-14)
            return Q;
    }
    return std::nullopt;
}

// z' = M z + w, w ~ N(0, Q): the header's two recursions.
struct LinearRecursion {
    Eigen::MatrixXd M, Q;
};

LinearRecursion recursionOf(GradientDynamics dynamics, const Eigen::MatrixXd &precision, const Eigen::MatrixXd &noise,
                            double step, double friction)
{
    const Eigen::Index d = precision.rows();
    const double epsilon = step * step;
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(d, d);
    LinearRecursion recursion;
    Eigen::MatrixXd &M = recursion.M, &Q = recursion.Q;
    if (dynamics == GradientDynamics::Langevin) {
        M = I - 0.5 * epsilon * precision;
        Q = epsilon * I + 0.25 * epsilon * epsilon * noise;
    } else {
        const Eigen::MatrixXd P = epsilon * epsilon * noise + 2.0 * friction * epsilon * I;
        M.resize(2 * d, 2 * d);
        M << I - epsilon * precision, (1.0 - friction) * I, -epsilon * precision, (1.0 - friction) * I;
        Q.resize(2 * d, 2 * d);
        Q << P, P, P, P;
    }
    return recursion;
}

// The stationary covariance of a stable recursion; nothing for one whose spectral radius is 1 or more.
std::optional<Eigen::MatrixXd> stableCovariance(const LinearRecursion &recursion)
{
    if (!(recursion.M.eigenvalues().cwiseAbs().maxCoeff() < 1.0))
        return std::nullopt;
    return stationaryCovariance(recursion.M, recursion.Q);
}

// The bulk ESS's truncated reading of a stable recursion's autocorrelations (the header's
// GradientDynamicsForecast::bulkEssAutocorrelation).
std::optional<double> truncatedReading(const LinearRecursion &recursion, const Eigen::MatrixXd &S, Eigen::Index d,
                                       std::int64_t draws)
{
    const std::ptrdiff_t length = draws / 2; // the estimate splits the chain into halves
    if (d > kMostTruncatedCoordinates || length < 4)
        return std::nullopt;
    double longest = 0.0;
    for (Eigen::Index j = 0; j < d; ++j) {
        Eigen::VectorXd lagged = S.col(j); // M^k S e_j, for the lag k reached
        std::ptrdiff_t reached = 0;
        bool capped = false;
        const auto rhoAt = [&](std::ptrdiff_t lag) {
            if (lag > kMostTruncatedLags) {
                capped = true;
                return 0.0; // a zero pair ends the sum; the figure is then not given
            }
            for (; reached < lag; ++reached)
                lagged = recursion.M * lagged;
            return lagged[j] / S(j, j);
        };
        const double tau = truncatedAutocorrelationTime(rhoAt, length);
        if (capped || !std::isfinite(tau))
            return std::nullopt;
        longest = std::max(longest, tau);
    }
    return longest;
}

} // namespace

GradientDynamicsForecast forecastGradientDynamics(GradientDynamics dynamics, const Eigen::MatrixXd &precision,
                                                  const Eigen::MatrixXd &noise, double step, double friction,
                                                  std::int64_t bulkEssDraws)
{
    const Eigen::Index d = precision.rows();
    const LinearRecursion recursion = recursionOf(dynamics, precision, noise, step, friction);
    const Eigen::MatrixXd &M = recursion.M;
    GradientDynamicsForecast forecast;
    const std::optional<Eigen::MatrixXd> S = stableCovariance(recursion);
    if (!S)
        return forecast;
    const Eigen::Index n = M.rows();
    const Eigen::MatrixXd lagSum = M * (Eigen::MatrixXd::Identity(n, n) - M).partialPivLu().solve(*S);
    const Eigen::MatrixXd posterior = precision.inverse();
    forecast.stable = true;
    for (Eigen::Index j = 0; j < d; ++j) {
        forecast.sdRatio = std::max(forecast.sdRatio, std::sqrt((*S)(j, j) / posterior(j, j)));
        forecast.autocorrelation = std::max(forecast.autocorrelation, 1.0 + 2.0 * lagSum(j, j) / (*S)(j, j));
    }
    if (bulkEssDraws > 0)
        forecast.bulkEssAutocorrelation = truncatedReading(recursion, *S, d, bulkEssDraws);
    return forecast;
}

std::optional<double> largestStepWithin(GradientDynamics dynamics, const Eigen::MatrixXd &precision,
                                        const Eigen::MatrixXd &noise, double friction, double sdTolerance,
                                        double startStep)
{
    // Shorter steps spread less (the bias grows with the step), so the steps within the
    // tolerance are the grid's tail: bisect for its first point.
    const auto within = [&](int k) {
        const GradientDynamicsForecast forecast =
            forecastGradientDynamics(dynamics, precision, noise, startStep * std::exp2(-0.25 * k), friction);
        return forecast.stable && forecast.sdRatio <= 1.0 + sdTolerance;
    };
    // 2⁻²⁰ of the first step: ε falls by 2⁴⁰, as far as a double still tells 1 − εP/2 from 1.
    constexpr int kLast = 80;
    if (!within(kLast))
        return std::nullopt;
    if (within(0))
        return startStep;
    int low = 0, high = kLast; // !within(low), within(high)
    while (high - low > 1) {
        const int middle = (low + high) / 2;
        (within(middle) ? high : low) = middle;
    }
    return startStep * std::exp2(-0.25 * high);
}

} // namespace core
