// Rows read in place from a memory-mapped .npy file give the same data set, split, scaling and
// model figures as the same array read into memory, bit for bit: so everything proven of the
// in-memory path (acceptance probabilities, stationary distributions) holds for the mapped one.
// What cannot be mapped says why; a NaN is found when its row is read; passes over a mapped
// file are announced once, the outermost pass speaking for the passes inside it.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/data/data_file.h"
#include "core/data/feature_scaling.h"
#include "core/data/full_pass_notice.h"
#include "core/data/npy_dataset.h"
#include "core/models/logistic_laplace.h"
#include "core/models/logistic_regression_model.h"
#include "core/random/rng.h"
#include "tests/support/gzip_bytes.h"
#include "tests/support/npy_file.h"
#include "tests/support/temporary_directory.h"

using namespace core;

using Suite = testfiles::SuiteDirectory; // the directory the test files are written to
BOOST_TEST_GLOBAL_FIXTURE(Suite);

namespace {

constexpr std::int64_t kRows = 3000;
constexpr int kFeatures = 7;

// kRows rows of kFeatures features on different scales and offsets, the label (0/1 from a
// logistic model) in column `labelColumn` (0-based), as float32.
std::vector<float> tableValues(std::size_t labelColumn, std::uint64_t seed = 5)
{
    Rng rng(seed);
    const std::size_t columns = kFeatures + 1;
    std::vector<float> values(static_cast<std::size_t>(kRows) * columns);
    for (std::int64_t r = 0; r < kRows; ++r) {
        double margin = 0.0;
        std::size_t j = 0;
        for (std::size_t c = 0; c < columns; ++c) {
            if (c == labelColumn)
                continue;
            const double x = (j + 1) * 3.0 * rng.normal() + 10.0 * static_cast<double>(j);
            values[static_cast<std::size_t>(r) * columns + c] = static_cast<float>(x);
            margin += (j % 2 ? 0.2 : -0.1) * (x - 10.0 * static_cast<double>(j)) / (j + 1.0);
            ++j;
        }
        values[static_cast<std::size_t>(r) * columns + labelColumn] = rng.uniform01() < 1.0 / (1.0 + std::exp(-margin)) ? 1.0f : 0.0f;
    }
    return values;
}

std::string writeTable(const std::string &name, const std::vector<float> &values, const char *descr = "<f4")
{
    const std::string path = Suite::dir->filePath(name);
    const std::string raw = std::string(descr) == "<f8" ? testfiles::rawBytes<double>(values) : testfiles::rawBytes<float>(values);
    testfiles::writeFile(path, testfiles::npyBytes(descr, {kRows, kFeatures + 1}, raw));
    return path;
}

void expectSameRows(const ClassificationData &inMemory, const ClassificationData &mapped)
{
    BOOST_TEST_REQUIRE(static_cast<bool>(mapped.mapped));
    BOOST_TEST_REQUIRE(!inMemory.mapped);
    BOOST_TEST_REQUIRE(mapped.size() == inMemory.size());
    BOOST_TEST_REQUIRE(mapped.featureCount() == inMemory.featureCount());
    BOOST_TEST((mapped.labels == inMemory.labels));
    BOOST_TEST((mapped.classNames == inMemory.classNames));
    std::vector<float> scratch(static_cast<std::size_t>(mapped.featureCount()));
    int differing = 0;
    for (DataIndex i = 0; i < mapped.size(); ++i) {
        const float *row = mapped.mapped->read(i, scratch.data());
        for (int j = 0; j < mapped.featureCount(); ++j)
            differing += row[j] == inMemory.features(i, j) ? 0 : 1;
    }
    BOOST_TEST(differing == 0);
}

struct Pair {
    ClassificationData inMemory, mapped;
};

Pair bothWays(const std::string &path, const std::string &labelColumn)
{
    return {readNpyDataset(path, "", labelColumn), mapNpyDataset(path, "", labelColumn)};
}

} // namespace

BOOST_AUTO_TEST_CASE(aMappedArrayHasTheRowsAndLabelsOfTheArrayReadIntoMemory)
{
    for (const auto &[column, name] : {std::pair{std::size_t{kFeatures}, std::string("-1")}, std::pair{std::size_t{0}, std::string("1")}}) {
        const std::string path = writeTable("label-" + name + ".npy", tableValues(column));
        const Pair data = bothWays(path, name);
        expectSameRows(data.inMemory, data.mapped);
        BOOST_TEST(data.mapped.bytes() == static_cast<std::size_t>(kRows)); // the labels alone are in memory
        BOOST_TEST(data.mapped.description.find("read in place (memory-mapped)") != std::string::npos);
        validate(data.mapped);
    }
}

