#pragma once
// Logistic regressions small enough to integrate or enumerate: rows written out by hand, or the
// synthetic tall-data generator at a small N.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/data/synthetic_logistic_data.h"
#include "core/models/logistic_regression_model.h"

namespace testdata {

/// One feature per row, no bias: rows x with labels y (0/1), prior N(0, priorSd²) or flat (0).
inline std::shared_ptr<const core::LogisticRegressionModel> oneFeatureLogistic(const std::vector<float> &x,
                                                                               const std::vector<int> &y, double priorSd)
{
    auto data = std::make_shared<core::ClassificationData>();
    data->features.resize(static_cast<Eigen::Index>(x.size()), 1);
    for (std::size_t i = 0; i < x.size(); ++i) {
        data->features(static_cast<Eigen::Index>(i), 0) = x[i];
        data->labels.push_back(static_cast<std::uint8_t>(y[i]));
    }
    core::LogisticRegressionOptions options;
    options.priorSd = priorSd;
    return std::make_shared<const core::LogisticRegressionModel>(data, options);
}

/// The synthetic tall data (Gaussian covariates, θ* = 1) at N = rows, prior N(0, I).
inline std::shared_ptr<const core::LogisticRegressionModel> syntheticLogistic(std::int64_t rows, int features, bool bias,
                                                                              std::uint64_t seed)
{
    core::SyntheticLogisticSpec spec;
    spec.rows = rows;
    spec.features = features;
    spec.bias = bias;
    spec.seed = seed;
    core::LogisticRegressionOptions options;
    options.bias = bias;
    options.priorSd = 1.0;
    return std::make_shared<const core::LogisticRegressionModel>(
        std::make_shared<core::ClassificationData>(core::generateSyntheticLogistic(spec)), options);
}

} // namespace testdata
