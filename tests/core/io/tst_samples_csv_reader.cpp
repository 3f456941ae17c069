// The samples-CSV reader: our own files round-trip exactly, CmdStan's layout (comments before,
// inside and after the draws) reads, and every malformed file gives one message naming the
// file, the line and the column.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/samples_csv.h"
#include "core/io/samples_csv_reader.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

// The shape of a CmdStan 2.3x output file, shortened.
const char *kCmdStan =
    "# stan_version_major = 2\n"
    "# model = bernoulli_model\n"
    "# method = sample (Default)\n"
    "#   sample\n"
    "#     num_samples = 3\n"
    "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,theta.1,theta.2\n"
    "# Adaptation terminated\n"
    "# Step size = 0.932037\n"
    "# Diagonal elements of inverse mass matrix:\n"
    "# 0.469452, 1.2\n"
    "-6.74827,0.986361,0.932037,1,3,0,6.8431,0.2369,1e-3\n"
    "-6.8,1,0.932037,2,3,0,7.0,-0.5,+4\r\n"
    "\n"
    "-7.1, 0.9 ,0.932037,1,1,0,7.2,0.25,nan\n"
    "# \n"
    "#  Elapsed Time: 0.005 seconds (Warm-up)\n"
    "#                0.014 seconds (Sampling)\n";

std::string messageOf(const std::string &text)
{
    try {
        parseSamplesCsv(text, "samples.csv");
    } catch (const SamplesCsvError &error) {
        return error.what();
    }
    return "(no error)";
}

} // namespace

BOOST_AUTO_TEST_CASE(readsCmdStanOutput)
{
    const SamplesTable table = parseSamplesCsv(kCmdStan, "output.csv");
    BOOST_TEST_REQUIRE(table.columns.size() == std::size_t(9));
    BOOST_TEST(table.columns.front() == std::string("lp__"));
    BOOST_TEST(table.columns.back() == std::string("theta.2"));
    BOOST_TEST(table.draws() == std::size_t(3));
    BOOST_TEST(testcheck::nearlyEqual(table.values[0][1], -6.8));
    BOOST_TEST(testcheck::nearlyEqual(table.values[1][2], 0.9));
    BOOST_TEST(testcheck::nearlyEqual(table.values[8][0], 1e-3));
    BOOST_TEST(testcheck::nearlyEqual(table.values[8][1], 4.0));
    BOOST_TEST(std::isnan(table.values[8][2]));
    // Only `key = value` comments before the header are metadata; the adaptation block's
    // "Step size = …" belongs to the draws' commentary, not to the run's settings.
    BOOST_TEST_REQUIRE(table.metadata.size() == std::size_t(4));
    BOOST_TEST(table.metadata[1].first == std::string("model"));
    BOOST_TEST(table.metadata[1].second == std::string("bernoulli_model"));
    BOOST_TEST(SamplesTable::isSamplerColumn("lp__"));
    BOOST_TEST(!SamplesTable::isSamplerColumn("theta.1"));
    BOOST_TEST(!SamplesTable::isSamplerColumn("__"));
}

BOOST_AUTO_TEST_CASE(readsOurOwnFilesExactly)
{
    ChainResult chain;
    chain.samples.resize(3, 2);
    chain.samples << 0.1, 1.0 / 3.0, -2.5e-17, 1e300, 4.0, -0.0;
    chain.batchSize = {100, 200, 1000000};
    chain.fullScanPoints = {0, 0, 7};
    chain.accepted = {1, 0, 1};
    chain.fullDataFallback = {0, 0, 1};
    chain.completed = 3;
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("chain.csv");
    writeSamplesCsv(path, {{"dataset", "gmm"}, {"seed", "3"}}, chain, {-1.5, -2.25, 1.0 / 7.0});
    const SamplesTable table = readSamplesCsv(path);
    BOOST_TEST(table.fileName == path);
    const std::vector<std::string> columns{"lp__", "accept_stat__", "batch_size__", "full_scan_points__",
                                           "full_data_fallback__", "theta.1", "theta.2"};
    BOOST_TEST(table.columns == columns);
    BOOST_TEST_REQUIRE(table.metadata.size() == std::size_t(2));
    BOOST_TEST(table.metadata[1].second == std::string("3"));
    BOOST_TEST(testcheck::nearlyEqual(table.values[0][2], 1.0 / 7.0)); // round-trip precision
    BOOST_TEST(testcheck::nearlyEqual(table.values[2][2], 1000000.0));
    for (Eigen::Index t = 0; t < 3; ++t)
        for (Eigen::Index k = 0; k < 2; ++k)
            BOOST_TEST(testcheck::nearlyEqual(table.values[static_cast<std::size_t>(5 + k)][static_cast<std::size_t>(t)],
                                              chain.samples(t, k)));
    BOOST_TEST(std::signbit(table.values[6][2])); // -0.0 keeps its sign
}