BOOST_AUTO_TEST_CASE(aLabelFileServesAMappedArrayAsItServesOneInMemory)
{
    std::vector<float> features(static_cast<std::size_t>(kRows) * kFeatures);
    std::vector<std::uint8_t> labels(static_cast<std::size_t>(kRows));
    Rng rng(3);
    for (float &x : features)
        x = static_cast<float>(rng.normal());
    for (auto &y : labels)
        y = static_cast<std::uint8_t>(rng.uniformIndex(2));
    const std::string x = Suite::dir->filePath("x.npy"), y = Suite::dir->filePath("y.npy");
    testfiles::writeFile(x, testfiles::npyBytes("<f4", {kRows, kFeatures}, testfiles::rawBytes<float>(features)));
    testfiles::writeFile(y, testfiles::npyBytes("|u1", {kRows}, testfiles::rawBytes<std::uint8_t>(labels)));
    expectSameRows(readNpyDataset(x, y, ""), mapNpyDataset(x, y, ""));
}

BOOST_AUTO_TEST_CASE(aSplitByIndexHoldsOutAndKeepsTheRowsTheCopyingSplitDoes)
{
    const Pair data = bothWays(writeTable("split.npy", tableValues(kFeatures)), "-1");
    const TrainTestSplit copied = splitTrainTest(data.inMemory, 400, 11);
    const TrainTestSplit byIndex = splitTrainTest(data.mapped, 400, 11);
    BOOST_TEST(!byIndex.test.mapped); // the test rows are copied into memory
    BOOST_TEST((byIndex.test.features == copied.test.features));
    BOOST_TEST((byIndex.test.labels == copied.test.labels));
    expectSameRows(copied.train, byIndex.train);
    BOOST_TEST(byIndex.train.description.ends_with("; training rows after a random test split of 400 (seed 11)"));
    // A split of the training rows skips the rows of both splits: the lists merge.
    const TrainTestSplit copiedAgain = splitTrainTest(copied.train, 250, 4);
    const TrainTestSplit byIndexAgain = splitTrainTest(byIndex.train, 250, 4);
    BOOST_TEST((byIndexAgain.test.features == copiedAgain.test.features));
    expectSameRows(copiedAgain.train, byIndexAgain.train);
    BOOST_TEST(byIndexAgain.train.mapped->skipped.size() == 650u);
    // Splitting data given up (an rvalue) takes their labels and compacts them in place: the same split.
    ClassificationData givenUp = data.mapped;
    const TrainTestSplit taking = splitTrainTest(std::move(givenUp), 400, 11);
    BOOST_TEST((taking.test.features == copied.test.features));
    BOOST_TEST((taking.test.labels == copied.test.labels));
    expectSameRows(copied.train, taking.train);
}

BOOST_AUTO_TEST_CASE(rowsStandardisedAsTheyAreReadAreTheFloatsStandardisationStores)
{
    const Pair data = bothWays(writeTable("scale.npy", tableValues(kFeatures)), "-1");
    TrainTestSplit copied = splitTrainTest(data.inMemory, 300, 2);
    TrainTestSplit byIndex = splitTrainTest(data.mapped, 300, 2);
    const FeatureScaling fromMemory = fitFeatureScaling(copied.train);
    const FeatureScaling fromFile = fitFeatureScaling(byIndex.train);
    BOOST_TEST(fromFile.means == fromMemory.means, boost::test_tools::per_element());
    BOOST_TEST(fromFile.sds == fromMemory.sds, boost::test_tools::per_element());
    applyFeatureScaling(copied.train, fromMemory);
    applyFeatureScaling(byIndex.train, fromFile);
    BOOST_TEST(byIndex.train.mapped->scaled());
    expectSameRows(copied.train, byIndex.train);
    BOOST_CHECK_THROW(fitFeatureScaling(byIndex.train), std::invalid_argument); // scaled once only
}

