// Standardisation of a user's features: the training rows' means and sds, a constant feature
// left undivided, and the same scaling carried to rows it was not fitted on.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/data/feature_scaling.h"
#include "core/random/rng.h"

using namespace core;

namespace {

ClassificationData table(const FeatureMatrix &features)
{
    ClassificationData data;
    data.features = features;
    data.labels.assign(static_cast<std::size_t>(features.rows()), 0);
    data.description = "table";
    return data;
}

} // namespace

BOOST_AUTO_TEST_CASE(theTrainingRowsHaveMeanZeroAndSdOneAfterwards)
{
    // Scales as a clinical table has them: a glucose level, a pedigree score, and a large offset
    // (where a one-pass sum of squares would lose every digit in float).
    Rng rng(11);
    FeatureMatrix features(500, 3);
    for (Eigen::Index r = 0; r < features.rows(); ++r) {
        features(r, 0) = static_cast<float>(120.0 + 30.0 * rng.normal());
        features(r, 1) = static_cast<float>(0.5 + 0.3 * rng.uniform01());
        features(r, 2) = static_cast<float>(1.0e6 + rng.normal());
    }
    ClassificationData train = table(features);
    const FeatureScaling scaling = fitFeatureScaling(train);
    // Against a two-pass computation in double precision (population sd, divisor N).
    for (Eigen::Index j = 0; j < 3; ++j) {
        const Eigen::VectorXd column = features.col(j).cast<double>();
        const double mean = column.mean();
        const double sd = std::sqrt((column.array() - mean).square().mean());
        const auto k = static_cast<std::size_t>(j);
        BOOST_TEST(scaling.means[k] == mean, boost::test_tools::tolerance(1e-12));
        BOOST_TEST(scaling.sds[k] == sd, boost::test_tools::tolerance(1e-9));
    }
    applyFeatureScaling(train, scaling);
    for (Eigen::Index j = 0; j < 3; ++j) {
        const Eigen::VectorXd column = train.features.col(j).cast<double>();
        const double mean = column.mean();
        BOOST_TEST(std::abs(mean) < 1e-5, "feature " << j << " mean " << mean);
        BOOST_TEST(std::sqrt((column.array() - mean).square().mean()) == 1.0, boost::test_tools::tolerance(1e-5));
    }
    BOOST_TEST(train.description.find("standardized by the training rows'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(aConstantFeatureIsCentredNotDividedByZero)
{
    FeatureMatrix features(4, 2);
    features << 1.0f, 7.0f, 2.0f, 7.0f, 3.0f, 7.0f, 4.0f, 7.0f;
    ClassificationData data = table(features);
    const FeatureScaling scaling = fitFeatureScaling(data);
    BOOST_TEST(scaling.sds[1] == 1.0);
    applyFeatureScaling(data, scaling);
    BOOST_TEST(data.features.allFinite());
    BOOST_TEST(data.features.col(1).isZero());
}

BOOST_AUTO_TEST_CASE(otherRowsGetTheTrainingRowsScaling)
{
    FeatureMatrix trainRows(2, 1), testRows(1, 1);
    trainRows << 0.0f, 2.0f; // mean 1, sd 1
    testRows << 5.0f;
    const ClassificationData train = table(trainRows);
    ClassificationData test = table(testRows);
    applyFeatureScaling(test, fitFeatureScaling(train));
    BOOST_TEST(test.features(0, 0) == 4.0f);
    FeatureMatrix wide(1, 2);
    ClassificationData other = table(wide);
    BOOST_CHECK_THROW(applyFeatureScaling(other, fitFeatureScaling(train)), std::invalid_argument);
    BOOST_CHECK_THROW(fitFeatureScaling(table(FeatureMatrix(0, 2))), std::invalid_argument);
}
