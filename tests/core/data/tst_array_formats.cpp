// The tall-data formats: LIBSVM/svmlight text and NumPy .npy arrays read into the same data set a
// CSV of the same table gives, the format told from the content, and every malformed file (or
// header announcing more than the file holds) refused with its path and place.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/csv_dataset.h"
#include "core/data/data_file.h"
#include "core/data/data_formats.h"
#include "core/data/libsvm_dataset.h"
#include "core/data/npy_dataset.h"
#include "tests/support/gzip_bytes.h"
#include "tests/support/npy_file.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

using Suite = testfiles::SuiteDirectory; // the directory the test files are written to
BOOST_TEST_GLOBAL_FIXTURE(Suite);

namespace {

std::string write(const char *name, const std::string &content)
{
    const std::string path = Suite::dir->filePath(name);
    testfiles::writeFile(path, content);
    return path;
}

// The same four rows in every format: three features, labels 1, 0, 1, 0.
const std::vector<double> kFeatures = {6, 148, 33.5, 1, 85, 0, 8, 183, 23.25, 0, 89, 28};
const std::vector<int> kLabels = {1, 0, 1, 0};

void expectTheTable(const ClassificationData &data)
{
    BOOST_TEST_REQUIRE(data.size() == 4);
    BOOST_TEST_REQUIRE(data.featureCount() == 3);
    for (Eigen::Index r = 0; r < 4; ++r)
        for (Eigen::Index j = 0; j < 3; ++j)
            BOOST_TEST(data.features(r, j) == static_cast<float>(kFeatures[static_cast<std::size_t>(r * 3 + j)]));
    BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0, 1, 0}));
    validate(data);
}

} // namespace

BOOST_AUTO_TEST_CASE(libsvmListsTheNonZeroFeatures)
{
    const std::string path = write("t.svm", "# a comment line\n"
                                            "+1 1:6 2:148 3:33.5\n"
                                            "-1 1:1 2:85   # feature 3 is 0\n"
                                            "\n"
                                            "+1 3:23.25 1:8 2:183\n"
                                            "-1 2:89 3:28\n");
    const ClassificationData data = readLibsvmDataset(path);
    expectTheTable(data);
    BOOST_TEST(data.classNames.first == "'-1'");
    BOOST_TEST(data.description.find("4 rows, 3 features (LIBSVM") != std::string::npos, data.description);
    BOOST_TEST((detectDataFormat(path) == DataFormat::Libsvm));
    // Gzipped, the same.
    const std::string text = testfiles::readFile(path);
    const auto packed = testfiles::gzipBytes(std::vector<std::uint8_t>(text.begin(), text.end()));
    const std::string gz = write("t.svm.gz", std::string(packed.begin(), packed.end()));
    expectTheTable(readLibsvmDataset(gz));
    BOOST_TEST((detectDataFormat(gz) == DataFormat::Libsvm));
}

struct BadFile {
    std::string name;
    std::string content;
    std::string fragment;
};
std::ostream &operator<<(std::ostream &out, const BadFile &row) { return out << row.name; }

const std::vector<BadFile> kBadLibsvm = {
    {"index 0", "1 0:2\n0 1:3\n", "line 1: token '0:2': LIBSVM feature indices start at 1"},
    {"huge index", "1 99999999:2\n", "index 99999999 is beyond the 10000 features"},
    {"no colon", "1 2\n", "line 1: token '2' is not index:value"},
    {"bad value", "1 1:x\n", "token '1:x': the value is not a finite number"},
    {"nan value", "1 1:nan\n", "the value is not a finite number"},
    {"twice", "1 1:2 1:3\n", "index 1 is given twice"},
    {"three labels", "1 1:1\n0 1:2\n2 1:3\n", "line 3: a third label value '2' (line 1 has '1', line 2 has '0')"},
    {"one label", "1 1:1\n1 1:2\n", "every row has the label '1'"},
    {"text label", "yes 1:1\n", "line 1: the label 'yes' is not a number"},
    {"qid", "1 qid:3 1:2\n", "qid, for ranking data, is not supported"},
    {"empty", "# nothing\n", "no data rows"},
};

BOOST_DATA_TEST_CASE(libsvmErrors, data::make(kBadLibsvm), row)
{
    const std::string path = write("bad.svm", row.content);
    try {
        readLibsvmDataset(path);
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST((message.starts_with(path) && message.find(row.fragment) != std::string::npos), message);
    }
}

