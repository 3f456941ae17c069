// Samples streamed while the chain runs: the header first, the draws as they come (the burn-in
// left out), flushed every 1,000 rows, an interrupted file closed with its status, and a file
// cut inside a line (kill -9) read up to its last whole line.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "core/io/samples_csv_reader.h"
#include "core/io/samples_csv_stream.h"
#include "tests/support/temporary_directory.h"

using namespace core;

namespace {

ChainResult chainOf(std::int64_t rows)
{
    ChainResult chain;
    chain.samples.resize(rows, 2);
    for (std::int64_t t = 0; t < rows; ++t) {
        chain.samples(t, 0) = 0.1 * static_cast<double>(t);
        chain.samples(t, 1) = 1.0 / static_cast<double>(t + 3);
        chain.batchSize.push_back(100 + t);
        chain.fullScanPoints.push_back(0);
        chain.accepted.push_back(static_cast<std::uint8_t>(t % 2));
        chain.fullDataFallback.push_back(0);
    }
    chain.completed = rows;
    return chain;
}

} // namespace

BOOST_AUTO_TEST_CASE(drawsAreFlushedAsTheyComeAndTheBurnInIsLeftOut)
{
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("s.csv");
    const ChainResult chain = chainOf(2500);
    SamplesCsvStream stream(path, {{"method", "mh"}, {"first_iteration", "100"}}, 2, 100);
    // The header is on disk before any draw.
    BOOST_CHECK_THROW(readSamplesCsv(path), SamplesCsvError); // a header, no draws yet
    BOOST_TEST(testfiles::readFile(path).find("# status = running") != std::string::npos);
    stream.append(chain, 0, 1200); // 1,100 rows after the burn-in: over 1,000, so on disk
    BOOST_TEST(readSamplesCsv(path).draws() == 1100u);
    stream.append(chain, 1200, 1300); // waits for the next flush
    stream.close("interrupted after 1300 of 2500 samples");
    const SamplesTable table = readSamplesCsv(path);
    BOOST_TEST_REQUIRE(table.draws() == 1200u);
    BOOST_TEST(stream.rowsWritten() == 1200);
    // The first row written is iteration 100, bit for bit.
    BOOST_TEST(table.values[4][0] == chain.samples(100, 0));
    BOOST_TEST(table.values[5][1199] == chain.samples(1299, 1));
    BOOST_TEST(table.metadata.back().first == "status");
    BOOST_TEST(table.metadata.back().second == "interrupted after 1300 of 2500 samples");
}

BOOST_AUTO_TEST_CASE(aFileCutInsideALineIsReadToItsLastWholeLine)
{
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("s.csv");
    {
        SamplesCsvStream stream(path, {{"method", "mh"}}, 2, 0);
        stream.append(chainOf(1001), 0, 1001);
    } // closed without a note: as a kill leaves it, "running"
    std::string text = testfiles::readFile(path);
    text.resize(text.size() - 7); // cut inside the last line
    testfiles::writeFile(path, text);
    const SamplesTable table = readSamplesCsv(path);
    BOOST_TEST(table.draws() == 1000u);
    BOOST_TEST(table.partialLastLine > 0u);
    // A finished file without a final line end keeps its last line: only streamed files are cut.
    const std::string plain = dir.filePath("plain.csv");
    testfiles::writeFile(plain, "a,b\n1,2\n3,4");
    BOOST_TEST(readSamplesCsv(plain).draws() == 2u);
}

BOOST_AUTO_TEST_CASE(anUnwritablePathIsAnErrorNamingIt)
{
    const testfiles::TemporaryDirectory dir;
    const std::string path = dir.filePath("no/such/dir/s.csv");
    try {
        SamplesCsvStream stream(path, {}, 2, 0);
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        BOOST_TEST(std::string(error.what()).starts_with(path), error.what());
    }
}
