#include "core/data/feature_scaling.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/data/full_pass_notice.h"

namespace core {

FeatureScaling fitFeatureScaling(const ClassificationData &train)
{
    const Eigen::Index n = train.size(), d = train.featureCount();
    if (n == 0)
        throw std::invalid_argument("standardisation needs at least one training row");
    if (train.mapped && train.mapped->scaled())
        throw std::invalid_argument("standardisation: the rows are standardised already");
    const FullPassNotice notice(train, "the features' means and standard deviations for --standardize");
    FeatureScaling scaling;
    scaling.means.assign(static_cast<std::size_t>(d), 0.0);
    std::vector<double> squares(static_cast<std::size_t>(d), 0.0);
    for (Eigen::Index r = 0; r < n; ++r) {
        const float *row = train.mapped ? train.mapped->stored(static_cast<DataIndex>(r)) : train.features.row(r).data();
        for (Eigen::Index j = 0; j < d; ++j) {
            const auto k = static_cast<std::size_t>(j);
            const double x = row[j];
            const double delta = x - scaling.means[k];
            scaling.means[k] += delta / static_cast<double>(r + 1);
            squares[k] += delta * (x - scaling.means[k]);
        }
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
    const Eigen::Index d = data.featureCount();
    if (static_cast<std::size_t>(d) != scaling.means.size() || scaling.sds.size() != scaling.means.size())
        throw std::invalid_argument("standardisation: the data have " + std::to_string(d) + " features, the scaling "
                                    + std::to_string(scaling.means.size()));
    std::vector<double> inverse(scaling.sds.size());
    for (std::size_t k = 0; k < inverse.size(); ++k)
        inverse[k] = 1.0 / scaling.sds[k];
    if (data.mapped) {
        // Never a copy of the file: each row is scaled as it is read, to the same floats.
        MappedFeatureRows rows = *data.mapped;
        rows.means = scaling.means;
        rows.inverseSds = inverse;
        data.mapped = std::make_shared<const MappedFeatureRows>(std::move(rows));
        data.description += "; standardized as read by the training rows' feature means and standard deviations";
        return;
    }
    for (Eigen::Index r = 0; r < data.features.rows(); ++r)
        for (Eigen::Index j = 0; j < d; ++j) {
            const auto k = static_cast<std::size_t>(j);
            data.features(r, j) = standardized(data.features(r, j), scaling.means[k], inverse[k]);
        }
    data.description += "; standardized by the training rows' feature means and standard deviations";
}

} // namespace core
