#include "core/data/synthetic_glm_data.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>


#include "core/correction/cancelled.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/io/atomic_file.h"
#include "core/random/rng.h"

namespace core {

Vector syntheticGlmTruth(int features)
{
    Vector truth = Vector::Constant(features + 1, 1.0 / std::sqrt(static_cast<double>(features)));
    truth[features] = 0.5;
    return truth;
}

namespace {

void checkSpec(const SyntheticGlmSpec &spec)
{
    if (spec.rows < 2 || spec.rows > 100'000'000)
        throw std::invalid_argument("n-data must be in [2, 100000000] for tall-glm; got " + std::to_string(spec.rows));
    if (spec.features < 1 || spec.features > 10'000)
        throw std::invalid_argument("tall-glm needs 1 to 10000 covariates (dimension minus the bias); got "
                                    + std::to_string(spec.features));
}

} // namespace

std::int64_t syntheticGlmBlock(const SyntheticGlmSpec &spec, const GlmFamily &family, std::int64_t block,
                               float *features, double *responses)
{
    const std::int64_t first = block * kSyntheticBlockRows;
    const std::int64_t last = std::min<std::int64_t>(spec.rows, first + kSyntheticBlockRows);
    if (block < 0 || first >= last)
        return 0;
    const double weight = 1.0 / std::sqrt(static_cast<double>(spec.features)); // syntheticGlmTruth's weights
    const double intercept = 0.5;
    // Block k's own stream, as tall-logreg's blocks have theirs.
    Rng rng(spec.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(block) * 0xD1B54A32D192ED03ULL + 7);
    for (std::int64_t i = 0; i < last - first; ++i) {
        float *row = features + i * spec.features;
        double margin = 0.0;
        for (int j = 0; j < spec.features; ++j) {
            row[j] = static_cast<float>(rng.normal());
            margin += weight * static_cast<double>(row[j]); // the stored floats are what the model sees
        }
        margin += intercept;
        responses[i] = family.sampleResponse(margin, rng);
    }
    return last - first;
}

GlmData generateSyntheticGlm(const SyntheticGlmSpec &spec, const std::function<void(double)> &progress,
                             std::stop_token stop)
{
    checkSpec(spec);
    const auto family = makeGlmFamily(spec.family); // checks the family's parameters
    requireFitsInMemory("tall-glm", spec.rows, spec.features, "covariates",
                        static_cast<double>(spec.rows)
                            * (static_cast<double>(spec.features) * sizeof(float) + sizeof(double)));

    GlmData data;
    data.features.resize(static_cast<Eigen::Index>(spec.rows), spec.features);
    data.response.resize(static_cast<std::size_t>(spec.rows));
    const std::int64_t blocks = (spec.rows + kSyntheticBlockRows - 1) / kSyntheticBlockRows;
    for (std::int64_t block = 0; block < blocks; ++block) {
        if (stop.stop_requested())
            throw Cancelled("tall-glm data generation stopped");
        const std::int64_t first = block * kSyntheticBlockRows;
        syntheticGlmBlock(spec, *family, block, data.features.row(static_cast<Eigen::Index>(first)).data(),
                          data.response.data() + first);
        if (progress)
            progress(static_cast<double>(block + 1) / static_cast<double>(blocks));
    }
    data.description = syntheticGlmDescription(spec, *family);
    return data;
}

std::string syntheticGlmDescription(const SyntheticGlmSpec &spec, const GlmFamily &family)
{
    return "synthetic " + family.describe() + ": N = " + std::to_string(spec.rows) + ", "
           + std::to_string(spec.features) + " N(0, 1) covariates plus a bias, theta* = (1/sqrt("
           + std::to_string(spec.features) + "), ..., 0.5), seed " + std::to_string(spec.seed);
}

} // namespace core
