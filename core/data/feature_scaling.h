#pragma once
/// Standardisation of a user's features: each feature centred by its mean and divided by its
/// standard deviation, both taken from the training rows only, so that nothing of the test rows
/// leaks into the model. Tabular data come with features on wildly different scales (a glucose
/// level near 100 beside a pedigree score near 0.5); one proposal step size cannot suit both,
/// and the N(0, I) prior weighs them unequally. After scaling every feature has mean 0 and
/// standard deviation 1 on the training rows, and a weight reads as "per standard deviation".
#include <vector>

#include "core/data/classification_data.h"

namespace core {

struct FeatureScaling {
    std::vector<double> means; ///< one per feature, over the training rows
    /// Population standard deviations (divisor N, as scikit-learn's StandardScaler); a
    /// constant feature gets 1, so it is centred and not divided by zero.
    std::vector<double> sds;

    bool empty() const { return means.empty(); }
};

/// The means and standard deviations of `train`'s features, accumulated in double precision
/// (Welford's update, exact for features of any offset). On mapped rows this is a pass over
/// the file, announced (full_pass_notice.h). Throws std::invalid_argument when
/// `train` has no rows.
FeatureScaling fitFeatureScaling(const ClassificationData &train);

/// Replaces every feature x_j of `data` by (x_j − means_j) / sds_j, in place, and says so in
/// its description. Mapped rows are not copied: they are scaled as they are read. Throws std::invalid_argument when the feature counts differ.
void applyFeatureScaling(ClassificationData &data, const FeatureScaling &scaling);

} // namespace core
