// Logistic regression: the vectorised minibatch kernel against a plain double loop, its
// consistency with the full-data sums, and a chain that learns a separable problem.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/acceptance/full_data_tests.h"
#include "core/chain/chain_runner.h"
#include "core/models/logistic_regression_model.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/random_classification.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

std::shared_ptr<ClassificationData> randomData(DataIndex n, int d, std::uint64_t seed)
{
    return testdata::randomClassification(n, d, seed);
}

// Two Gaussian blobs, label 1 around (+2, +1.5) and label 0 around (−2, −1.5): separable.
std::shared_ptr<ClassificationData> blobs(DataIndex n, std::uint64_t seed)
{
    Rng rng(seed);
    auto data = std::make_shared<ClassificationData>();
    data->features.resize(n, 2);
    data->labels.resize(static_cast<std::size_t>(n));
    for (DataIndex i = 0; i < n; ++i) {
        const bool positive = i % 2 == 0;
        const double sign = positive ? 1.0 : -1.0;
        data->features(i, 0) = static_cast<float>(2.0 * sign + 0.6 * rng.normal());
        data->features(i, 1) = static_cast<float>(1.5 * sign + 0.6 * rng.normal());
        data->labels[static_cast<std::size_t>(i)] = positive ? 1 : 0;
    }
    return data;
}

// The textbook per-point log-likelihood, one row at a time, in double.
double scalarLogLikelihood(const ClassificationData &data, DataIndex row, const Vector &theta, bool bias)
{
    double z = bias ? theta[data.featureCount()] : 0.0;
    for (int j = 0; j < data.featureCount(); ++j)
        z += static_cast<double>(data.features(row, j)) * theta[j];
    const double u = data.labels[static_cast<std::size_t>(row)] ? z : -z;
    return -(std::max(-u, 0.0) + std::log1p(std::exp(-std::abs(u))));
}

Vector randomTheta(int dim, double scale, Rng &rng)
{
    Vector theta(dim);
    for (int j = 0; j < dim; ++j)
        theta[j] = scale * rng.normal();
    return theta;
}

} // namespace

struct KernelRow {
    std::string name;
    int features;
    bool bias;
    double scale;
};
std::ostream &operator<<(std::ostream &out, const KernelRow &row) { return out << row.name; }

const std::vector<KernelRow> kKernelRows = {
    {"d=37", 37, false, 3.0},
    {"d=37, bias", 37, true, 3.0},
    {"d=784", 784, false, 0.6},
    {"d=1100 (two segments), bias", 1100, true, 0.5},
};

// Relative to the size of the two log-likelihoods: the ratio itself may cancel to ~0.
BOOST_DATA_TEST_CASE(ratiosMatchScalarLoop, data::make(kKernelRows), row)
{
    const auto &[name, features, bias, scale] = row;
    const auto data = randomData(300, features, 11);
    const LogisticRegressionModel model(data, {bias, 0.0});
    Rng rng(5);
    const Vector from = randomTheta(model.dimension(), scale, rng);
    const Vector to = randomTheta(model.dimension(), scale, rng);
    // 150 rows (two full blocks and a partial one), in random order, with repeats.
    std::vector<DataIndex> rows(150);
    for (auto &row : rows)
        row = static_cast<DataIndex>(rng.uniformIndex(300));
    std::vector<double> out(rows.size());
    model.logLikelihoodRatios(from, to, rows, out);

    double worst = 0.0, largestMargin = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const double a = scalarLogLikelihood(*data, rows[k], from, bias);
        const double b = scalarLogLikelihood(*data, rows[k], to, bias);
        largestMargin = std::max({largestMargin, -a, -b});
        const double error = std::abs(out[k] - (b - a)) / (std::abs(a) + std::abs(b));
        worst = std::max(worst, error);
    }
    BOOST_TEST(worst < 1e-12, "worst relative error " << worst);
    BOOST_TEST(largestMargin > 10.0, "the test should reach confidently wrong points too");
}

