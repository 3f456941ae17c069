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
#include "tests/support/gzip_bytes.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

using Suite = testfiles::SuiteDirectory; // the directory the test files are written to
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
    {"NaN", "y,a,b\n0,1,2\n1,nan,2\n", "line 3: column 2 ('a'): missing value 'nan'; fill it in, or give --drop-missing"},
    {"NA", "0,1,2\n1,NA,2\n", "line 2: column 2: missing value 'NA'"},
    {"question mark", "0,1,2\n1,2,?\n", "line 2: column 3: missing value '?'"},
    {"inf", "0,1,2\n1,2,-inf\n", "line 2: column 3: infinite value '-inf'"},
    {"overflow", "0,1,2\n1,2,1e999\n", "line 2: column 3: value '1e999' is out of range"},
    {"beyond float", "0,1,2\n1,2,1e300\n", "line 2: column 3: value '1e300' exceeds"},
    {"ragged", "0,1,2\n1,2,3\n0,1\n", "line 3: ragged row: 2 fields, but the first line has 3"},
    {"text field", "label,a\n0,1\n1,two\n", "line 3: column 2 ('a'): non-numeric field 'two'"},
    {"empty field", "0,1,2\n1,,3\n", "line 2: column 2: missing value ''"},
    {"three labels", "0,1\n1,2\n2,3\n", "line 3: a third label value '2' (line 1 has '0', line 2 has '1') in the label column 1"},
    {"one label", "1,1\n1,2\n", "every row has the label '1'"},
    {"NaN label", "nan,1\n1,2\n", "line 1: column 1: missing value 'nan'"},
    {"no features", "0\n1\n", "line 1: only one field"},
    {"header only", "label,a,b\n", "no data rows"},
    {"unclosed quote", "0,1\n1,\"2\n", "line 2: a double quote is never closed"},
    {"all rows missing", "0,1\n1,NA\n", "line 2: column 2: missing value 'NA'"},
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


// The file a user brings, shaped as the Pima diabetes table: a header, numeric features, the
// binary label in the last column.
constexpr std::string_view kDiabetes = "Pregnancies,Glucose,BMI,Outcome\n"
                                       "6,148,33.6,1\n"
                                       "1,85,26.6,0\n"
                                       "8,183,23.3,1\n"
                                       "1,89,28.1,0\n";

BOOST_AUTO_TEST_CASE(aFirstColumnThatIsNotBinaryNamesTheBinaryOnesAndTheOption)
{
    const std::string path = writeCsv("diabetes.csv", kDiabetes);
    std::vector<CsvColumnSummary> columns;
    try {
        readCsvDataset(path, {}, &columns);
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST(message.find("line 4: a third label value '8' (line 2 has '6', line 3 has '1') in the label column 1 "
                                "('Pregnancies')")
                       != std::string::npos,
                   message);
        BOOST_TEST(message.find("Columns with two values: 4 ('Outcome')") != std::string::npos, message);
        BOOST_TEST(message.find("--label-column") != std::string::npos, message);
    }
    // The columns are known even so, for a front end to offer the binary one.
    BOOST_TEST_REQUIRE(columns.size() == 4u);
    BOOST_TEST(columns[3].name == "Outcome");
    BOOST_TEST(columns[3].binary());
    BOOST_TEST(!columns[0].binary());
    BOOST_TEST(columns[0].values.size() == 3u);
}

BOOST_DATA_TEST_CASE(theLabelColumnByNameOrNumber, data::make({"Outcome", "outcome", "4", "-1"}), wanted)
{
    const std::string path = writeCsv("diabetes.csv", kDiabetes);
    CsvReadOptions options;
    options.labelColumn = wanted;
    const ClassificationData data = readCsvDataset(path, options);
    BOOST_TEST_REQUIRE(data.size() == 4);
    BOOST_TEST(data.featureCount() == 3);
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0, 1, 0}));
    BOOST_TEST(data.featureNames == (std::vector<std::string>{"Pregnancies", "Glucose", "BMI"}));
    BOOST_TEST(testcheck::nearlyEqual(data.features(2, 1), 183.0f));
    BOOST_TEST(data.description.find("label column 4 ('Outcome')") != std::string::npos, data.description);
}

const std::vector<ErrorRow> kLabelColumnErrors = {
    {"0", "", "label column 0 does not exist: the file has 4 columns, numbered 1 to 4 (or -1 for the last)"},
    {"5", "", "label column 5 does not exist"},
    {"-5", "", "label column -5 does not exist"},
    {"Diabetes", "", "no column is named 'Diabetes'; the header has 'Pregnancies', 'Glucose', 'BMI', 'Outcome'"},
    {"Glucose", "", "line 4: a third label value '183'"},
};

BOOST_DATA_TEST_CASE(aLabelColumnThatCannotBeTheLabel, data::make(kLabelColumnErrors), row)
{
    const std::string path = writeCsv("diabetes.csv", kDiabetes);
    CsvReadOptions options;
    options.labelColumn = row.name;
    try {
        readCsvDataset(path, options);
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        BOOST_TEST(std::string(error.what()).find(row.fragment) != std::string::npos, error.what());
    }
}

