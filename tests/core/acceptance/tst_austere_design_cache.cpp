// The AustereMH design grid survives a trip through the disk cache exactly, bad files are
// ignored rather than trusted, and the second request for the same N is served from the cache.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "core/acceptance/austere_design_cache.h"
#include "core/correction/cancelled.h"
#include "core/correction/correction_cache.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/temporary_directory.h"

using namespace core;

constexpr std::int64_t kN = 2000; // small enough to tabulate in about a second

// Suite-wide state: the cache directory every test case and MHX_CACHE_DIR point at. The test
// cases run in order and share its files.
struct Suite {
    static inline std::optional<testfiles::TemporaryDirectory> dir;

    void setup()
    {
        dir.emplace();
        setenv("MHX_CACHE_DIR", dir->path().c_str(), 1);
    }
    void teardown() { dir.reset(); }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

std::string readAll(const std::filesystem::path &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}
void writeAll(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream(path) << text;
}

BOOST_AUTO_TEST_CASE(roundTripIsExact)
{
    const AustereDesigner built(kN, AustereDesigner::defaultBatches(), AustereDesigner::defaultEpsilons());
    const AustereDesignCache cache(Suite::dir->path().string());
    BOOST_TEST(cache.store(kN, built));
    const auto loaded = cache.load(kN);
    BOOST_TEST_REQUIRE(loaded.has_value());
    BOOST_TEST_REQUIRE(loaded->tables().size() == built.tables().size());
    for (std::size_t k = 0; k < built.tables().size(); ++k) {
        const auto &a = built.tables()[k], &b = loaded->tables()[k];
        BOOST_TEST(b.batch() == a.batch());
        BOOST_TEST(testcheck::nearlyEqual(b.epsilon(), a.epsilon()));
        BOOST_TEST(b.errorGrid() == a.errorGrid());
        BOOST_TEST(b.dataFractionGrid() == a.dataFractionGrid());
    }
    // The same decisions follow from the loaded grid.
    const ProposalMoments proposal{0.3, 2.0, 0.0};
    BOOST_TEST(loaded->choose(proposal, 0.01) == built.choose(proposal, 0.01));
    BOOST_TEST(!cache.load(kN + 1).has_value()); // another N has no file
}

BOOST_AUTO_TEST_CASE(badFilesAreIgnored)
{
    const AustereDesignCache cache(Suite::dir->path().string());
    const auto file = cache.fileFor(kN);
    const std::string good = readAll(file);
    BOOST_TEST(cache.load(kN).has_value());

    writeAll(file, good.substr(0, good.size() / 2)); // truncated
    BOOST_TEST(!cache.load(kN).has_value());
    std::string wrongN = good;
    wrongN.replace(wrongN.find("N 2000"), 6, "N 2001");
    writeAll(file, wrongN);
    BOOST_TEST(!cache.load(kN).has_value());
    std::string outOfRange = good;
    const auto line = outOfRange.find('\n', outOfRange.find("tables")) + 1;
    const auto value = outOfRange.find(' ', outOfRange.find(' ', line) + 1) + 1; // first error value
    outOfRange.replace(value, outOfRange.find(' ', value) - value, "1.5");
    writeAll(file, outOfRange);
    BOOST_TEST(!cache.load(kN).has_value());
    writeAll(file, "not a design file");
    BOOST_TEST(!cache.load(kN).has_value());
    writeAll(file, good);
    BOOST_TEST(cache.load(kN).has_value());
}

// The parser behind load() names the file and the problem; a forged N or table count
// (10^12) is refused from the sizes line, before any table is allocated.
BOOST_AUTO_TEST_CASE(parserNamesTheProblem)
{
    const AustereDesignCache cache(Suite::dir->path().string());
    const std::string good = readAll(cache.fileFor(kN));
    const auto parse = [](const std::string &text) {
        std::istringstream in(text);
        return parseAustereDesignCacheFile(in, kN, "design.txt");
    };
    BOOST_TEST(parse(good).tables().size() == std::size_t{60});
    const auto replaced = [&good](const std::string &from, const std::string &to) {
        std::string text = good;
        text.replace(text.find(from), from.size(), to);
        return text;
    };
    const auto count = good.substr(good.find(" tables ") + 8, good.find('\n', good.find(" tables ")) - good.find(" tables ") - 8);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {replaced("N 2000", "N 1000000000000"), "the grid is for N = 1000000000000, not 2000"},
        {replaced(" tables " + count, " tables 1000000000000"), "announces 1000000000000 tables; between 1 and 10000"},
        {replaced(" tables " + count, " tables 61"), "table 61 of 61: missing or non-numeric batch size"},
        {good.substr(0, good.size() / 2), "missing or non-numeric"},
        {replaced("MHX-AUSTERE-DESIGN 1", "MHX-AUSTERE-DESIGN 9"), "format version 9, expected 1"},
        {replaced("points 121", "points 1000000000"), "1000000000 points, but this program uses"},
        {"{\"not\": \"a design\"}", "not an AustereMH design file"},
    };
    for (const auto &[text, fragment] : cases) {
        try {
            parse(text);
            BOOST_FAIL("no error for: " + fragment);
        } catch (const std::runtime_error &error) {
            const std::string message = error.what();
            BOOST_TEST((message.starts_with("design.txt: ") && message.find(fragment) != std::string::npos),
                       message.c_str());
        }
    }
}

// A stop reaches the tables being built, not only the ones not started: at N = 10⁶ the
// whole grid takes about 100 s and one table several seconds, a dynamic program ~50 ms.
BOOST_AUTO_TEST_CASE(stopInterruptsTablesInProgress)
{
    std::stop_source source;
    std::jthread stopper([&source] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        source.request_stop();
    });
    const auto started = std::chrono::steady_clock::now();
    BOOST_CHECK_THROW(AustereDesigner(1'000'000, AustereDesigner::defaultBatches(), AustereDesigner::defaultEpsilons(),
                                      {}, source.get_token()),
                      Cancelled);
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    BOOST_TEST_MESSAGE("stop requested after 300 ms; tabulation returned after " << elapsed << " ms");
    BOOST_TEST(elapsed < 3000, elapsed);
}

BOOST_AUTO_TEST_CASE(secondRequestComesFromCache)
{
    std::filesystem::remove(AustereDesignCache::fromEnvironment().fileFor(kN));
    bool fromCache = true;
    const auto first = loadOrBuildAustereDesigner(kN, {}, {}, &fromCache);
    BOOST_TEST(!fromCache);
    const auto second = loadOrBuildAustereDesigner(kN, {}, {}, &fromCache);
    BOOST_TEST(fromCache);
    BOOST_TEST(second->tables().size() == first->tables().size());
    // Switched off, nothing is read.
    setCorrectionCacheEnabled(false);
    BOOST_TEST(!AustereDesignCache::fromEnvironment().enabled());
    setCorrectionCacheEnabled(true);
}