// Image features k/255 (as the IDX loader makes them, rounded to float) are read as pixel
// bytes: the ratios, gradients and sums must then be those of the exact k/255 in double, to
// rounding. The floats' own rounding (up to 3·10⁻⁸ relative a feature) is far larger, so the
// comparison also shows which rows the kernels read. One feature off the pixel grid sends every
// kernel back to the floats, which must then match the floats' values.
BOOST_AUTO_TEST_CASE(pixelFeaturesAreReadAsBytes)
{
    const DataIndex n = 300;
    const int d = 100; // a tail past the blocks of 32 and 8
    Rng rng(21);
    auto pixels = std::make_shared<ClassificationData>();
    pixels->features.resize(n, d);
    pixels->labels.resize(static_cast<std::size_t>(n));
    Eigen::MatrixXd exact(n, d);
    for (DataIndex i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) {
            const auto k = static_cast<int>(rng.uniformIndex(4) == 0 ? 0 : rng.uniformIndex(256));
            pixels->features(i, j) = static_cast<float>(k) / 255.0f;
            exact(i, j) = k / 255.0;
        }
        pixels->labels[static_cast<std::size_t>(i)] = rng.uniformIndex(2) == 1;
    }
    auto offGrid = std::make_shared<ClassificationData>(*pixels);
    offGrid->features(7, 3) = 0.3f; // not k/255 for any byte k
    const Vector from = randomTheta(d, 0.3, rng), to = randomTheta(d, 0.3, rng);
    std::vector<DataIndex> rows(120);
    for (auto &row : rows)
        row = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));

    const auto check = [&](const std::shared_ptr<ClassificationData> &data, const Eigen::MatrixXd &features,
                           const char *what) {
        const LogisticRegressionModel model(data, {false, 0.0});
        const auto pointLogLikelihood = [&](DataIndex i, const Vector &theta) {
            const double z = features.row(i).dot(theta);
            const double u = data->labels[static_cast<std::size_t>(i)] ? z : -z;
            return -(std::max(-u, 0.0) + std::log1p(std::exp(-std::abs(u))));
        };
        std::vector<double> ratios(rows.size());
        model.logLikelihoodRatios(from, to, rows, ratios);
        Vector gradient(d), expectedGradient = Vector::Zero(d);
        model.sumGradLogLikelihood(from, rows, gradient);
        double worstRatio = 0.0;
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const double a = pointLogLikelihood(rows[k], from), b = pointLogLikelihood(rows[k], to);
            worstRatio = std::max(worstRatio, std::abs(ratios[k] - (b - a)) / (std::abs(a) + std::abs(b)));
            const double z = features.row(rows[k]).dot(from);
            const double s = data->labels[static_cast<std::size_t>(rows[k])] ? 1.0 : -1.0;
            expectedGradient += s / (1.0 + std::exp(s * z)) * features.row(rows[k]).transpose();
        }
        double sum = 0.0;
        for (DataIndex i = 0; i < n; ++i)
            sum += pointLogLikelihood(i, from);
        BOOST_TEST_CONTEXT(what)
        {
            BOOST_TEST(worstRatio < 1e-12);
            BOOST_TEST((gradient - expectedGradient).norm() < 1e-12 * expectedGradient.norm());
            BOOST_TEST(std::abs(model.logLikelihoodSum(from) - sum) < 1e-12 * std::abs(sum));
        }
    };
    check(pixels, exact, "pixel bytes against the exact k/255");
    check(offGrid, offGrid->features.cast<double>(), "one feature off the grid: floats");
    // The floats differ from k/255 by their rounding: what the first check could tell apart.
    BOOST_TEST((pixels->features.cast<double>() - exact).cwiseAbs().maxCoeff() > 1e-10);
}