BOOST_AUTO_TEST_CASE(theModelGivesTheSameFiguresFromRowsReadInPlace)
{
    const Pair data = bothWays(writeTable("model.npy", tableValues(kFeatures)), "-1");
    TrainTestSplit copied = splitTrainTest(data.inMemory, 200, 9);
    TrainTestSplit byIndex = splitTrainTest(data.mapped, 200, 9);
    const FeatureScaling scaling = fitFeatureScaling(copied.train);
    applyFeatureScaling(copied.train, scaling);
    applyFeatureScaling(byIndex.train, scaling);
    LogisticRegressionOptions options;
    options.bias = true;
    options.priorSd = 1.0;
    const LogisticRegressionModel memory(std::make_shared<const ClassificationData>(copied.train), options);
    const LogisticRegressionModel file(std::make_shared<const ClassificationData>(byIndex.train), options);
    BOOST_TEST(file.readsDataInPlace());
    BOOST_TEST(!memory.readsDataInPlace());

    Rng rng(21);
    Vector from(memory.dimension()), to(memory.dimension()), anchor(memory.dimension());
    for (int j = 0; j < memory.dimension(); ++j) {
        from[j] = 0.3 * rng.normal();
        to[j] = from[j] + 0.05 * rng.normal();
        anchor[j] = 0.3 * rng.normal();
    }
    std::vector<DataIndex> rows(500);
    for (auto &row : rows)
        row = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(memory.dataSize())));
    std::vector<double> a(rows.size()), b(rows.size());
    memory.logLikelihoodRatios(from, to, rows, a);
    file.logLikelihoodRatios(from, to, rows, b);
    BOOST_TEST(a == b, boost::test_tools::per_element());
    memory.logLikelihoodRatiosRange(from, to, 1000, a);
    file.logLikelihoodRatiosRange(from, to, 1000, b);
    BOOST_TEST(a == b, boost::test_tools::per_element());
    for (int order : {1, 2}) {
        memory.taylorResiduals(from, to, anchor, order, rows, a);
        file.taylorResiduals(from, to, anchor, order, rows, b);
        BOOST_TEST(a == b, boost::test_tools::per_element());
    }
    Vector gradientA, gradientB;
    memory.sumGradLogLikelihood(from, rows, gradientA);
    file.sumGradLogLikelihood(from, rows, gradientB);
    BOOST_TEST((gradientA == gradientB));
    BOOST_TEST(memory.logLikelihoodSum(from) == file.logLikelihoodSum(from));
    const auto sumsA = memory.taylorSums(anchor), sumsB = file.taylorSums(anchor);
    BOOST_TEST((sumsA.gradient == sumsB.gradient));
    // The Hessian's sum over N rows is a matrix product a block of rows at a time; rows read in
    // place come in blocks of their own, so the two sums may round apart: on an AMD EPYC build
    // with -march=native they differ by 1.1e-14 in entries of 660. Equal to 1e-13 relative, far
    // below any error of the rows themselves.
    BOOST_TEST((sumsA.hessian - sumsB.hessian).cwiseAbs().maxCoeff() <= 1e-13 * sumsA.hessian.cwiseAbs().maxCoeff());
    BOOST_TEST(memory.rowMaxAbsFeatures() == file.rowMaxAbsFeatures(), boost::test_tools::per_element());
    BOOST_TEST(*memory.pointLipschitzConstants() == *file.pointLipschitzConstants(), boost::test_tools::per_element());
    BOOST_TEST(memory.maxAbsFeature() == file.maxAbsFeature());
    BOOST_TEST(*memory.logLikelihoodRatioBound(from, to) == *file.logLikelihoodRatioBound(from, to));
    // The Laplace fit takes its Hessian from the proxies' sums (double) on a mapped file, from a
    // float Gram product in memory: the same mode to well within the posterior's width.
    const GaussianApproximation fitA = logisticLaplace(memory, 1.0), fitB = logisticLaplace(file, 1.0);
    BOOST_TEST((fitA.mode - fitB.mode).norm() < 1e-6);
}

