#pragma once
/// The worst-case Gaussian example of Seita et al. ("Minibatch Acceptance Test", Sec. 2.1, Lemma 1,
/// appendix its appendix A.1): x_i ~ N(0.5, 1) i.i.d., sampled with a flat prior and the proposal
/// N(θ, 1/N). With probability at least c ≈ 0.0085 per iteration, tests that separate Λ* from
/// ψ with tail bounds (AustereMH, MHSubLhd) need all N points.
#include <cstdint>

#include <Eigen/Core>

namespace core {

/// Draws N points from N(0.5, 1). Throws std::invalid_argument unless 1 ≤ size < 2^31.
Eigen::VectorXd generateWorstCaseGaussian(std::int64_t size, std::uint64_t seed);

} // namespace core
