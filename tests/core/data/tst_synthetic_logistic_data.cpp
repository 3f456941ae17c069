// The tall synthetic logistic data (Cornish et al. 2019): the same data for a seed
// whatever the thread count, covariates that are standard normal (KS against Boost's normal),
// labels that follow σ(θ*ᵀx) (chi-squared over margin bins), a posterior mode that recovers
// θ* = (1, …, 1), and clear errors for sizes out of range.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>

#include "core/correction/cancelled.h"
#include "core/data/npy_array.h"
#include "core/data/npy_dataset.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/models/logistic_laplace.h"
#include "core/models/logistic_regression_model.h"
#include "tests/support/statistics.h"
#include "tests/support/temporary_directory.h"

using namespace core;

namespace {

SyntheticLogisticSpec spec(std::int64_t rows, int features, std::uint64_t seed, int threads)
{
    SyntheticLogisticSpec s;
    s.rows = rows;
    s.features = features;
    s.seed = seed;
    s.threads = threads;
    return s;
}

} // namespace

BOOST_AUTO_TEST_CASE(sameDataForASeedWhateverTheThreads)
{
    // Three blocks and a partial one: the blocks must land in the same rows from any thread.
    const std::int64_t rows = 3 * kSyntheticBlockRows + 1234;
    const ClassificationData one = generateSyntheticLogistic(spec(rows, 5, 7, 1));
    const ClassificationData three = generateSyntheticLogistic(spec(rows, 5, 7, 3));
    BOOST_TEST(one.size() == rows);
    BOOST_TEST(one.featureCount() == 5);
    BOOST_TEST((one.features == three.features));
    BOOST_TEST((one.labels == three.labels));
    const ClassificationData other = generateSyntheticLogistic(spec(rows, 5, 8, 1));
    BOOST_TEST(!(one.features == other.features));
    BOOST_TEST(one.bytes() == static_cast<std::size_t>(rows) * (5 * sizeof(float) + 1));
    BOOST_TEST(syntheticLogisticBytes(rows, 5) == one.bytes());
}

