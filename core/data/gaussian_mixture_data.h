#pragma once
/// The Welling–Teh Gaussian mixture data set (Seita et al., "Minibatch Acceptance Test", Sec. 6.1,
/// Eq. 22).
///
///   x_i ~ ½ N(θ₁, σx²) + ½ N(θ₁ + θ₂, σx²),  σx² = 2,  true θ = (0, 1).
///
/// Generated from a seed, so the same (seed, N) gives bit-identical data on every run.
#include <cstdint>

#include <Eigen/Core>

namespace core {

struct GaussianMixtureSpec {
    std::int64_t size = 1'000'000;   ///< N, the number of points (≥ 1, < 2^31).
    std::uint64_t seed = 1;
    double theta1 = 0.0;             ///< true θ₁ used to generate the data
    double theta2 = 1.0;             ///< true θ₂
    double noiseVariance = 2.0;      ///< σx²
};

/// Draws the N points. Throws std::invalid_argument when size is out of range.
Eigen::VectorXd generateGaussianMixture(const GaussianMixtureSpec &spec);

} // namespace core
