// Class selection, the seeded train/test split and image augmentation: deterministic,
// label-preserving, and always marked as augmented.
#include <boost/test/unit_test.hpp>

#include <numeric>
#include <set>

#include "core/data/augmentation.h"
#include "core/data/classification_data.h"
#include "tests/support/nearly_equal.h"

using namespace core;

namespace {

// `count` 8×8 images of a vertical bar at a column that depends on the label.
ClassificationData bars(int count)
{
    ClassificationData data;
    data.features = FeatureMatrix::Zero(count, 64);
    data.labels.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const int label = i % 2;
        for (int r = 1; r < 7; ++r)
            data.features(i, r * 8 + (label ? 5 : 2)) = 1.0f;
        data.labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(label);
    }
    data.imageRows = 8;
    data.imageCols = 8;
    data.description = "bars";
    return data;
}

} // namespace

BOOST_AUTO_TEST_CASE(discriminativeFeaturesOrderByStandardisedGap)
{
    ClassificationData data;
    data.features.resize(6, 4);
    // feature 0: blank everywhere; 1: gap 1 with noise 0.5; 2: gap 100 in large units but
    // noise 400 (a poor separator); 3: gap 1 with noise 0.1 (the best separator)
    data.features << 0, 0.0f, 0, 0.0f, //
        0, 1.0f, 800, 0.2f,            //
        0, 0.5f, 400, 0.1f,            //
        0, 1.0f, 100, 1.0f,            //
        0, 2.0f, 900, 1.2f,            //
        0, 1.5f, 500, 1.1f;
    data.labels = {0, 0, 0, 1, 1, 1};
    BOOST_TEST(mostDiscriminativeFeatures(data, 2) == (std::vector<int>{3, 1}));
    BOOST_TEST(mostDiscriminativeFeatures(data, 4) == (std::vector<int>{3, 1, 2, 0}));
    BOOST_TEST(mostDiscriminativeFeatures(data, 9).size() == std::size_t(4));
    BOOST_TEST(mostDiscriminativeFeatures(data, 0).empty());
}