BOOST_AUTO_TEST_CASE(covariatesAreStandardNormal)
{
    const ClassificationData data = generateSyntheticLogistic(spec(200'000, 3, 11, 2));
    const boost::math::normal standard;
    for (int j = 0; j < data.featureCount(); ++j) {
        std::vector<double> column(static_cast<std::size_t>(data.size()));
        for (DataIndex i = 0; i < data.size(); ++i)
            column[static_cast<std::size_t>(i)] = data.features(i, j);
        const double d = teststats::ksStatistic(column, [&](double x) { return boost::math::cdf(standard, x); });
        BOOST_TEST_INFO("feature " << j << ": KS D = " << d);
        BOOST_TEST(teststats::ksPValue(d, column.size()) > 1e-3);
    }
    // Independent columns: the sample correlation of two is O(N^-1/2).
    double cross = 0.0;
    for (DataIndex i = 0; i < data.size(); ++i)
        cross += double(data.features(i, 0)) * data.features(i, 1);
    BOOST_TEST(std::abs(cross / data.size()) < 4.0 / std::sqrt(double(data.size())));
}

BOOST_AUTO_TEST_CASE(labelsFollowTheLogisticModelAtThetaStar)
{
    // Bin the rows by the true margin z = 1 + Σ x_j; in each bin the count of y = 1 is a sum of
    // Bernoulli(σ(z_i)): compare with its mean and variance (a chi-squared over the bins).
    const ClassificationData data = generateSyntheticLogistic(spec(300'000, 4, 3, 2));
    const int bins = 20;
    std::vector<double> observed(bins, 0.0), expected(bins, 0.0), variance(bins, 0.0);
    for (DataIndex i = 0; i < data.size(); ++i) {
        double z = 1.0;
        for (int j = 0; j < data.featureCount(); ++j)
            z += data.features(i, j);
        const int bin = std::clamp(static_cast<int>(std::floor((z + 5.0) / 10.0 * bins)), 0, bins - 1);
        const double p = 1.0 / (1.0 + std::exp(-z));
        observed[bin] += data.labels[static_cast<std::size_t>(i)];
        expected[bin] += p;
        variance[bin] += p * (1.0 - p);
    }
    double chi2 = 0.0;
    int used = 0;
    for (int b = 0; b < bins; ++b)
        if (variance[b] > 5.0) {
            chi2 += (observed[b] - expected[b]) * (observed[b] - expected[b]) / variance[b];
            ++used;
        }
    BOOST_TEST_INFO("chi2 " << chi2 << " over " << used << " bins");
    BOOST_TEST(used >= 15);
    BOOST_TEST(chi2 < teststats::chiSquaredUpper(used, 1e-3));
}

BOOST_AUTO_TEST_CASE(posteriorModeRecoversThetaStar)
{
    // With N = 50,000 rows the mode's error per weight is about 1/√(N·E[σ(1−σ)x²]) ≈ 0.01:
    // every weight, the bias included, must be within 6 of those of 1.
    auto data = std::make_shared<ClassificationData>(generateSyntheticLogistic(spec(50'000, 9, 5, 2)));
    LogisticRegressionOptions options;
    options.bias = true;
    options.priorSd = 1.0;
    const LogisticRegressionModel model(data, options);
    const GaussianApproximation fit = logisticLaplace(model, 1.0);
    BOOST_TEST(fit.mode.size() == 10);
    const Eigen::MatrixXd covariance = fit.covarianceFactor * fit.covarianceFactor.transpose();
    for (int j = 0; j < fit.mode.size(); ++j) {
        const double sd = std::sqrt(covariance(j, j));
        BOOST_TEST_INFO("weight " << j << ": " << fit.mode[j] << " +- " << sd);
        BOOST_TEST(std::abs(fit.mode[j] - 1.0) < 6.0 * sd);
    }
}

BOOST_AUTO_TEST_CASE(sizesOutOfRangeAreClearErrors)
{
    BOOST_CHECK_EXCEPTION(generateSyntheticLogistic(spec(1, 3, 1, 1)), std::invalid_argument,
                          [](const std::invalid_argument &e) { return std::string(e.what()).find("n-data") == 0; });
    BOOST_CHECK_THROW(generateSyntheticLogistic(spec(100, 0, 1, 1)), std::invalid_argument);
    BOOST_CHECK_THROW(generateSyntheticLogistic(spec(100, 10'001, 1, 1)), std::invalid_argument);
    // Checked before allocating: 2³¹ − 1 rows of 10⁴ features is 86 TB.
    BOOST_CHECK_THROW(generateSyntheticLogistic(spec(2'147'483'647, 10'000, 1, 1)), std::length_error);
}

BOOST_AUTO_TEST_CASE(aStopRequestEndsGeneration)
{
    std::stop_source source;
    int reports = 0;
    const auto progress = [&](double) {
        if (++reports == 2)
            source.request_stop();
    };
    BOOST_CHECK_THROW(generateSyntheticLogistic(spec(20 * kSyntheticBlockRows, 2, 1, 1), progress, source.get_token()),
                      Cancelled);
    BOOST_TEST(reports < 20);
}

// The rows written as a stream, block by block (the `dataset` export of data larger than
// memory), are the rows generated in memory, bit for bit; and an .npy file of them, with the
// label as the last column, reads back as the same data set.
BOOST_AUTO_TEST_CASE(blocksAreTheRowsGeneratedInMemory)
{
    SyntheticLogisticSpec spec;
    spec.rows = 2 * kSyntheticBlockRows + 123;
    spec.features = 3;
    spec.seed = 5;
    const ClassificationData whole = generateSyntheticLogistic(spec);
    std::vector<float> features(static_cast<std::size_t>(kSyntheticBlockRows) * 3);
    std::vector<std::uint8_t> labels(static_cast<std::size_t>(kSyntheticBlockRows));
    std::string raw;
    std::int64_t row = 0;
    for (std::int64_t block = 0; block < 4; ++block) {
        const std::int64_t count = syntheticLogisticBlock(spec, block, features.data(), labels.data());
        BOOST_TEST(count == (block < 2 ? kSyntheticBlockRows : block == 2 ? 123 : 0));
        for (std::int64_t r = 0; r < count; ++r, ++row) {
            for (int j = 0; j < 3; ++j)
                BOOST_TEST_REQUIRE(features[static_cast<std::size_t>(r * 3 + j)] == whole.features(row, j));
            BOOST_TEST_REQUIRE(labels[static_cast<std::size_t>(r)] == whole.labels[static_cast<std::size_t>(row)]);
            const float values[4] = {features[static_cast<std::size_t>(r * 3)], features[static_cast<std::size_t>(r * 3 + 1)],
                                     features[static_cast<std::size_t>(r * 3 + 2)], static_cast<float>(labels[static_cast<std::size_t>(r)])};
            raw.append(reinterpret_cast<const char *>(values), sizeof values);
        }
    }
    BOOST_TEST(row == spec.rows);
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("tall.npy");
    testfiles::writeFile(path, npyHeaderBytes("<f4", {spec.rows, 4}) + raw);
    const ClassificationData back = readNpyDataset(path, "", "-1");
    BOOST_TEST((back.features == whole.features));
    BOOST_TEST(back.labels == whole.labels);
}