BOOST_AUTO_TEST_CASE(tinyLogLikelihoodsKeepRelativePrecision)
{
    // Margins of ±40: log σ(40) ≈ −4.2e-18, where log(1 + e^−40) would round to 0.
    auto data = std::make_shared<ClassificationData>();
    data->features.resize(2, 1);
    data->features << 1.0f, 1.0f;
    data->labels = {1, 0};
    const LogisticRegressionModel model(data);
    const Vector from = Vector::Constant(1, 40.0), to = Vector::Constant(1, 41.0);
    std::vector<double> out(2);
    model.logLikelihoodRatiosRange(from, to, 0, out);
    const double expected = LogisticRegressionModel::logSigmoid(41.0) - LogisticRegressionModel::logSigmoid(40.0);
    BOOST_TEST(expected > 0.0);
    BOOST_TEST(std::abs(out[0] - expected) <= 1e-12 * std::abs(expected), out[0]);
    BOOST_TEST(std::abs(out[1] - (-1.0 - std::log1p(std::exp(-41.0)) + std::log1p(std::exp(-40.0)))) < 1e-12);
}

BOOST_AUTO_TEST_CASE(ratiosAgreeWithSums)
{
    const auto data = randomData(1000, 50, 21);
    const LogisticRegressionModel model(data, {true, 0.0});
    Rng rng(8);
    const Vector from = randomTheta(model.dimension(), 0.8, rng);
    const Vector to = randomTheta(model.dimension(), 0.8, rng);

    double scalarSum = 0.0;
    for (DataIndex i = 0; i < data->size(); ++i)
        scalarSum += scalarLogLikelihood(*data, i, from, true);
    const double sumFrom = model.logLikelihoodSum(from), sumTo = model.logLikelihoodSum(to);
    BOOST_TEST(std::abs(sumFrom - scalarSum) < 1e-12 * std::abs(scalarSum));

    const double ratioSum = model.logLikelihoodRatioSum(from, to);
    BOOST_TEST(std::abs(ratioSum - (sumTo - sumFrom)) < 1e-11 * (std::abs(sumTo) + std::abs(sumFrom)),
               ratioSum << " vs " << sumTo - sumFrom);

    // The gathered and the contiguous paths are the same kernel: identical results.
    std::vector<DataIndex> all(static_cast<std::size_t>(data->size()));
    for (DataIndex i = 0; i < data->size(); ++i)
        all[static_cast<std::size_t>(i)] = i;
    std::vector<double> gathered(all.size()), contiguous(all.size());
    model.logLikelihoodRatios(from, to, all, gathered);
    model.logLikelihoodRatiosRange(from, to, 0, contiguous);
    BOOST_TEST(gathered == contiguous);

    BOOST_TEST(testcheck::nearlyEqual(model.meanLogLikelihood(from, *data), sumFrom / 1000.0));

    const double largest = model.maxAbsLogLikelihoodRatio(from, to);
    const double bound = model.logLikelihoodRatioBound(from, to).value();
    BOOST_TEST((largest <= bound && bound < 100.0 * largest), largest << " vs " << bound);
}

// The data-wide bounds (the largest row norm, MHSubLhd's range C = max‖x_i‖·‖θ' − θ‖ plus the
// bias, and the largest feature, the control variates' and SMH's derivative bound) are maxima over
// every row: one row far past the first thousand with features ten times the others' sets both,
// and a move along that row reaches |ℓ_i(θ') − ℓ_i(θ)| close to the bound. A bound taken from a
// prefix of the data would be about ten times too small and below the largest ratio. Exact
// arithmetic on fixed data: nothing random to allow for.
BOOST_AUTO_TEST_CASE(dataBoundsCoverEveryRow)
{
    const auto data = randomData(5000, 4, 23);
    const DataIndex far = 4321;
    for (int j = 0; j < 4; ++j)
        data->features(far, j) = static_cast<float>(10.0 * (j % 2 ? -2.0 : 2.0));
    data->labels[static_cast<std::size_t>(far)] = 0; // ℓ falls by 1.43 over the move: 0.72 of the bound
    const LogisticRegressionModel model(data, {true, 0.0});
    double largestNorm = 0.0, largestFeature = 1.0; // the bias's 1
    for (DataIndex i = 0; i < data->size(); ++i) {
        largestNorm = std::max(largestNorm, static_cast<double>(data->features.row(i).cast<double>().norm()));
        largestFeature = std::max(largestFeature, static_cast<double>(data->features.row(i).cwiseAbs().maxCoeff()));
    }
    BOOST_TEST(model.maxAbsFeature() == largestFeature);
    Vector from = Vector::Zero(model.dimension()), to = from;
    for (int j = 0; j < 4; ++j)
        to[j] = 0.05 * data->features(far, j) / largestNorm; // ‖θ' − θ‖ = 0.05 along the far row
    const double largest = model.maxAbsLogLikelihoodRatio(from, to);
    const double bound = model.logLikelihoodRatioBound(from, to).value();
    BOOST_TEST(bound == largestNorm * 0.05, boost::test_tools::tolerance(1e-6));
    BOOST_TEST((largest <= bound && largest > 0.45 * bound), largest << " vs " << bound);
}

