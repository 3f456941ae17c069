// A CSV or LIBSVM file converted to .npy as a stream holds, bit for bit, the features and labels
// the readers make of the file, over many blocks of rows, and the array is read in place. A bad
// line is reported with its number as the reader reports it, and a failed or stopped conversion
// leaves no file behind.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "core/correction/cancelled.h"
#include "core/data/csv_dataset.h"
#include "core/data/data_file.h"
#include "core/data/libsvm_dataset.h"
#include "core/data/npy_conversion.h"
#include "core/io/number_format.h"
#include "core/random/rng.h"
#include "tests/support/gzip_bytes.h"
#include "tests/support/temporary_directory.h"

using namespace core;

using Suite = testfiles::SuiteDirectory; // the directory the test files are written to
BOOST_TEST_GLOBAL_FIXTURE(Suite);

namespace {

// A diabetes-shaped table: a header, 8 features on their own scales, a text label in the last
// column, semicolon-separated, a missing value on a few rows. 20,000 rows: several blocks.
std::string diabetesLikeTable(int rows)
{
    Rng rng(7);
    std::ostringstream out;
    out << "Pregnancies;Glucose;BloodPressure;SkinThickness;Insulin;BMI;Pedigree;Age;Outcome\n";
    for (int r = 0; r < rows; ++r) {
        for (int j = 0; j < 8; ++j) {
            if (r % 997 == 5 && j == 4)
                out << "NA;";
            else
                out << formatRoundTrip(static_cast<float>((j + 1) * 10.0 + (j + 1) * rng.normal())) << ';';
        }
        out << (rng.uniform01() < 0.35 ? "tested_positive" : "tested_negative") << '\n';
    }
    return out.str();
}

std::string libsvmText(int rows)
{
    Rng rng(11);
    std::ostringstream out;
    for (int r = 0; r < rows; ++r) {
        out << (rng.uniform01() < 0.5 ? "-1" : "+1");
        for (int j = 1; j <= 30; ++j)
            if (rng.uniform01() < 0.2)
                out << ' ' << j << ':' << formatRoundTrip(static_cast<float>(rng.normal()));
        out << (r % 100 == 0 ? " # a comment\n" : "\n");
    }
    return out.str();
}

// The converted array read back (into memory, and the same through the memory map).
ClassificationData readBack(const std::string &npy, MemoryMap map = MemoryMap::Off)
{
    DataFileRequest request;
    request.path = npy;
    request.table.labelColumn = "-1";
    request.memoryMap = map;
    return readDataFile(request);
}

void checkSame(const ClassificationData &expected, const ClassificationData &converted)
{
    BOOST_TEST_REQUIRE(converted.size() == expected.size());
    BOOST_TEST_REQUIRE(converted.featureCount() == expected.featureCount());
    BOOST_TEST(converted.labels == expected.labels, boost::test_tools::per_element());
    std::vector<double> a(static_cast<std::size_t>(expected.featureCount())), b(a.size());
    std::int64_t differing = 0;
    for (DataIndex i = 0; i < expected.size(); ++i) {
        expected.copyRow(i, a.data());
        converted.copyRow(i, b.data());
        differing += a != b;
    }
    BOOST_TEST(differing == 0);
}

bool leftovers(const std::string &npy)
{
    return std::filesystem::exists(npy) || std::filesystem::exists(npy + ".part");
}

} // namespace

