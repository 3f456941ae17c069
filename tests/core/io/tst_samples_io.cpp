// Samples CSV, summary JSON and atomic writes: parseable output, round-trip numbers, and no
// partial file on failure.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/property_tree/ptree.hpp>

#include "core/io/atomic_file.h"
#include "core/io/json_file.h"
#include "core/io/samples_csv.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/temporary_directory.h"

using namespace core;

namespace {

ChainResult smallChain()
{
    ChainResult chain;
    chain.samples.resize(3, 2);
    chain.samples << 0.1, 1.0 / 3.0, -2.5e-17, 1e300, 4.0, -0.0;
    chain.batchSize = {100, 200, 1000000};
    chain.fullScanPoints = {0, 0, 0};
    chain.accepted = {1, 0, 1};
    chain.fullDataFallback = {0, 0, 1};
    chain.completed = 3;
    return chain;
}

// The names of the files in `dir` (hidden ones too), sorted.
std::vector<std::string> fileNames(const std::filesystem::path &dir)
{
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(dir))
        if (entry.is_regular_file())
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> splitFields(const std::string &line)
{
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
        fields.push_back(field);
    if (!line.empty() && line.back() == ',')
        fields.emplace_back();
    return fields;
}

} // namespace

BOOST_AUTO_TEST_CASE(csvHasCommentsHeaderAndRoundTripValues)
{
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("chain.csv");
    const ChainResult chain = smallChain();
    writeSamplesCsv(path, {{"method", "minibatch"}, {"fpc", "1"}}, chain, {-1.5, -2.0, -3.25});
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    BOOST_TEST(line == "# method = minibatch");
    std::getline(in, line);
    std::getline(in, line);
    BOOST_TEST(line == "lp__,accept_stat__,batch_size__,full_scan_points__,full_data_fallback__,theta.1,theta.2");
    for (std::int64_t t = 0; t < 3; ++t) {
        std::getline(in, line);
        const std::vector<std::string> fields = splitFields(line);
        BOOST_TEST_REQUIRE(fields.size() == std::size_t(7));
        BOOST_TEST(std::stoll(fields[2]) == static_cast<long long>(chain.batchSize[t]));
        // Bit-exact round trip through text.
        BOOST_TEST(testcheck::nearlyEqual(std::stod(fields[5]), chain.samples(t, 0)));
        BOOST_TEST(testcheck::nearlyEqual(std::stod(fields[6]), chain.samples(t, 1)));
    }
    BOOST_TEST(!std::getline(in, line));
    BOOST_TEST(fileNames(dir.path()) == std::vector<std::string>{"chain.csv"}); // no temporary left behind
}

BOOST_AUTO_TEST_CASE(unwritablePathLeavesNothing)
{
    const testfiles::TemporaryDirectory dir;
    const std::string missing = dir.filePath("no/such/dir/chain.csv");
    BOOST_CHECK_THROW(writeSamplesCsv(missing, {}, smallChain()), std::runtime_error);
    BOOST_CHECK_THROW(checkWritable(missing), std::runtime_error);
    BOOST_CHECK_THROW(checkWritable(dir.path().string()), std::runtime_error); // a directory
    try {
        checkWritable(missing);
    } catch (const std::runtime_error &error) {
        BOOST_TEST(std::string_view(error.what()).find("does not exist") != std::string_view::npos);
    }
    BOOST_TEST(fileNames(dir.path()).empty());
}

BOOST_AUTO_TEST_CASE(failingWriterKeepsOldFile)
{
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("summary.json");
    writeFileAtomically(path, [](std::ostream &out) { out << "old"; });
    BOOST_CHECK_THROW(writeFileAtomically(path,
                                          [](std::ostream &out) {
                                              out << "partial";
                                              throw std::runtime_error("simulated failure mid-write");
                                          }),
                      std::runtime_error);
    BOOST_TEST(testfiles::readFile(path) == "old");
    BOOST_TEST(fileNames(dir.path()) == std::vector<std::string>{"summary.json"});
}

// Summaries are written by nlohmann/json through writeJsonFile: escaped text, nested objects,
// NaN as null (JSON has no NaN), read back equal; an unwritable path leaves nothing.
BOOST_AUTO_TEST_CASE(jsonFilesRoundTripWithNullForNaN)
{
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("summary.json");
    nlohmann::ordered_json json = {{"name", "a \"quoted\"\nline"}, {"x", 0.1}, {"n", 42}, {"flag", true}};
    json["bad"] = std::nan("");
    json["parameters"]["theta.1"]["r_hat"] = 1.5;
    writeJsonFile(path, json);
    const std::string text = testfiles::readFile(path);
    BOOST_TEST(text.find("\"bad\": null") != std::string::npos, text);
    BOOST_TEST(text.find("\"name\": \"a \\\"quoted\\\"\\nline\"") != std::string::npos, text);
    const auto parsed = nlohmann::ordered_json::parse(text);
    BOOST_TEST(parsed["bad"].is_null());
    BOOST_TEST(parsed["name"].get<std::string>() == "a \"quoted\"\nline");
    BOOST_TEST(parsed["x"].get<double>() == 0.1); // round-trip precision
    BOOST_TEST(parsed["parameters"]["theta.1"]["r_hat"].get<double>() == 1.5);
    BOOST_CHECK_THROW(writeJsonFile(dir.filePath("missing/summary.json"), json), std::runtime_error);
    BOOST_TEST(fileNames(dir.path()) == std::vector<std::string>{"summary.json"});
}