BOOST_AUTO_TEST_CASE(npyFeaturesWithALabelArray)
{
    for (const char *type : {"<f4", "<f8", "|u1"}) {
        std::vector<double> features = kFeatures;
        if (std::string(type) == "|u1")
            for (double &x : features)
                x = static_cast<double>(static_cast<int>(x)); // whole numbers only
        const std::string raw = std::string(type) == "<f4"   ? testfiles::rawBytes<float>(features)
                                : std::string(type) == "<f8" ? testfiles::rawBytes<double>(features)
                                                             : testfiles::rawBytes<std::uint8_t>(features);
        const std::string x = write("x.npy", testfiles::npyBytes(type, {4, 3}, raw));
        const std::string y = write("y.npy", testfiles::npyBytes("<i8", {4}, testfiles::rawBytes<std::int64_t>(kLabels)));
        const ClassificationData data = readNpyDataset(x, y, "");
        BOOST_TEST_REQUIRE(data.size() == 4);
        BOOST_TEST(data.labels == (std::vector<std::uint8_t>{1, 0, 1, 0}));
        BOOST_TEST(data.features(3, 2) == 28.0f);
        if (std::string(type) != "|u1")
            expectTheTable(data);
        BOOST_TEST((detectDataFormat(x) == DataFormat::Npy));
    }
}

BOOST_AUTO_TEST_CASE(oneNpyArrayWithItsLabelColumnAndBigEndian)
{
    std::vector<double> joined;
    for (std::size_t r = 0; r < 4; ++r) {
        joined.push_back(kLabels[r]);
        for (std::size_t j = 0; j < 3; ++j)
            joined.push_back(kFeatures[r * 3 + j]);
    }
    const std::string path = write("xy.npy", testfiles::npyBytes("<f8", {4, 4}, testfiles::rawBytes<double>(joined)));
    expectTheTable(readNpyDataset(path, "", "1"));
    // The same array big-endian.
    std::string raw = testfiles::rawBytes<double>(joined);
    for (std::size_t k = 0; k < raw.size(); k += 8)
        std::reverse(raw.begin() + static_cast<std::ptrdiff_t>(k), raw.begin() + static_cast<std::ptrdiff_t>(k + 8));
    expectTheTable(readNpyDataset(write("be.npy", testfiles::npyBytes(">f8", {4, 4}, raw)), "", "-4"));
    BOOST_CHECK_EXCEPTION(readNpyDataset(path, "", ""), std::runtime_error, [](const std::runtime_error &e) {
        return std::string(e.what()).find("the array holds no labels") != std::string::npos;
    });
    BOOST_CHECK_EXCEPTION(readNpyDataset(path, "", "Outcome"), std::runtime_error, [](const std::runtime_error &e) {
        return std::string(e.what()).find("no column names") != std::string::npos;
    });
}

const std::vector<BadFile> kBadNpy = {
    {"not npy", "hello", "not a NumPy .npy file"},
    {"claims 10^12 rows", testfiles::npyBytes("<f4", {1'000'000'000'000, 3}, std::string(48, '\0')),
     "the header announces 12000000000000 bytes of data"},
    {"short data", testfiles::npyBytes("<f4", {4, 3}, std::string(40, '\0')), "but the file holds 40"},
    {"fortran", testfiles::npyBytes("<f4", {4, 3}, std::string(48, '\0'), true), "Fortran order"},
    {"text", testfiles::npyBytes("<U3", {4, 3}, std::string(144, '\0')), "element type '<U3' is not read"},
    {"3-D", testfiles::npyBytes("<f4", {2, 2, 3}, std::string(48, '\0')), "it must be 2-D"},
    {"nan", testfiles::npyBytes("<f8", {1, 2}, testfiles::rawBytes<double>(std::vector<double>{std::nan(""), 0.0})),
     "row 1, column 1: nan is not a finite"},
};

BOOST_DATA_TEST_CASE(npyErrors, data::make(kBadNpy), row)
{
    const std::string path = write("bad.npy", row.content);
    try {
        readNpyDataset(path, "", "-1");
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST((message.starts_with(path) && message.find(row.fragment) != std::string::npos), message);
    }
}

BOOST_AUTO_TEST_CASE(labelArraysMustMatchTheFeatures)
{
    const std::string x = write("x.npy", testfiles::npyBytes("<f8", {4, 3}, testfiles::rawBytes<double>(kFeatures)));
    const std::string three = write("y3.npy", testfiles::npyBytes("<i4", {3}, testfiles::rawBytes<std::int32_t>(std::vector<int>{1, 0, 1})));
    BOOST_CHECK_EXCEPTION(readNpyDataset(x, three, ""), std::runtime_error, [](const std::runtime_error &e) {
        return std::string(e.what()).find("the label array has 3 rows, the features 4") != std::string::npos;
    });
    const std::string wide = write("y2.npy", testfiles::npyBytes("<i4", {2, 2}, testfiles::rawBytes<std::int32_t>(kLabels)));
    BOOST_CHECK_EXCEPTION(readNpyDataset(x, wide, ""), std::runtime_error, [](const std::runtime_error &e) {
        return std::string(e.what()).find("it must be (rows,) or (rows, 1)") != std::string::npos;
    });
    const std::string column = write("yc.npy", testfiles::npyBytes("|b1", {4, 1}, testfiles::rawBytes<std::uint8_t>(kLabels)));
    expectTheTable(readNpyDataset(x, column, ""));
}