BOOST_AUTO_TEST_CASE(priorAndChecks)
{
    const auto data = randomData(10, 3, 1);
    const LogisticRegressionModel flat(data);
    const LogisticRegressionModel gaussian(data, {false, 2.0});
    const Vector theta = Vector::Constant(3, 1.0);
    BOOST_TEST(testcheck::nearlyEqual(flat.logPrior(theta), 0.0));
    BOOST_TEST(testcheck::nearlyEqual(gaussian.logPrior(theta), -0.5 * 3.0 / 4.0));
    BOOST_TEST(flat.dimension() == 3);
    BOOST_TEST(LogisticRegressionModel(data, {true, 0.0}).dimension() == 4);
    BOOST_CHECK_THROW(LogisticRegressionModel(data, {false, -1.0}), std::invalid_argument);
    BOOST_CHECK_THROW(flat.accuracy(Vector::Zero(4), *data), std::invalid_argument);
    const auto other = randomData(5, 4, 2);
    BOOST_CHECK_THROW(flat.accuracy(Vector::Zero(3), *other), std::invalid_argument);
    auto bad = randomData(5, 3, 3);
    bad->labels[2] = 2;
    BOOST_CHECK_THROW(LogisticRegressionModel{bad}, std::invalid_argument);
}

BOOST_DATA_TEST_CASE(chainLearnsSeparableData, data::make(std::vector<std::string>{"mh", "barker"}), method)
{
    const auto train = blobs(400, 3), test = blobs(400, 4);
    const LogisticRegressionModel model(train, {true, 5.0});
    MetropolisTest metropolis;
    BarkerTest barker;
    AcceptanceTest &acceptance = method == "mh" ? static_cast<AcceptanceTest &>(metropolis) : barker;
    const RandomWalkProposal proposal(0.15);
    ChainSettings settings;
    settings.samples = 3000;
    settings.seed = 17;
    const ChainResult chain = runChain(model, proposal, acceptance, settings);
    BOOST_TEST(chain.completed == settings.samples);
    BOOST_TEST(testcheck::nearlyEqual(model.accuracy(Vector::Zero(3), *test), 0.5)); // z = 0 predicts label 0

    double meanAccuracy = 0.0;
    int counted = 0;
    for (std::int64_t t = 1500; t < chain.completed; t += 50, ++counted)
        meanAccuracy += model.accuracy(chain.samples.row(t).transpose(), *test);
    meanAccuracy /= counted;
    BOOST_TEST(meanAccuracy > 0.95, "mean test accuracy " << meanAccuracy);
    const Vector last = chain.samples.row(chain.completed - 1).transpose();
    BOOST_TEST(model.meanLogLikelihood(last, *test) > std::log(0.5));
    // The one-pass figures are the two separate ones.
    for (std::int64_t t = 0; t < chain.completed; t += 499) {
        const Vector theta = chain.samples.row(t).transpose();
        const ClassifierFit fit = model.fit(theta, *test);
        BOOST_TEST(testcheck::nearlyEqual(fit.accuracy, model.accuracy(theta, *test)));
        BOOST_TEST(testcheck::nearlyEqual(fit.meanLogLikelihood, model.meanLogLikelihood(theta, *test)));
    }
    BOOST_CHECK_THROW(model.fit(Vector::Zero(2), *test), std::invalid_argument);
}

