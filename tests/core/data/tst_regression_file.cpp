// A regression's rows from a user's file (core/data/regression_file.h) and the dataset that
// samples them (--dataset glm): the response column of each format, each response checked by the
// model's rule with the line or row that holds it, and the file path giving the very rows (and
// so the very chains) of the tall synthetic data it was written from.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/regression_file.h"
#include "core/data/synthetic_glm_data.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/presets.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/glm/glm_model.h"
#include "tests/support/npy_file.h"
#include "tests/support/temporary_directory.h"

using namespace core;

using Suite = testfiles::SuiteDirectory;
BOOST_TEST_GLOBAL_FIXTURE(Suite);

namespace {

std::string write(const char *name, std::string_view content)
{
    const std::string path = Suite::dir->filePath(name);
    testfiles::writeFile(path, content);
    return path;
}

// The rule of a model by name, as the dataset applies it.
ResponseColumn::Rule ruleOf(const std::string &model)
{
    GlmFamilySpec spec;
    spec.name = model;
    const GlmResponse kind = makeGlmFamily(spec)->response();
    return [kind](double y) { return responseProblem(kind, y); };
}

GlmData read(const std::string &path, const std::string &model, const std::string &column = {},
             const std::string &responses = {})
{
    DataFileRequest request;
    request.path = path;
    request.labels = responses;
    request.table.labelColumn = column;
    return readRegressionFile(request, model, ruleOf(model));
}

// The message of what `f` throws as std::runtime_error; fails the test when it throws nothing.
template <typename F>
std::string messageOf(F &&f)
{
    try {
        f();
    } catch (const std::runtime_error &error) {
        return error.what();
    }
    BOOST_FAIL("no error was thrown");
    return {};
}

bool contains(const std::string &text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_CASE(csvResponseByNameKeepsEveryOtherColumnAsAFeatureAndTheResponseInDouble)
{
    // 16,777,217 = 2^24 + 1 is not a float: the response keeps it, a feature would not.
    const std::string path = write("counts.csv", "# visits per patient\n"
                                                 "age,visits,dose\n"
                                                 "31,3,0.5\n"
                                                 "\n"
                                                 "47,16777217,1.5\n"
                                                 "52,0,2.5\n");
    const GlmData data = read(path, "poisson", "visits");
    BOOST_TEST_REQUIRE(data.response.size() == 3u);
    BOOST_TEST(data.response == (std::vector<double>{3.0, 16777217.0, 0.0}));
    BOOST_TEST_REQUIRE(data.features.cols() == 2);
    BOOST_TEST(data.features(1, 0) == 47.0f);
    BOOST_TEST(data.features(2, 1) == 2.5f);
    BOOST_TEST(data.featureNames == (std::vector<std::string>{"age", "dose"}));
    BOOST_TEST(contains(data.description, "3 rows, 2 features, response column 2 ('visits')"), data.description);
}

BOOST_AUTO_TEST_CASE(csvResponseByDefaultIsTheColumnNamedResponseOrYElseTheFirst)
{
    BOOST_TEST(read(write("y.csv", "x1,Y,x2\n1,2.5,3\n4,-5.25,6\n"), "linear").response
               == (std::vector<double>{2.5, -5.25}));
    BOOST_TEST(read(write("response.csv", "response,x\n0.5,1\n1.5,2\n"), "linear").response
               == (std::vector<double>{0.5, 1.5}));
    BOOST_TEST(read(write("first.csv", "7,1,2\n8,3,4\n"), "linear").response == (std::vector<double>{7.0, 8.0}));
    BOOST_TEST(read(write("last.csv", "1,2,7\n3,4,8\n"), "linear", "-1").response == (std::vector<double>{7.0, 8.0}));
}

BOOST_AUTO_TEST_CASE(aCountThatIsNegativeOrFractionalIsRefusedWithItsLine)
{
    // Line 5 after a comment, the header and a blank line: the file's own line number.
    const std::string negative = write("negative.csv", "# counts\nage,visits\n30,4\n\n41,-2\n");
    const std::string message = messageOf([&] { read(negative, "poisson", "visits"); });
    BOOST_TEST(contains(message, "negative.csv: line 5, column 2 ('visits'): the response -2 cannot be modelled by "
                                 "poisson: a count must be a non-negative integer"),
               message);
    const std::string fractional = write("fractional.csv", "age,visits\n30,4\n41,2.5\n");
    BOOST_TEST(contains(messageOf([&] { read(fractional, "poisson", "visits"); }), "line 3, column 2 ('visits'): the response 2.5"));
    // The linear models take both.
    BOOST_TEST(read(negative, "linear", "visits").response == (std::vector<double>{4.0, -2.0}));
}

BOOST_AUTO_TEST_CASE(aProbitResponseMustBeZeroOrOneAndTextIsNotAResponse)
{
    const std::string binary = write("binary.csv", "x,y\n1,0\n2,1\n3,2\n");
    BOOST_TEST(contains(messageOf([&] { read(binary, "probit"); }), "line 4, column 2 ('y'): the response 2 cannot be "
                                                                   "modelled by probit: a binary response must be 0 or 1"));
    const std::string text = write("text.csv", "x,y\n1,0.5\n2,high\n");
    const std::string message = messageOf([&] { read(text, "linear"); });
    BOOST_TEST(contains(message, "text.csv: line 3: column 2 ('y'): the response 'high' is not a number"), message);
    const std::string missing = write("missing.csv", "x,y\n1,0.5\n");
    BOOST_TEST(contains(messageOf([&] { read(missing, "linear", "count"); }), "no column is named 'count'"));
    BOOST_TEST(contains(messageOf([&] { read(missing, "linear", "3"); }), "response column 3 does not exist"));
}

BOOST_AUTO_TEST_CASE(libsvmResponseIsTheFirstFieldOfEachLine)
{
    const std::string path = write("rows.svm", "2.5 1:1 3:-1\n# a comment\n-0.75 2:4\n");
    const GlmData data = read(path, "robust-linear");
    BOOST_TEST(data.response == (std::vector<double>{2.5, -0.75}));
    BOOST_TEST_REQUIRE(data.features.cols() == 3);
    BOOST_TEST(data.features(0, 2) == -1.0f);
    BOOST_TEST(data.features(1, 0) == 0.0f);
    BOOST_TEST(data.features(1, 1) == 4.0f);
    BOOST_TEST(contains(messageOf([&] { read(path, "poisson"); }), "rows.svm: line 1: the response 2.5 cannot be modelled by poisson"));
    BOOST_TEST(contains(messageOf([&] { read(path, "linear", "2"); }), "--response-column does not apply"));
}

BOOST_AUTO_TEST_CASE(npyResponseFromItsColumnOrFromASecondArray)
{
    const std::vector<double> table = {1.0, 10.0, 2.0, 2.0, 20.0, 0.0, 3.0, 30.0, 7.0};
    const std::string one = write("table.npy", testfiles::npyBytes("<f8", {3, 3}, testfiles::rawBytes<double>(table)));
    const GlmData last = read(one, "poisson", "-1");
    BOOST_TEST(last.response == (std::vector<double>{2.0, 0.0, 7.0}));
    BOOST_TEST(last.features(2, 1) == 30.0f);
    const std::string noColumn = messageOf([&] { read(one, "poisson"); });
    BOOST_TEST(contains(noColumn, "the array holds no responses: give them as a file (--labels y.npy) or name the "
                                  "response's column in this array (--response-column -1 for the last)"),
               noColumn);
    // Row 2's response, 10, is not a binary response.
    BOOST_TEST(contains(messageOf([&] { read(one, "probit", "2"); }), "table.npy: row 1: the response 10 cannot be modelled by probit"));

    const std::string features = write("x.npy", testfiles::npyBytes("<f4", {3, 1}, testfiles::rawBytes<float>(std::vector<float>{1, 2, 3})));
    const std::string responses = write("y.npy", testfiles::npyBytes("<f8", {3}, testfiles::rawBytes<double>(std::vector<double>{0.5, -1.5, 2.0})));
    BOOST_TEST(read(features, "linear", "", responses).response == (std::vector<double>{0.5, -1.5, 2.0}));
    const std::string short_ = write("y2.npy", testfiles::npyBytes("<f8", {2}, testfiles::rawBytes<double>(std::vector<double>{0.5, 1.0})));
    BOOST_TEST(contains(messageOf([&] { read(features, "linear", "", short_); }), "the response array has 2 rows, the features 3"));
}

BOOST_AUTO_TEST_CASE(imagesHoldClassesNotAResponse)
{
    // An IDX magic: unsigned bytes, 3 dimensions.
    const std::string idx = write("images-idx3-ubyte", std::string("\0\0\x08\x03\0\0\0\x01\0\0\0\x01\0\0\0\x01\x07", 17));
    const std::string message = messageOf([&] { read(idx, "probit"); });
    BOOST_TEST(contains(message, "IDX images hold classes, not a regression's response: sample them with --dataset logreg"),
               message);
}

// The export of tall-glm's rows block by block (syntheticGlmBlock, what `dataset --dataset tall-glm`
// writes) gives generateSyntheticGlm's rows bit for bit, and a file of them read as glm's rows
// gives them again: so a run on the file is the run on tall-glm (tst_cli_user_tables checks the
// draws).
BOOST_AUTO_TEST_CASE(tallGlmRowsWrittenAndReadBackAreTheGeneratedRowsBitForBit)
{
    SyntheticGlmSpec spec;
    spec.rows = kSyntheticBlockRows + 37; // two blocks, the second short
    spec.features = 3;
    spec.family.name = "poisson";
    spec.seed = 5;
    const GlmData generated = generateSyntheticGlm(spec);
    const auto family = makeGlmFamily(spec.family);
    std::vector<double> table;
    std::vector<float> features(static_cast<std::size_t>(kSyntheticBlockRows) * 3);
    std::vector<double> responses(static_cast<std::size_t>(kSyntheticBlockRows));
    for (std::int64_t block = 0;; ++block) {
        const std::int64_t count = syntheticGlmBlock(spec, *family, block, features.data(), responses.data());
        if (count == 0)
            break;
        for (std::int64_t r = 0; r < count; ++r) {
            for (int j = 0; j < 3; ++j)
                table.push_back(features[static_cast<std::size_t>(r * 3 + j)]);
            table.push_back(responses[static_cast<std::size_t>(r)]);
        }
    }
    BOOST_TEST_REQUIRE(table.size() == static_cast<std::size_t>(spec.rows) * 4);
    const std::string path = write("tall.npy", testfiles::npyBytes("<f8", {spec.rows, 4}, testfiles::rawBytes<double>(table)));

    RunConfig config;
    config.dataset = "glm";
    config.glm = spec.family;
    config.logreg.data = path;
    config.responseColumn = "-1";
    const GlmData read = readFileGlmRows(config);
    BOOST_TEST(read.response == generated.response);
    BOOST_TEST((read.features.array() == generated.features.array()).all());
}

BOOST_AUTO_TEST_CASE(theDatasetStandardisesTheFeaturesAndBuildsTheChosenModel)
{
    const std::string path = write("scaled.csv", "glucose,visits\n100,1\n120,0\n140,4\n160,2\n");
    RunConfig config;
    config.dataset = "glm";
    config.glm.name = "poisson";
    config.logreg.data = path;
    config.responseColumn = "visits";
    applyDatasetDefaults(config, false, false);
    BOOST_TEST(config.logreg.standardize);
    BOOST_TEST(config.temperature == 1.0);
    const DatasetInstance instance = makeDataset(config, false);
    const auto &model = dynamic_cast<const GlmModel &>(*instance.model);
    BOOST_TEST(model.name() == "poisson");
    BOOST_TEST(model.dimension() == 2); // the feature and the bias
    BOOST_TEST(model.dataSize() == 4);
    // (100 − 130) / sd, with the population sd √500 of 100, 120, 140, 160.
    BOOST_TEST(std::abs(model.data().features(0, 0) - static_cast<float>(-30.0 / std::sqrt(500.0))) < 1e-6f);
    BOOST_TEST(contains(instance.description, "Poisson"), instance.description);

    // The file is required, and settings that are a classifier's do not apply.
    RunConfig noFile;
    noFile.dataset = "glm";
    BOOST_CHECK_THROW(validate(noFile), std::invalid_argument);
    // SMH needs bounds that Poisson regression lacks: refused before the file is read.
    config.method = TestMethod::Scalable;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
}
