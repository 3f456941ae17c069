// The logistic-regression experiment's data step (CSV and IDX sources, split, augmentation
// flag) and the accuracy trace of a chain.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <optional>
#include <string>

#include "core/acceptance/full_data_tests.h"
#include "core/data/idx_reader.h"
#include "core/experiment/inputs/logistic_dataset.h"
#include "tests/support/temporary_directory.h"

using namespace core;

using Suite = testfiles::SuiteDirectory; // the directory the test files are written to
BOOST_TEST_GLOBAL_FIXTURE(Suite);

BOOST_AUTO_TEST_CASE(csvSourceAndTrace)
{
    // Two separable blobs; labels "no"/"yes" map to 0/1 by text order.
    const std::string csv = Suite::dir->filePath("blobs.csv");
    std::ofstream file(csv);
    BOOST_TEST_REQUIRE(file.is_open());
    Rng rng(4);
    file << "label,x,y\n";
    for (int i = 0; i < 300; ++i) {
        const double sign = i % 2 ? 1.0 : -1.0;
        // Six significant digits (the stream's default), x drawn before y.
        file << (i % 2 ? "yes" : "no") << ',' << 2.0 * sign + 0.5 * rng.normal() << ',' << sign + 0.5 * rng.normal()
             << '\n';
    }
    file.close();

    LogisticDataSpec spec;
    spec.csv = csv;
    spec.testSize = 100;
    spec.model = {true, 5.0};
    const LogisticDataset dataset = makeLogisticDataset(spec);
    BOOST_TEST(dataset.train->size() == 200);
    BOOST_TEST(dataset.test->size() == 100);
    BOOST_TEST(dataset.model->dimension() == 3);
    BOOST_TEST(!dataset.augmented);
    BOOST_TEST(dataset.description.find("'no' (0) vs 'yes' (1)") != std::string::npos, dataset.description.c_str());

    MetropolisTest test;
    const RandomWalkProposal proposal(0.2);
    ChainSettings settings;
    settings.samples = 1000;
    const ChainResult chain = runChain(*dataset.model, proposal, test, settings);
    const ClassifierTrace trace = classifierTrace(*dataset.model, chain, *dataset.test, 100);
    BOOST_TEST_REQUIRE(trace.iteration.size() == std::size_t{10});
    BOOST_TEST(trace.iteration.back() == std::int64_t{999});
    BOOST_TEST(trace.dataUsed.back() == std::int64_t{1000} * 200); // full-data MH reads N per step
    BOOST_TEST(trace.accuracy.back() > 0.95, trace.accuracy.back());
    BOOST_CHECK_THROW(classifierTrace(*dataset.model, chain, *dataset.test, 0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(aTableWithItsLabelLastIsStandardisedOnTheTrainingRowsOnly)
{
    // The shape of the Pima diabetes table: a header, features on very different scales, the
    // label in the last column, one row with a missing value.
    const std::string csv = Suite::dir->filePath("diabetes.csv");
    std::ofstream file(csv);
    BOOST_TEST_REQUIRE(file.is_open());
    Rng rng(5);
    file << "Glucose;Pedigree;Outcome\n";
    for (int i = 0; i < 200; ++i)
        file << 120.0 + 30.0 * rng.normal() << ';' << 0.5 + 0.2 * rng.normal() << ';' << i % 2 << '\n';
    file << "NA;0.3;1\n";
    file.close();

    LogisticDataSpec spec;
    spec.csv = csv;
    spec.testSize = 50;
    spec.labelColumn = "Outcome";
    spec.dropMissing = true;
    spec.standardize = true;
    const LogisticDataset dataset = makeLogisticDataset(spec);
    BOOST_TEST_REQUIRE(dataset.train->size() == 150);
    BOOST_TEST(dataset.train->featureNames == (std::vector<std::string>{"Glucose", "Pedigree"}));
    BOOST_TEST_REQUIRE(dataset.scaling.means.size() == 2u);
    BOOST_TEST(dataset.scaling.means[0] > 100.0);
    for (Eigen::Index j = 0; j < 2; ++j) {
        const Eigen::VectorXd train = dataset.train->features.col(j).cast<double>();
        BOOST_TEST(std::abs(train.mean()) < 1e-5);
        BOOST_TEST(std::sqrt((train.array() - train.mean()).square().mean()) == 1.0, boost::test_tools::tolerance(1e-5));
        // The test rows were scaled with the training rows' figures, not their own: their mean
        // is near 0 but not 0.
        const Eigen::VectorXd test = dataset.test->features.col(j).cast<double>();
        BOOST_TEST(std::abs(test.mean()) > 1e-4);
        BOOST_TEST(std::abs(test.mean()) < 0.6);
    }
    BOOST_TEST(dataset.description.find("1 rows with a missing value dropped") != std::string::npos);
    BOOST_TEST(dataset.description.find("standardized") != std::string::npos);

    // Off: the features as read, and no scaling recorded.
    spec.standardize = false;
    const LogisticDataset raw = makeLogisticDataset(spec);
    BOOST_TEST(raw.scaling.empty());
    BOOST_TEST(raw.train->features.col(0).cast<double>().mean() > 100.0);
}

BOOST_AUTO_TEST_CASE(idxFilesWithAugmentation)
{
    std::vector<std::uint8_t> pixels(40 * 6 * 6, 0), labels(40);
    for (int i = 0; i < 40; ++i) {
        labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i % 2 ? 3 : 8);
        for (int r = 1; r < 5; ++r)
            pixels[static_cast<std::size_t>(i * 36 + r * 6 + (i % 2 ? 1 : 4))] = 255;
    }
    const std::string images = Suite::dir->filePath("i.gz"), labelFile = Suite::dir->filePath("l");
    writeIdxImages(images, pixels, 40, 6, 6, true);
    writeIdxLabels(labelFile, labels, false);
    LogisticDataSpec spec;
    spec.images = images;
    spec.labels = labelFile;
    spec.classes = {8, 3};
    spec.testSize = 10;
    spec.augmentTo = 90;
    const LogisticDataset dataset = makeLogisticDataset(spec);
    BOOST_TEST(dataset.train->size() == 90);
    BOOST_TEST(dataset.test->size() == 10);
    BOOST_TEST((dataset.augmented && !dataset.test->augmented));
    BOOST_TEST(dataset.description.find("AUGMENTED") != std::string::npos);

    spec.labels.clear();
    BOOST_CHECK_THROW(makeLogisticDataset(spec), std::invalid_argument);
    spec = {};
    spec.source = "no-such-source";
    BOOST_CHECK_THROW(makeLogisticDataset(spec), std::invalid_argument);
}

