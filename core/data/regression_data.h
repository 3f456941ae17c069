#pragma once
/// A regression's rows, for the generalised linear models (core/models/glm/glm_model.h):
/// features as floats like a classification data set's (classification_data.h), and one
/// numeric response per row, kept in double.
#include <cstddef>
#include <string>
#include <vector>

#include "core/data/classification_data.h"

namespace core {

struct GlmData {
    FeatureMatrix features;        ///< N × d, without the bias column
    std::vector<double> response;  ///< N responses
    std::string description;       ///< one line for headers and summaries
    /// The features' names from a file's header, one per column of `features`; empty when the
    /// data have none (generated rows, a CSV without a header, LIBSVM, .npy).
    std::vector<std::string> featureNames;
    std::size_t bytes() const
    {
        return static_cast<std::size_t>(features.size()) * sizeof(float) + response.size() * sizeof(double);
    }
};

} // namespace core