struct BadFileRow {
    std::string name;
    std::string text;
    std::string message;
};
std::ostream &operator<<(std::ostream &out, const BadFileRow &row) { return out << row.name; }

const std::vector<BadFileRow> kBadFileRows = {
    {"not a number", "# a = 1\nlp__,theta.1,theta.2\n1,2,3\n4,5,6\n7,8,9\n8,9,10\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,abc\n",
     "samples.csv:12: column 3 ('theta.2'): 'abc' is not a number"},
    {"ragged short", "a,b,c\n1,2,3\n1,2\n", "samples.csv:3: 2 fields, but the header (line 1) has 3 columns"},
    {"ragged long", "a,b\n1,2,3\n", "samples.csv:2: 3 fields, but the header (line 1) has 2 columns"},
    {"empty", "", "samples.csv: no header row"},
    {"only comments", "# x = 1\n#\n\n", "samples.csv: no header row"},
    {"no draws", "# x\nlp__,theta.1\n# Elapsed\n", "samples.csv:2: the header is not followed by any draws"},
    {"no header", "1,2\n3,4\n", "samples.csv:1: column 1: the header must name the columns"},
    {"empty name", "a,,c\n1,2,3\n", "samples.csv:1: column 2 of the header has no name"},
    {"duplicate name", "a,b,a\n1,2,3\n", "samples.csv:1: column 3: the name 'a' appears twice"},
    {"empty field", "a,b\n1,\n", "samples.csv:2: column 2 ('b'): '' is not a number"},
    {"trailing junk", "a,b\n1,2x\n", "samples.csv:2: column 2 ('b'): '2x' is not a number"},
    {"double sign", "a,b\n1,+-2\n", "samples.csv:2: column 2 ('b'): '+-2' is not a number"},
    {"binary", std::string("a,b\n1,2\0\n", 9), "samples.csv:2: contains a NUL byte"},
};

BOOST_DATA_TEST_CASE(rejectsBadFiles, data::make(kBadFileRows), row)
{
    const std::string got = messageOf(row.text);
    BOOST_TEST(got.starts_with(row.message), got);
}

BOOST_AUTO_TEST_CASE(hugeAndTinyNumbersParse)
{
    const SamplesTable table = parseSamplesCsv("a,b,c,d\n1e-320,-1e400,inf,-Infinity\n", "x.csv");
    BOOST_TEST((table.values[0][0] > 0.0 && table.values[0][0] < 1e-300));
    BOOST_TEST((std::isinf(table.values[1][0]) && table.values[1][0] < 0.0));
    BOOST_TEST(std::isinf(table.values[2][0]));
    BOOST_TEST((std::isinf(table.values[3][0]) && table.values[3][0] < 0.0));
}

BOOST_AUTO_TEST_CASE(missingFilesAreNamed)
{
    const testfiles::TemporaryDirectory dir;
    const std::string missing = dir.filePath("nope.csv");
    BOOST_CHECK_THROW(readSamplesCsv(missing), SamplesCsvError);
    try {
        readSamplesCsv(missing);
    } catch (const SamplesCsvError &error) {
        BOOST_TEST(std::string_view(error.what()).find("nope.csv: cannot open") != std::string_view::npos,
                   error.what());
    }
    try {
        readSamplesCsv(dir.path().string());
    } catch (const SamplesCsvError &error) {
        BOOST_TEST(std::string_view(error.what()).find("is a directory") != std::string_view::npos, error.what());
    }
}