BOOST_AUTO_TEST_CASE(aNamedLabelColumnNeedsAHeader)
{
    const std::string path = writeCsv("plain.csv", "1,2,0\n3,4,1\n");
    CsvReadOptions options;
    options.labelColumn = "y";
    BOOST_CHECK_EXCEPTION(readCsvDataset(path, options), std::runtime_error, [](const std::runtime_error &error) {
        return std::string(error.what()).find("no header row") != std::string::npos;
    });
    options.labelColumn = "-1";
    const ClassificationData data = readCsvDataset(path, options);
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{0, 1}));
    BOOST_TEST(data.featureNames.empty());
}

BOOST_AUTO_TEST_CASE(semicolonsTabsAndQuotedFields)
{
    // A spreadsheet's export in a locale whose decimal mark is a comma: semicolons between
    // fields, quoted names.
    const std::string semicolons = writeCsv("semi.csv", "\"label\";\"x; one\";\"say \"\"hi\"\"\"\n"
                                                        "\"yes\";1.5;2\n"
                                                        "no;\"3\";4\n");
    const ClassificationData data = readCsvDataset(semicolons);
    BOOST_TEST_REQUIRE(data.size() == 2);
    BOOST_TEST(data.featureNames == (std::vector<std::string>{"x; one", "say \"hi\""}));
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0}));
    BOOST_TEST(testcheck::nearlyEqual(data.features(1, 0), 3.0f));
    BOOST_TEST(data.description.find("fields separated by ';'") != std::string::npos, data.description);

    const std::string tabs = writeCsv("tabs.tsv", "label\ta\tb\n0\t1\t2\n1\t3\t4\n");
    BOOST_TEST(readCsvDataset(tabs).featureCount() == 2);
    // A named delimiter wins over the detected one: here every line is one field.
    CsvReadOptions options;
    options.delimiter = ',';
    BOOST_CHECK_EXCEPTION(readCsvDataset(tabs, options), std::runtime_error, [](const std::runtime_error &error) {
        return std::string(error.what()).find("only one field") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(droppingRowsWithMissingValuesCountsThem)
{
    const std::string path = writeCsv("holes.csv", "label,a,b\n0,1,2\n1,,4\n0,5,NA\n1,7,8\n?,1,1\n");
    CsvReadOptions options;
    options.dropMissing = true;
    const ClassificationData data = readCsvDataset(path, options);
    BOOST_TEST_REQUIRE(data.size() == 2);
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{0, 1}));
    BOOST_TEST(testcheck::nearlyEqual(data.features(1, 0), 7.0f));
    BOOST_TEST(data.description.find("3 rows with a missing value dropped (the first on line 3)") != std::string::npos,
               data.description);
    // When every row has one, nothing is left, and the message says why.
    const std::string empty = writeCsv("empty.csv", "label,a\n0,NA\n1,\n");
    BOOST_CHECK_EXCEPTION(readCsvDataset(empty, options), std::runtime_error, [](const std::runtime_error &error) {
        return std::string(error.what()).find("every one of the 2 rows has a missing value") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(aHeaderIsTextAboveNumbers)
{
    // Text over numbers: a header, even without a column called label.
    const ClassificationData named = readCsvDataset(writeCsv("h.csv", "y,x\n0,1\n1,2\n"));
    BOOST_TEST(named.size() == 2);
    BOOST_TEST(named.featureNames == (std::vector<std::string>{"x"}));
    // Words over words in the label column and numbers over numbers elsewhere: data.
    const ClassificationData words = readCsvDataset(writeCsv("w.csv", "cat,1\ndog,2\n"));
    BOOST_TEST(words.size() == 2);
    BOOST_TEST(words.featureNames.empty());
}

BOOST_AUTO_TEST_CASE(aGzippedTableReadsAsThePlainOne)
{
    const std::vector<std::uint8_t> plain(kDiabetes.begin(), kDiabetes.end());
    const std::vector<std::uint8_t> packed = testfiles::gzipBytes(plain);
    const std::string path = Suite::dir->filePath("diabetes.csv.gz");
    testfiles::writeFile(path, std::string_view(reinterpret_cast<const char *>(packed.data()), packed.size()));
    CsvReadOptions options;
    options.labelColumn = "Outcome";
    const ClassificationData data = readCsvDataset(path, options);
    BOOST_TEST(data.size() == 4);
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0, 1, 0}));
    BOOST_TEST(testcheck::nearlyEqual(data.features(2, 2), 23.3f));
    // Cut short: an error that says so, not a table missing its last rows.
    const std::string cut = Suite::dir->filePath("cut.csv.gz");
    testfiles::writeFile(cut, std::string_view(reinterpret_cast<const char *>(packed.data()), packed.size() - 12));
    try {
        readCsvDataset(cut, options);
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        BOOST_TEST(std::string(error.what()).find("cut short") != std::string::npos, error.what());
    }
}
