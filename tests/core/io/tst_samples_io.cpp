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

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include "core/io/atomic_file.h"
#include "core/io/json_writer.h"
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

BOOST_AUTO_TEST_CASE(jsonEscapesAndNulls)
{
    JsonObject json;
    json.add("name", "a \"quoted\"\nline").add("x", 0.1).add("n", std::int64_t{42}).add("bad", std::nan(""))
        .add("flag", true);
    const std::string text = json.toString();
    BOOST_TEST(text.find("\"name\": \"a \\\"quoted\\\"\\nline\"") != std::string::npos);
    BOOST_TEST(text.find("\"x\": 0.1") != std::string::npos);
    BOOST_TEST(text.find("\"bad\": null") != std::string::npos);
    BOOST_TEST(text.find("\"flag\": true") != std::string::npos);
    // A JSON parser reads it without error.
    std::istringstream in(text);
    boost::property_tree::ptree parsed;
    BOOST_CHECK_NO_THROW(boost::property_tree::read_json(in, parsed));
}

// Objects nest at any depth, each level indented two more spaces.
BOOST_AUTO_TEST_CASE(jsonNestsAtAnyDepth)
{
    JsonObject inner, middle, root;
    inner.add("r_hat", 1.5);
    middle.add("theta.1", inner).add("count", 2);
    root.add("parameters", middle).add("chains", 4);
    BOOST_TEST(root.toString() == std::string("{\n"
                                          "  \"parameters\": {\n"
                                          "    \"theta.1\": {\n"
                                          "      \"r_hat\": 1.5\n"
                                          "    },\n"
                                          "    \"count\": 2\n"
                                          "  },\n"
                                          "  \"chains\": 4\n"
                                          "}"));
}

