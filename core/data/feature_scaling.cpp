#include "core/data/feature_scaling.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace core {

FeatureScaling fitFeatureScaling(const ClassificationData &train)
{
    const Eigen::Index n = train.features.rows(), d = train.features.cols();
    if (n == 0)
        throw std::invalid_argument("standardisation needs at least one training row");
    FeatureScaling scaling;
    scaling.means.assign(static_cast<std::size_t>(d), 0.0);
    std::vector<double> squares(static_cast<std::size_t>(d), 0.0);
    for (Eigen::Index r = 0; r < n; ++r)
        for (Eigen::Index j = 0; j < d; ++j) {
            const auto k = static_cast<std::size_t>(j);
            const double x = train.features(r, j);
            const double delta = x - scaling.means[k];
            scaling.means[k] += delta / static_cast<double>(r + 1);
            squares[k] += delta * (x - scaling.means[k]);
        }
    scaling.sds.resize(static_cast<std::size_t>(d));
    for (std::size_t k = 0; k < scaling.sds.size(); ++k) {
        const double sd = std::sqrt(squares[k] / static_cast<double>(n));
        scaling.sds[k] = sd > 0.0 ? sd : 1.0;
    }
    return scaling;
}

void applyFeatureScaling(ClassificationData &data, const FeatureScaling &scaling)
{
    const Eigen::Index d = data.features.cols();
    if (static_cast<std::size_t>(d) != scaling.means.size() || scaling.sds.size() != scaling.means.size())
        throw std::invalid_argument("standardisation: the data have " + std::to_string(d) + " features, the scaling "
                                    + std::to_string(scaling.means.size()));
    for (Eigen::Index r = 0; r < data.features.rows(); ++r)
        for (Eigen::Index j = 0; j < d; ++j) {
            const auto k = static_cast<std::size_t>(j);
            data.features(r, j) = static_cast<float>((data.features(r, j) - scaling.means[k]) / scaling.sds[k]);
        }
    data.description += "; standardized by the training rows' feature means and standard deviations";
}

} // namespace core