BOOST_AUTO_TEST_CASE(theFormatComesFromTheContentNotTheName)
{
    // A CSV called .txt, a LIBSVM file called .csv: the content decides.
    const std::string csv = write("table.txt", "label,a,b,c\n1,6,148,33.5\n0,1,85,0\n1,8,183,23.25\n0,0,89,28\n");
    BOOST_TEST((detectDataFormat(csv) == DataFormat::Csv));
    const std::string svm = write("really.csv", "1 1:6 2:148 3:33.5\n0 1:1 2:85\n");
    BOOST_TEST((detectDataFormat(svm) == DataFormat::Libsvm));
    DataFileRequest request;
    request.path = csv;
    expectTheTable(readDataFile(request));
    request.labels = svm;
    BOOST_CHECK_EXCEPTION(readDataFile(request), std::runtime_error, [](const std::runtime_error &e) {
        return std::string(e.what()).find("carries its own labels") != std::string::npos;
    });
    BOOST_TEST((parseDataFormat("libsvm") == DataFormat::Libsvm));
    BOOST_TEST(!parseDataFormat("auto"));
    BOOST_CHECK_THROW(parseDataFormat("parquet"), std::invalid_argument);
    BOOST_TEST((formatFromName("train-images-idx3-ubyte.gz") == DataFormat::Idx));
    BOOST_TEST((formatFromName("HIGGS.svm.gz") == DataFormat::Libsvm));
    BOOST_TEST(!formatFromName("data.bin"));
}

// The data-format table (data_formats.h) is the one list: every DataFormat has a row whose name
// parses back, every suffix and name part is told from a name (gzipped too) and is in the file
// dialog's patterns, every label is in the list messages give, and a format is read, refused
// or converted as its row says.
BOOST_AUTO_TEST_CASE(everyFormatIsOneRowOfTheTable)
{
    std::string names = "auto";
    for (DataFormat format : {DataFormat::Csv, DataFormat::Libsvm, DataFormat::Npy, DataFormat::Idx}) {
        const DataFormatEntry &row = dataFormatEntry(format);
        BOOST_TEST_INFO(row.name);
        BOOST_TEST((row.format == format));
        BOOST_TEST(dataFormatName(format) == std::string(row.name));
        BOOST_TEST((parseDataFormat(std::string(row.name)) == format));
        BOOST_TEST(dataFormatLabels().find(std::string(row.label)) != std::string::npos);
        for (std::string_view suffix : row.suffixes) {
            BOOST_TEST((formatFromName("some/dir/Data" + std::string(suffix)) == format));
            BOOST_TEST((formatFromName("data" + std::string(suffix) + ".gz") == format));
            BOOST_TEST(dataFileDialogPatterns().find("*" + std::string(suffix)) != std::string::npos);
        }
        for (std::string_view part : row.nameParts) {
            BOOST_TEST((formatFromName("t10k-" + std::string(part) + "-x") == format));
            BOOST_TEST(dataFileDialogPatterns().find(std::string(part)) != std::string::npos);
        }
        // Exactly one text format is the fallback: neither a magic nor a first-line test.
        BOOST_TEST((!row.magic && !row.firstLine) == (format == DataFormat::Csv));
        // A format either reads a classifier's data or says why not, and the same for a
        // regression and a conversion.
        BOOST_TEST((row.readClassification != nullptr) == row.readRefusal.empty());
        BOOST_TEST((row.readRegression != nullptr) == row.regressionRefusal.empty());
        BOOST_TEST((row.convert != nullptr) == row.conversionRefusal.empty());
        names += std::string(format == DataFormat::Idx ? " or " : ", ") + std::string(row.name);
    }
    BOOST_TEST(dataFormatTable().size() == 4u);
    BOOST_CHECK_EXCEPTION(parseDataFormat("parquet"), std::invalid_argument, [&](const std::invalid_argument &e) {
        return std::string(e.what()).find("format must be " + names + ";") != std::string::npos;
    });
    BOOST_TEST(dataFormatLabels() == "CSV, LIBSVM, NumPy .npy or IDX");
    BOOST_TEST(dataFormatNames() == "csv, libsvm, npy or idx");

    // IDX refuses a classifier's read here (its classes are chosen elsewhere), a regression, and
    // a conversion, each with its row's reason.
    const std::string idx = write("images-idx1-ubyte", std::string("\0\0\x08\x01\0\0\0\x02\x01\x00", 10));
    BOOST_TEST((detectDataFormat(idx) == DataFormat::Idx));
    DataFileRequest request;
    request.path = idx;
    BOOST_CHECK_EXCEPTION(readDataFile(request), std::runtime_error, [](const std::runtime_error &e) {
        return std::string(e.what()).find("need their label file and two classes") != std::string::npos;
    });
}
