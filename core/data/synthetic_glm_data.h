#pragma once
/// Tall synthetic data for the generalised linear models (core/models/glm/glm_model.h), made
/// the way tall-logreg's are (synthetic_logistic_data.h): covariates with independent standard
/// normal entries and responses drawn from the model itself at a stated θ*, so the posterior
/// concentrates around θ* at the rate N^−1/2.
///
/// θ* gives every covariate the weight 1/√p (p covariates) and the intercept ½, so the linear
/// predictor z = x·θ* + ½ is N(½, 1) whatever the dimension: Poisson rates e^z stay moderate
/// (mean e ≈ 2.7) where weights of 1 would make them e^{±√p}. Responses:
///   probit  y ~ Bernoulli(Φ(z));   poisson  y ~ Poisson(e^z);
///   linear  y = z + σ ε, ε ~ N(0, 1);   robust-linear  y = z + s t, t ~ Student-t(ν), heavy tailed.
/// Rows are generated in blocks of kSyntheticBlockRows, each from its own stream of the seed,
/// so the rows depend on the seed and the sizes only.
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

#include "core/models/glm/glm_model.h"

namespace core {

struct SyntheticGlmSpec {
    std::int64_t rows = 100'000; ///< N, in [2, 10⁸]
    int features = 19;           ///< covariate columns p in [1, 10⁴]; the bias comes on top
    GlmFamilySpec family;        ///< the family and its noise parameters
    std::uint64_t seed = 1;
};

/// The true parameter θ* (p weights and the intercept last).
Vector syntheticGlmTruth(int features);

/// Generates the rows. `progress` (fraction done) is called between blocks; a stop request
/// ends generation with core::Cancelled. Throws std::invalid_argument naming the field for rows
/// or features out of range or bad model options, and std::length_error, before allocating,
/// when the rows would take more than the machine's physical memory.
GlmData generateSyntheticGlm(const SyntheticGlmSpec &spec, const std::function<void(double)> &progress = {},
                             std::stop_token stop = {});

/// Block `block` of the rows (rows block·kSyntheticBlockRows … up to spec.rows) into `features`
/// (row-major, spec.features a row) and `responses`, from `family` (makeGlmFamily(spec.family)):
/// the same rows, bit for bit, as generateSyntheticGlm() makes, without holding the others, for
/// writing them as a stream (`mh-explorer-cli dataset --dataset tall-glm`). Returns the rows
/// written (0 past the end). The spec is not checked here.
std::int64_t syntheticGlmBlock(const SyntheticGlmSpec &spec, const GlmFamily &family, std::int64_t block,
                               float *features, double *responses);

/// The data's one-line description ("synthetic Poisson regression …: N = …, seed 1").
std::string syntheticGlmDescription(const SyntheticGlmSpec &spec, const GlmFamily &family);

} // namespace core