BOOST_AUTO_TEST_CASE(classPairs)
{
    BOOST_TEST((parseClassPair("1,7") == std::make_pair(1, 7)));
    BOOST_TEST((parseClassPair("7,1") == std::make_pair(7, 1)));
    for (const char *bad : {"1", "1,1", "1,x", "-1,2", "1,256", "1,7,9", ""})
        BOOST_CHECK_THROW(parseClassPair(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(splitIsSeededAndDisjoint)
{
    ClassificationData data = bars(100);
    for (int i = 0; i < 100; ++i)
        data.features(i, 0) = static_cast<float>(i); // a row id
    const TrainTestSplit a = splitTrainTest(data, 30, 9), b = splitTrainTest(data, 30, 9),
                         c = splitTrainTest(data, 30, 10);
    BOOST_TEST(a.test.size() == 30);
    BOOST_TEST(a.train.size() == 70);
    BOOST_TEST((a.test.features == b.test.features));
    BOOST_TEST((a.test.features != c.test.features));
    std::set<float> ids;
    for (const auto *part : {&a.train, &a.test})
        for (DataIndex i = 0; i < part->size(); ++i) {
            ids.insert(part->features(i, 0));
            BOOST_TEST(int(part->labels[static_cast<std::size_t>(i)]) == int(part->features(i, 0)) % 2);
        }
    BOOST_TEST(ids.size() == std::size_t{100});
    BOOST_TEST(a.train.description.find("seed 9") != std::string::npos);
    BOOST_CHECK_THROW(splitTrainTest(data, 100, 1), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(augmentationIsDeterministicAndLabelled)
{
    const ClassificationData source = bars(10);
    AugmentationSettings settings;
    settings.targetSize = 57;
    settings.seed = 3;
    settings.elasticSigma = 2.0;
    settings.elasticAlpha = 8.0;
    const ClassificationData a = augmentImages(source, settings);
    const ClassificationData b = augmentImages(source, settings);
    settings.seed = 4;
    const ClassificationData c = augmentImages(source, settings);
    BOOST_TEST(a.size() == 57);
    BOOST_TEST(a.augmented);
    BOOST_TEST(a.description.find("AUGMENTED") != std::string::npos);
    BOOST_TEST((a.features == b.features));
    BOOST_TEST((a.features != c.features));
    BOOST_TEST((a.features.topRows(10) == source.features));
    BOOST_TEST((a.features.minCoeff() >= 0.0f && a.features.maxCoeff() <= 1.0f));
    validate(a);
    for (DataIndex k = 10; k < 57; ++k) {
        BOOST_TEST(a.labels[static_cast<std::size_t>(k)] == source.labels[static_cast<std::size_t>((k - 10) % 10)]);
        // A distorted bar keeps most of its ink near its column.
        const float ink = a.features.row(k).sum();
        BOOST_TEST((ink > 2.0f && ink < 10.0f), ink);
    }
}

BOOST_AUTO_TEST_CASE(pureShiftsMoveWholeImages)
{
    const ClassificationData source = bars(2);
    AugmentationSettings settings;
    settings.targetSize = 200;
    settings.elasticAlpha = 0.0;
    settings.maxShift = 1;
    const ClassificationData out = augmentImages(source, settings);
    std::set<int> columns;
    for (DataIndex k = 2; k < out.size(); ++k) {
        // Without elastic noise a copy is an exact whole-pixel shift of its source bar.
        const Eigen::RowVectorXf row = out.features.row(k);
        BOOST_TEST(testcheck::nearlyEqual(row.sum(), 6.0f)); // rows 1–6 stay inside the image for shifts of ±1
        int column = -1;
        for (int j = 0; j < 64; ++j)
            if (row[j] == 1.0f)
                column = j % 8;
        const int base = out.labels[static_cast<std::size_t>(k)] ? 5 : 2;
        BOOST_TEST(std::abs(column - base) <= 1);
        columns.insert(column - base);
    }
    BOOST_TEST(columns.size() == std::size_t{3});
    BOOST_CHECK_THROW(augmentImages(source, {2, 1, 2, 34.0, 4.0}), std::invalid_argument);
    ClassificationData flat = source;
    flat.imageRows = flat.imageCols = 0;
    BOOST_CHECK_THROW(augmentImages(flat, settings), std::invalid_argument);
}


// A random split holds out the test size, but at most a share of the rows: small data keep rows
// to train on, while the paper's 1000 of 13,007 MNIST 1s and 7s (Sec. 6.2) stay as they were.
BOOST_AUTO_TEST_CASE(heldOutRowsCapsTheTestSplit)
{
    BOOST_TEST(heldOutRows(13'007, 1000, 0.5) == DataIndex(1000));
    BOOST_TEST(heldOutRows(2197, 1000, 0.5) == DataIndex(1000));
    BOOST_TEST(heldOutRows(300, 1000, 0.5) == DataIndex(150));
    BOOST_TEST(heldOutRows(300, 1000, 0.2) == DataIndex(60));
    BOOST_TEST(heldOutRows(3, 1000, 0.2) == DataIndex(1)); // at least one test row
    BOOST_CHECK_THROW(heldOutRows(1, 1000, 0.5), std::invalid_argument);
    BOOST_CHECK_THROW(heldOutRows(300, 1000, 1.0), std::invalid_argument);
    BOOST_CHECK_THROW(heldOutRows(300, 1000, 0.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(aSplitLeavingNoTrainingRowsSaysSo)
{
    const ClassificationData data = bars(10);
    try {
        (void)splitTrainTest(data, 10, 1);
        BOOST_FAIL("a split of every row must throw");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("0 training rows") != std::string::npos, error.what());
    }
}
