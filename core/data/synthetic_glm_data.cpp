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

GlmData generateSyntheticGlm(const SyntheticGlmSpec &spec, const std::function<void(double)> &progress,
                             std::stop_token stop)
{
    if (spec.rows < 2 || spec.rows > 100'000'000)
        throw std::invalid_argument("n-data must be in [2, 100000000] for tall-glm; got " + std::to_string(spec.rows));
    if (spec.features < 1 || spec.features > 10'000)
        throw std::invalid_argument("tall-glm needs 1 to 10000 covariates (dimension minus the bias); got "
                                    + std::to_string(spec.features));
    const auto family = makeGlmFamily(spec.family); // checks the family's parameters
    requireFitsInMemory("tall-glm", spec.rows, spec.features, "covariates",
                        static_cast<double>(spec.rows)
                            * (static_cast<double>(spec.features) * sizeof(float) + sizeof(double)));

    GlmData data;
    data.features.resize(static_cast<Eigen::Index>(spec.rows), spec.features);
    data.response.resize(static_cast<std::size_t>(spec.rows));
    const Vector truth = syntheticGlmTruth(spec.features);
    const double weight = truth[0];
    const std::int64_t blocks = (spec.rows + kSyntheticBlockRows - 1) / kSyntheticBlockRows;
    for (std::int64_t block = 0; block < blocks; ++block) {
        if (stop.stop_requested())
            throw Cancelled("tall-glm data generation stopped");
        // Block k's own stream, as tall-logreg's blocks have theirs.
        Rng rng(spec.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(block) * 0xD1B54A32D192ED03ULL + 7);
        const std::int64_t first = block * kSyntheticBlockRows;
        const std::int64_t last = std::min<std::int64_t>(spec.rows, first + kSyntheticBlockRows);
        for (std::int64_t i = first; i < last; ++i) {
            float *row = data.features.row(static_cast<Eigen::Index>(i)).data();
            double margin = 0.0;
            for (int j = 0; j < spec.features; ++j) {
                row[j] = static_cast<float>(rng.normal());
                margin += weight * static_cast<double>(row[j]); // the stored floats are what the model sees
            }
            margin += truth[spec.features];
            data.response[static_cast<std::size_t>(i)] = family->sampleResponse(margin, rng);
        }
        if (progress)
            progress(static_cast<double>(block + 1) / static_cast<double>(blocks));
    }
    data.description = "synthetic " + family->describe() + ": N = " + std::to_string(spec.rows) + ", "
                       + std::to_string(spec.features) + " N(0, 1) covariates plus a bias, theta* = (1/sqrt("
                       + std::to_string(spec.features) + "), ..., 0.5), seed " + std::to_string(spec.seed);
    return data;
}

} // namespace core
