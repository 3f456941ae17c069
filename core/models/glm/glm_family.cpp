#include "core/models/glm/glm_family.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <Eigen/Core>
#include <boost/random/poisson_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>

#include "core/io/number_format.h"
#include "core/models/plugin/plugin_family.h"
#include "core/random/rng.h"
#include "core/validation/range_checks.h"

namespace core {

void GlmFamily::logLikelihoodRatio(const double *y, const double *from, const double *to, double *out, int n) const
{
    constexpr int kMost = 256;
    double before[kMost];
    for (int start = 0; start < n; start += kMost) {
        const int count = std::min(kMost, n - start);
        logLikelihood(y + start, from + start, before, count);
        logLikelihood(y + start, to + start, out + start, count);
        for (int k = 0; k < count; ++k)
            out[start + k] -= before[k];
    }
}

std::optional<double> GlmFamily::derivativeBoundBelow(int k, double) const
{
    return derivativeBound(k);
}

namespace {

using ConstArray = Eigen::Map<const Eigen::ArrayXd>;
using Array = Eigen::Map<Eigen::ArrayXd>;

constexpr double kHalfLogTwoPi = 0.91893853320467274178; // ½ log 2π

// Below this, erfc(−u/√2) underflows soon after (u ≈ −38); the series is exact to rounding here.
constexpr double kAsymptoticBelow = -30.0;

// 1 − 1/u² + 3/u⁴ − 15/u⁶ + …: Φ(u) = φ(u)/(−u) times this (Abramowitz & Stegun 26.2.12).
double millsSeries(double u)
{
    const double w = 1.0 / (u * u);
    double term = 1.0, sum = 1.0;
    for (int k = 1; k <= 7; ++k) {
        term *= -(2.0 * k - 1.0) * w;
        sum += term;
    }
    return sum;
}

class ProbitFamily final : public GlmFamily {
public:
    std::string_view name() const override { return "probit"; }
    GlmResponse response() const override { return GlmResponse::Binary; }
    std::string describe() const override { return "probit regression, P(y = 1) = Phi(x'theta)"; }
    void logLikelihood(const double *y, const double *z, double *out, int n) const override
    {
        for (int k = 0; k < n; ++k)
            out[k] = logNormalCdf(y[k] > 0.5 ? z[k] : -z[k]);
    }
    // With s = 2y − 1 and u = s z: ℓ = log Φ(u), ℓ' = s λ(u), ℓ'' = −λ(u)(u + λ(u)), λ = φ/Φ.
    void derivatives(const double *y, const double *z, double *first, double *second, int n) const override
    {
        for (int k = 0; k < n; ++k) {
            const double s = y[k] > 0.5 ? 1.0 : -1.0;
            const double u = s * z[k];
            const double lambda = inverseMillsRatio(u);
            first[k] = s * lambda;
            second[k] = -lambda * (u + lambda);
        }
    }
    // λ' = −λ(u + λ) lies in (−1, 0) (Sampford 1953), so sup|ℓ''| = 1; ℓ''' = λ'' peaks at
    // u ≈ 1.0024 with 0.295719 (tests/core/models/tst_glm_family.cpp scans it), rounded up here.
    std::optional<double> derivativeBound(int k) const override
    {
        if (k == 2)
            return 1.0;
        if (k == 3)
            return 0.29572;
        return std::nullopt;
    }
    double sampleResponse(double z, Rng &rng) const override { return rng.normal() < z ? 1.0 : 0.0; } // P = Φ(z)
};

class PoissonFamily final : public GlmFamily {
public:
    std::string_view name() const override { return "poisson"; }
    GlmResponse response() const override { return GlmResponse::Count; }
    std::string describe() const override { return "Poisson regression with the log link, E y = exp(x'theta)"; }
    void logLikelihood(const double *y, const double *z, double *out, int n) const override
    {
        for (int k = 0; k < n; ++k)
            out[k] = y[k] * z[k] - std::exp(z[k]) - std::lgamma(y[k] + 1.0);
    }
    // y(z' − z) − (e^{z'} − e^z): log y! cancels.
    void logLikelihoodRatio(const double *y, const double *from, const double *to, double *out, int n) const override
    {
        const ConstArray Y(y, n), Z0(from, n), Z1(to, n);
        Array(out, n) = Y * (Z1 - Z0) - (Z1.exp() - Z0.exp());
    }
    void derivatives(const double *y, const double *z, double *first, double *second, int n) const override
    {
        for (int k = 0; k < n; ++k) {
            const double rate = std::exp(z[k]);
            first[k] = y[k] - rate;
            second[k] = -rate;
        }
    }
    std::optional<double> derivativeBound(int) const override { return std::nullopt; }
    // Every derivative of order ≥ 2 is −e^z; the first, y − e^z, grows with y.
    std::optional<double> derivativeBoundBelow(int k, double zMax) const override
    {
        if (k < 2)
            return std::nullopt;
        return std::exp(zMax);
    }
    double sampleResponse(double z, Rng &rng) const override
    {
        boost::random::poisson_distribution<std::int64_t, double> counts(std::exp(z));
        return static_cast<double>(counts(rng));
    }
};

class LinearFamily final : public GlmFamily {
public:
    explicit LinearFamily(double sd) : m_sd(sd), m_precision(1.0 / (sd * sd)), m_constant(-std::log(sd) - kHalfLogTwoPi) {}
    std::string_view name() const override { return "linear"; }
    GlmResponse response() const override { return GlmResponse::Real; }
    std::string describe() const override
    {
        return "linear regression with Gaussian noise of sd " + formatRoundTrip(m_sd);
    }
    void logLikelihood(const double *y, const double *z, double *out, int n) const override
    {
        for (int k = 0; k < n; ++k) {
            const double r = y[k] - z[k];
            out[k] = m_constant - 0.5 * m_precision * r * r;
        }
    }
    void logLikelihoodRatio(const double *y, const double *from, const double *to, double *out, int n) const override
    {
        const ConstArray Y(y, n), Z0(from, n), Z1(to, n);
        Array(out, n) = -0.5 * m_precision * ((Y - Z1).square() - (Y - Z0).square());
    }
    void derivatives(const double *y, const double *z, double *first, double *second, int n) const override
    {
        for (int k = 0; k < n; ++k) {
            first[k] = m_precision * (y[k] - z[k]);
            second[k] = -m_precision;
        }
    }
    // ℓ is quadratic in z: its second-order Taylor proxy is exact and every remainder is 0.
    std::optional<double> derivativeBound(int k) const override
    {
        if (k == 2)
            return m_precision;
        if (k == 3)
            return 0.0;
        return std::nullopt;
    }
    double sampleResponse(double z, Rng &rng) const override { return z + m_sd * rng.normal(); }

private:
    double m_sd, m_precision, m_constant;
};

// ℓ = log Γ((ν+1)/2) − log Γ(ν/2) − ½ log(νπ) − log s − ((ν+1)/2) log(1 + r²/(νs²)), r = y − z.
class StudentTFamily final : public GlmFamily {
public:
    StudentTFamily(double nu, double scale)
        : m_nu(nu), m_scale(scale), m_width(nu * scale * scale),
          m_constant(std::lgamma(0.5 * (nu + 1.0)) - std::lgamma(0.5 * nu) - 0.5 * std::log(nu * std::numbers::pi)
                     - std::log(scale))
    {
    }
    std::string_view name() const override { return "robust-linear"; }
    GlmResponse response() const override { return GlmResponse::Real; }
    std::string describe() const override
    {
        return "robust linear regression, Student-t noise with nu = " + formatRoundTrip(m_nu) + " and scale "
               + formatRoundTrip(m_scale);
    }
    void logLikelihood(const double *y, const double *z, double *out, int n) const override
    {
        const double half = 0.5 * (m_nu + 1.0);
        for (int k = 0; k < n; ++k) {
            const double r = y[k] - z[k];
            out[k] = m_constant - half * std::log1p(r * r / m_width);
        }
    }
    // −((ν+1)/2)·log((νs² + r'²)/(νs² + r²)): one vectorised log a point, the constants cancelled.
    void logLikelihoodRatio(const double *y, const double *from, const double *to, double *out, int n) const override
    {
        const ConstArray Y(y, n), Z0(from, n), Z1(to, n);
        Array(out, n) = -0.5 * (m_nu + 1.0) * ((m_width + (Y - Z1).square()) / (m_width + (Y - Z0).square())).log();
    }
    // ℓ' = (ν+1) r / (νs² + r²), ℓ'' = −(ν+1)(νs² − r²)/(νs² + r²)² (derivatives in z = y − r).
    void derivatives(const double *y, const double *z, double *first, double *second, int n) const override
    {
        for (int k = 0; k < n; ++k) {
            const double r = y[k] - z[k];
            const double denominator = m_width + r * r;
            first[k] = (m_nu + 1.0) * r / denominator;
            second[k] = -(m_nu + 1.0) * (m_width - r * r) / (denominator * denominator);
        }
    }
    // With r = s√ν·u: |ℓ'| = (ν+1)/(s√ν)·|u|/(1+u²) ≤ (ν+1)/(2s√ν) at u = 1;
    // |ℓ''| = (ν+1)/(νs²)·|1−u²|/(1+u²)² ≤ (ν+1)/(νs²) at u = 0;
    // |ℓ'''| = 2(ν+1)/(ν^{3/2}s³)·|u(3−u²)|/(1+u²)³, largest at u² = 3 − 2√2 where
    // u(3−u²)/(1+u²)³ = (3 + 2√2)/8.
    std::optional<double> derivativeBound(int k) const override
    {
        const double s = m_scale, nu = m_nu;
        if (k == 1)
            return (nu + 1.0) / (2.0 * s * std::sqrt(nu));
        if (k == 2)
            return (nu + 1.0) / (nu * s * s);
        if (k == 3)
            return (nu + 1.0) * (3.0 + 2.0 * std::numbers::sqrt2) / (4.0 * std::pow(nu, 1.5) * s * s * s);
        return std::nullopt;
    }
    double sampleResponse(double z, Rng &rng) const override
    {
        boost::random::student_t_distribution<double> noise(m_nu);
        return z + m_scale * noise(rng);
    }

private:
    double m_nu, m_scale, m_width, m_constant;
};

} // namespace

double logNormalCdf(double u)
{
    if (u < kAsymptoticBelow)
        return -0.5 * u * u - std::log(-u) - kHalfLogTwoPi + std::log(millsSeries(u));
    if (u > 0.0)
        return std::log1p(-0.5 * std::erfc(u / std::numbers::sqrt2));
    return std::log(0.5 * std::erfc(-u / std::numbers::sqrt2));
}

double inverseMillsRatio(double u)
{
    if (u < kAsymptoticBelow)
        return -u / millsSeries(u);
    return std::exp(-0.5 * u * u - kHalfLogTwoPi - logNormalCdf(u));
}

std::optional<std::string> responseProblem(GlmResponse kind, double y)
{
    if (!std::isfinite(y))
        return std::string("a response must be a finite number");
    switch (kind) {
    case GlmResponse::Binary:
        if (y != 0.0 && y != 1.0)
            return std::string("a binary response must be 0 or 1");
        break;
    case GlmResponse::Count:
        if (y < 0.0 || y != std::floor(y))
            return std::string("a count must be a non-negative integer");
        break;
    case GlmResponse::Real: break;
    }
    return std::nullopt;
}

const std::vector<std::string> &glmFamilyNames()
{
    static const std::vector<std::string> names = {"probit", "poisson", "linear", "robust-linear"};
    return names;
}

std::unique_ptr<const GlmFamily> makeGlmFamily(const GlmFamilySpec &spec)
{
    if (!spec.plugin.empty())
        return loadModelPlugin(spec.plugin);
    if (spec.name == "probit")
        return std::make_unique<ProbitFamily>();
    if (spec.name == "poisson")
        return std::make_unique<PoissonFamily>();
    if (spec.name == "linear") {
        requireFinitePositive("noise-scale", spec.noiseScale);
        return std::make_unique<LinearFamily>(spec.noiseScale);
    }
    if (spec.name == "robust-linear") {
        requireFinitePositive("nu", spec.nu);
        requireFinitePositive("noise-scale", spec.noiseScale);
        return std::make_unique<StudentTFamily>(spec.nu, spec.noiseScale);
    }
    throw std::invalid_argument("model must be probit, poisson, linear or robust-linear; got '" + spec.name + "'");
}

} // namespace core