BOOST_AUTO_TEST_CASE(aTableConvertsToTheRowsTheReaderMakes)
{
    const std::string csv = Suite::dir->filePath("diabetes.csv");
    testfiles::writeFile(csv, diabetesLikeTable(20'000));
    CsvReadOptions options;
    options.labelColumn = "Outcome";
    options.dropMissing = true;
    const ClassificationData expected = readCsvDataset(csv, options);

    DataFileRequest request;
    request.path = csv;
    request.table = options;
    std::vector<int> passes;
    const std::string npy = Suite::dir->filePath("diabetes.npy");
    const NpyConversion result = convertToNpy(request, npy, [&](int pass) { passes.push_back(pass); });
    BOOST_TEST(passes == (std::vector<int>{1, 2}), boost::test_tools::per_element());
    BOOST_TEST(result.rows == expected.size());
    BOOST_TEST(result.features == 8);
    BOOST_TEST(result.description == expected.description);
    BOOST_TEST(result.description.find("rows with a missing value dropped") != std::string::npos);
    BOOST_TEST(result.bytes == std::filesystem::file_size(npy));
    BOOST_TEST(!std::filesystem::exists(npy + ".part"));
    checkSame(expected, readBack(npy));
    const ClassificationData mapped = readBack(npy, MemoryMap::On);
    BOOST_TEST(static_cast<bool>(mapped.mapped));
    checkSame(expected, mapped);
}

BOOST_AUTO_TEST_CASE(aGzippedLibsvmFileConvertsToTheRowsTheReaderMakes)
{
    const std::string text = libsvmText(10'000);
    const std::string svm = Suite::dir->filePath("sparse.svm.gz");
    const std::vector<std::uint8_t> gz = testfiles::gzipBytes(std::vector<std::uint8_t>(text.begin(), text.end()));
    testfiles::writeFile(svm, std::string(gz.begin(), gz.end()));
    const ClassificationData expected = readLibsvmDataset(svm);

    DataFileRequest request;
    request.path = svm;
    const std::string npy = Suite::dir->filePath("sparse.npy");
    const NpyConversion result = convertToNpy(request, npy);
    BOOST_TEST(result.rows == expected.size());
    BOOST_TEST(result.features == expected.featureCount());
    BOOST_TEST(result.description.find("label 0 = '-1', label 1 = '1'") != std::string::npos, result.description);
    checkSame(expected, readBack(npy));
}

// The second pass never sees an error the first did not report: bad lines fail in pass 1 with
// the reader's own message, and nothing is left behind.
BOOST_AUTO_TEST_CASE(aBadLineFailsWithTheReadersMessageAndLeavesNoFile)
{
    const std::string csv = Suite::dir->filePath("three-labels.csv");
    testfiles::writeFile(csv, "x,y,label\n1,2,0\n3,4,1\n5,6,2\n");
    DataFileRequest request;
    request.path = csv;
    const std::string npy = Suite::dir->filePath("three-labels.npy");
    std::string readerMessage, converterMessage;
    try {
        readCsvDataset(csv);
    } catch (const std::runtime_error &error) {
        readerMessage = error.what();
    }
    try {
        convertToNpy(request, npy);
    } catch (const std::runtime_error &error) {
        converterMessage = error.what();
    }
    BOOST_TEST(!readerMessage.empty());
    BOOST_TEST(converterMessage == readerMessage);
    BOOST_TEST(converterMessage.find("line 4") != std::string::npos, converterMessage);
    BOOST_TEST(!leftovers(npy));

    const std::string svm = Suite::dir->filePath("bad.svm");
    testfiles::writeFile(svm, "1 1:0.5 2:1\n-1 1:0.25\n1 3:x\n");
    request.path = svm;
    request.format = DataFormat::Libsvm;
    const std::string badNpy = Suite::dir->filePath("bad.npy");
    BOOST_CHECK_EXCEPTION(convertToNpy(request, badNpy), std::runtime_error, [](const std::runtime_error &error) {
        return std::string(error.what()).find("line 3: token '3:x'") != std::string::npos;
    });
    BOOST_TEST(!leftovers(badNpy));
}

BOOST_AUTO_TEST_CASE(aStoppedConversionLeavesNoFile)
{
    const std::string csv = Suite::dir->filePath("stopped.csv");
    testfiles::writeFile(csv, diabetesLikeTable(30'000));
    DataFileRequest request;
    request.path = csv;
    request.table.labelColumn = "-1";
    request.table.dropMissing = true;
    const std::string npy = Suite::dir->filePath("stopped.npy");
    std::stop_source stop;
    // Stopped once the rows are being written: the temporary file exists and must go.
    BOOST_CHECK_THROW(convertToNpy(request, npy, [&](int pass) { if (pass == 2) stop.request_stop(); }, stop.get_token()),
                      Cancelled);
    BOOST_TEST(!leftovers(npy));
}

BOOST_AUTO_TEST_CASE(anArrayOrImagesAreNotConverted)
{
    const std::string npy = Suite::dir->filePath("already.npy");
    const std::string csv = Suite::dir->filePath("small.csv");
    testfiles::writeFile(csv, "label,x\n0,1\n1,2\n0,3\n");
    DataFileRequest request;
    request.path = csv;
    convertToNpy(request, npy);
    request.path = npy;
    BOOST_CHECK_EXCEPTION(convertToNpy(request, Suite::dir->filePath("again.npy")), std::runtime_error,
                          [](const std::runtime_error &error) {
                              return std::string(error.what()).find("is a NumPy array already") != std::string::npos;
                          });
    const ClassificationData small = readBack(npy);
    BOOST_TEST(small.size() == DataIndex(3));
    BOOST_TEST((small.labels == std::vector<std::uint8_t>{0, 1, 0}));
}
