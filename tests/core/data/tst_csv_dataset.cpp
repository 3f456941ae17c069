// The CSV loader for a user's own binary classification data: what it accepts, how it maps
// labels, and the line-numbered errors for every kind of bad row.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_dataset.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

// Suite-wide state: the directory the test files are written to.
struct Suite {
    static inline std::optional<testfiles::TemporaryDirectory> dir;

    void setup() { dir.emplace(); }
    void teardown() { dir.reset(); }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

std::string writeCsv(const char *name, std::string_view content)
{
    const std::string path = Suite::dir->filePath(name);
    testfiles::writeFile(path, content);
    return path;
}

BOOST_AUTO_TEST_CASE(headerWithNamedLabel)
{
    const std::string path = writeCsv("named.csv", "# comment line\n"
                                                   "x1, label ,x2\r\n"
                                                   "0.5,7,1e-3\r\n"
                                                   "\r\n"
                                                   "-2,1,+4\r\n"
                                                   "3.25,7.0,1e-400\r\n");
    const ClassificationData data = readCsvDataset(path);
    BOOST_TEST_REQUIRE(data.size() == 3);
    BOOST_TEST(data.featureCount() == 2);
    // Numeric labels: the smaller (1) is label 0; "7" and "7.0" are the same value.
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0, 1}));
    BOOST_TEST(data.classNames.first == std::string("'1'"));
    BOOST_TEST(data.classNames.second == std::string("'7'"));
    BOOST_TEST(data.description.find("label 0 = '1', label 1 = '7'") != std::string::npos);
    BOOST_TEST(testcheck::nearlyEqual(data.features(0, 0), 0.5f));
    BOOST_TEST(testcheck::nearlyEqual(data.features(0, 1), 1e-3f));
    BOOST_TEST(testcheck::nearlyEqual(data.features(1, 1), 4.0f));
    BOOST_TEST(testcheck::nearlyEqual(data.features(2, 0), 3.25f));
    BOOST_TEST(testcheck::nearlyEqual(data.features(2, 1), 0.0f)); // underflow rounds to zero; it is not an error
    validate(data);
}

BOOST_AUTO_TEST_CASE(noHeaderTextLabels)
{
    const std::string path = writeCsv("words.csv", "dog,1,2\ncat,3,4\ndog,5,6\n");
    const ClassificationData data = readCsvDataset(path);
    BOOST_TEST_REQUIRE(data.size() == 3);
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0, 1}));
    BOOST_TEST(data.classNames.first == std::string("'cat'"));
    BOOST_TEST(testcheck::nearlyEqual(data.features(1, 1), 4.0f));
}

struct ErrorRow {
    std::string name;
    std::string content;
    std::string fragment;
};
std::ostream &operator<<(std::ostream &out, const ErrorRow &row) { return out << row.name; }

const std::vector<ErrorRow> kErrorRows = {
    {"NaN", "y,a,b\n0,1,2\n1,nan,2\n", "line 3: column 2: NaN or infinite value 'nan'"},
    {"inf", "0,1,2\n1,2,-inf\n", "line 2: column 3: NaN or infinite value '-inf'"},
    {"overflow", "0,1,2\n1,2,1e999\n", "line 2: column 3: value '1e999' is out of range"},
    {"beyond float", "0,1,2\n1,2,1e300\n", "line 2: column 3: value '1e300' exceeds"},
    {"ragged", "0,1,2\n1,2,3\n0,1\n", "line 3: ragged row: 2 fields, but line 1 has 3"},
    {"text field", "label,a\n0,1\n1,two\n", "line 3: column 2: non-numeric field 'two'"},
    {"empty field", "0,1,2\n1,,3\n", "line 2: column 2: empty field"},
    {"three labels", "0,1\n1,2\n2,3\n", "line 3: a third label value '2' (line 1 has '0', line 2 has '1')"},
    {"one label", "1,1\n1,2\n", "every row has the label '1'"},
    {"NaN label", "nan,1\n1,2\n", "line 1: column 1: label 'nan' is NaN or infinite"},
    {"no features", "0\n1\n", "line 1: only one field"},
    {"header only", "label,a,b\n", "no data rows"},
};

BOOST_DATA_TEST_CASE(errors, data::make(kErrorRows), row)
{
    const auto &[name, content, fragment] = row;
    const std::string path = writeCsv("bad.csv", content);
    try {
        readCsvDataset(path);
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST(message.starts_with(path + ": "), message);
        BOOST_TEST(message.find(fragment) != std::string::npos, message);
    }
    // The stream parser behind readCsvDataset() gives the same error under the given name.
    std::istringstream in(content, std::ios::binary);
    try {
        parseCsvDataset(in, "in-memory.csv");
        BOOST_FAIL("no error from the stream parser");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST((message.starts_with("in-memory.csv: ") && message.find(fragment) != std::string::npos), message);
    }
}

BOOST_AUTO_TEST_CASE(missingFile)
{
    const std::string path = Suite::dir->filePath("absent.csv");
    BOOST_CHECK_THROW(readCsvDataset(path), std::runtime_error);
}