BOOST_AUTO_TEST_CASE(aNonFiniteFeatureIsReportedWhenItsRowIsRead)
{
    std::vector<float> values = tableValues(kFeatures);
    values[17 * (kFeatures + 1) + 3] = std::numeric_limits<float>::quiet_NaN();
    const std::string path = writeTable("nan.npy", values);
    BOOST_CHECK_THROW(readNpyDataset(path, "", "-1"), std::runtime_error); // read into memory: at once
    auto data = std::make_shared<const ClassificationData>(mapNpyDataset(path, "", "-1")); // in place: not read yet
    const LogisticRegressionModel model(data);
    const Vector from = Vector::Constant(model.dimension(), 0.1), to = Vector::Constant(model.dimension(), 0.2);
    std::vector<DataIndex> clean = {0, 5, 16, 18};
    std::vector<double> out(4);
    model.logLikelihoodRatios(from, to, clean, out); // rows without the NaN are fine
    std::vector<DataIndex> withNan = {0, 17};
    try {
        model.logLikelihoodRatios(from, to, withNan, std::span<double>(out.data(), 2));
        BOOST_FAIL("the NaN in file row 18 was not reported");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST(message.find("nan.npy: file row 18, feature 4") != std::string::npos, message);
    }
    Vector gradient;
    BOOST_CHECK_THROW(model.sumGradLogLikelihood(from, withNan, gradient), std::runtime_error);
    BOOST_CHECK_THROW(model.logLikelihoodSum(from), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(whatCannotBeReadInPlaceSaysWhyAndHowElse)
{
    const std::vector<float> values = tableValues(kFeatures);
    const auto message = [](const std::string &path, const std::string &labels, const std::string &column) {
        try {
            mapNpyDataset(path, labels, column);
        } catch (const NotMappable &error) {
            return std::string(error.what());
        }
        return std::string("(no error)");
    };
    const std::string doubles = writeTable("doubles.npy", values, "<f8");
    BOOST_TEST(message(doubles, "", "-1").find("not little-endian float32") != std::string::npos);
    BOOST_TEST(message(doubles, "", "-1").find("--memory-map off") != std::string::npos);
    const std::string plain = writeTable("plain.npy", values);
    const std::string raw = testfiles::readFile(plain);
    const std::string gz = Suite::dir->filePath("table.npy.gz");
    const auto zipped = testfiles::gzipBytes(std::vector<std::uint8_t>(raw.begin(), raw.end()));
    testfiles::writeFile(gz, std::string(zipped.begin(), zipped.end()));
    BOOST_TEST(message(gz, "", "-1").find("gzipped") != std::string::npos);
    BOOST_TEST(message(plain, "", "3").find("neither the first nor the last") != std::string::npos);

    // Through the one way in: auto reads small or unmappable arrays into memory, on refuses them.
    DataFileRequest request;
    request.path = doubles;
    request.table.labelColumn = "-1";
    BOOST_TEST(!readDataFile(request).mapped);
    request.memoryMap = MemoryMap::On;
    BOOST_CHECK_THROW(readDataFile(request), NotMappable);
    request.path = plain;
    BOOST_TEST(static_cast<bool>(readDataFile(request).mapped));
    request.memoryMap = MemoryMap::Off;
    BOOST_TEST(!readDataFile(request).mapped);
    const std::string csv = Suite::dir->filePath("t.csv");
    testfiles::writeFile(csv, "label,x\n0,1\n1,2\n");
    request.path = csv;
    request.table.labelColumn = "";
    request.memoryMap = MemoryMap::On;
    try {
        readDataFile(request);
        BOOST_FAIL("a CSV file was mapped");
    } catch (const std::runtime_error &error) {
        BOOST_TEST(std::string(error.what()).find("--memory-map on reads NumPy .npy arrays") != std::string::npos);
    }
    BOOST_TEST((parseMemoryMap("off") == MemoryMap::Off));
    BOOST_CHECK_THROW(parseMemoryMap("yes"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(passesOverAMappedFileAreAnnouncedOnceByTheOutermostPass)
{
    std::vector<std::string> told;
    setFullPassListener([&told](const std::string &text) { told.push_back(text); });
    const Pair data = bothWays(writeTable("told.npy", tableValues(kFeatures)), "-1");
    // The label column was read by a pass of its own.
    BOOST_TEST_REQUIRE(told.size() == 2u);
    BOOST_TEST(told[0].find("reading all 3000 rows of told.npy") != std::string::npos, told[0]);
    BOOST_TEST(told[0].find("for the label column: about") != std::string::npos, told[0]);
    BOOST_TEST(told[1].find("read all rows for the label column in") != std::string::npos, told[1]);
    told.clear();
    fitFeatureScaling(data.inMemory);
    BOOST_TEST(told.empty()); // in memory: quick, not announced
    fitFeatureScaling(data.mapped);
    BOOST_TEST_REQUIRE(told.size() == 2u);
    BOOST_TEST(told[0].find("standard deviations for --standardize") != std::string::npos, told[0]);
    told.clear();
    LogisticRegressionOptions options;
    options.priorSd = 1.0;
    const LogisticRegressionModel model(std::make_shared<const ClassificationData>(data.mapped), options);
    BOOST_TEST(told.empty()); // no bound asked for yet: no pass
    logisticLaplace(model, 1.0);
    // Its Newton steps' passes (sums, log-likelihoods) are the fit's, announced as one.
    BOOST_TEST_REQUIRE(told.size() == 2u);
    BOOST_TEST(told[0].find("for the Laplace fit") != std::string::npos, told[0]);
    BOOST_TEST(told[0].find("a pass, up to 82 passes") != std::string::npos, told[0]);
    told.clear();
    logisticLaplace(model, 1.0); // the same pass again within the minute: not told twice
    BOOST_TEST(told.empty());
    setFullPassListener({});
}
