// The disk cache of correction tables: exact round trip, the environment's location, and
// damaged or foreign files, which must be ignored (re-solved), never trusted.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/correction/correction_cache.h"
#include "core/correction/correction_distribution.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

CorrectionParams makeParams(int grid, double sigma, double lambda, CorrectionSolver solver = CorrectionSolver::Ridge)
{
    CorrectionParams p;
    p.grid = grid;
    p.sigma = sigma;
    p.lambda = lambda;
    p.solver = solver;
    return p;
}

} // namespace

// Suite-wide state, set up once before the first test case: the cache directory that
// MHX_CACHE_DIR names, and two solved tables.
struct Suite {
    static inline std::optional<testfiles::TemporaryDirectory> cacheDir;
    static inline std::optional<CorrectionDistribution> ridge;
    static inline std::optional<CorrectionDistribution> nnls;

    void setup()
    {
        cacheDir.emplace();
        setenv("MHX_CACHE_DIR", cacheDir->path().c_str(), 1);
        ridge.emplace(CorrectionDistribution::solve(makeParams(1000, 1.0, 10.0)));
        nnls.emplace(CorrectionDistribution::solve(makeParams(1000, 1.0, 10.0, CorrectionSolver::Nnls)));
    }
    void teardown() { cacheDir.reset(); }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

BOOST_AUTO_TEST_CASE(cacheRoundTrip)
{
    const CorrectionCache cache(Suite::cacheDir->path() / "round-trip");
    BOOST_TEST(!cache.load(Suite::ridge->params()));
    BOOST_TEST(cache.store(*Suite::ridge));
    const auto loaded = cache.load(Suite::ridge->params());
    BOOST_TEST_REQUIRE(loaded.has_value());
    BOOST_TEST((loaded->params() == Suite::ridge->params()));
    BOOST_TEST(loaded->masses() == Suite::ridge->masses()); // bit for bit
    BOOST_TEST(testcheck::nearlyEqual(loaded->linfError(), Suite::ridge->linfError()));
    BOOST_TEST(testcheck::nearlyEqual(loaded->solveGridLinfError(), Suite::ridge->solveGridLinfError()));
    BOOST_TEST(testcheck::nearlyEqual(loaded->rawMass(), Suite::ridge->rawMass()));
    BOOST_TEST(testcheck::nearlyEqual(loaded->solveSeconds(), Suite::ridge->solveSeconds()));
    BOOST_TEST(testcheck::nearlyEqual(loaded->variance(), Suite::ridge->variance()));
    // Another λ is another table.
    CorrectionParams other = Suite::ridge->params();
    other.lambda = std::nextafter(other.lambda, 100.0);
    BOOST_TEST(!cache.load(other));
    BOOST_TEST(cache.fileFor(other) != cache.fileFor(Suite::ridge->params()));
}

BOOST_AUTO_TEST_CASE(loadOrSolveUsesEnvironmentCache)
{
    const CorrectionParams p = makeParams(300, 0.9, 1.0);
    bool fromCache = true;
    const auto first = loadOrSolveCorrection(p, {}, {}, &fromCache);
    BOOST_TEST(!fromCache);
    const auto second = loadOrSolveCorrection(p, {}, {}, &fromCache);
    BOOST_TEST(fromCache);
    BOOST_TEST(first.masses() == second.masses());
    BOOST_TEST(std::filesystem::exists(CorrectionCache::fromEnvironment().fileFor(p)));

    setCorrectionCacheEnabled(false);
    loadOrSolveCorrection(p, {}, {}, &fromCache);
    setCorrectionCacheEnabled(true);
    BOOST_TEST(!fromCache);
}

struct DamageRow {
    std::string name;
    std::string damage;
};
std::ostream &operator<<(std::ostream &out, const DamageRow &row) { return out << row.name; }

const std::vector<DamageRow> kDamageRows = {
    {"truncated", "truncated"}, {"empty", "empty"}, {"flipped byte", "flipped"}, {"extra byte", "extra"},
    {"other params", "other"}};

BOOST_DATA_TEST_CASE(corruptCacheFilesAreIgnored, data::make(kDamageRows), row)
{
    const std::string &damage = row.damage;
    const CorrectionParams p = makeParams(200, 1.1, 3.0, CorrectionSolver::Nnls);
    const auto table = CorrectionDistribution::solve(p);
    const CorrectionCache cache(Suite::cacheDir->path() / "corrupt");
    BOOST_TEST(cache.store(table));
    const auto file = cache.fileFor(p);
    const auto size = std::filesystem::file_size(file);
    if (damage == "truncated") {
        std::filesystem::resize_file(file, size / 2);
    } else if (damage == "empty") {
        std::filesystem::resize_file(file, 0);
    } else if (damage == "extra") {
        std::ofstream(file, std::ios::binary | std::ios::app).put('x');
    } else if (damage == "flipped") {
        std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
        f.seekg(static_cast<std::streamoff>(size / 2));
        const char c = static_cast<char>(f.get());
        f.seekp(static_cast<std::streamoff>(size / 2));
        f.put(static_cast<char>(c ^ 0x10));
    } else {
        CorrectionParams other = p;
        other.sigma = 1.0;
        std::filesystem::copy_file(file, cache.fileFor(other), std::filesystem::copy_options::overwrite_existing);
        BOOST_TEST(!cache.load(other));
        return;
    }
    BOOST_TEST(!cache.load(p));
    // The next store replaces the damaged file.
    BOOST_TEST(cache.store(table));
    BOOST_TEST(cache.load(p).has_value());
}

// The parser behind load() says what is wrong, and checks a forged count (N = 10^12 here)
// against the parameters and the file length before it allocates anything.
struct ParserRow {
    std::string name;
    std::string damage;
    std::string fragment;
};
std::ostream &operator<<(std::ostream &out, const ParserRow &row) { return out << row.name; }

const std::vector<ParserRow> kParserRows = {
    {"count 10^12", "count", "the header announces 1000000000000 masses, but grid 1000 needs 2001"},
    {"truncated", "truncated", "truncated: 16036 bytes, but the header announces 16100"},
    {"short header", "header", "shorter than the 92-byte header and checksum"},
    {"checksum", "flipped", "checksum mismatch"},
    {"version", "version", "format version 7, expected 1"},
    {"other sigma", "sigma", "the table is for other parameters"},
};

BOOST_DATA_TEST_CASE(parserNamesTheProblem, data::make(kParserRows), row)
{
    const std::string &damage = row.damage;
    const CorrectionCache cache(Suite::cacheDir->path() / "parse");
    BOOST_TEST(cache.store(*Suite::ridge));
    const auto file = cache.fileFor(Suite::ridge->params());
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    BOOST_TEST_REQUIRE(bytes.size() == std::size_t{16100}); // 88-byte header, 2001 masses, checksum
    BOOST_TEST(parseCorrectionCacheFile(bytes, Suite::ridge->params(), "good.bin").masses() == Suite::ridge->masses());
    const auto put = [&bytes](std::size_t offset, auto value) {
        std::memcpy(bytes.data() + offset, &value, sizeof value);
    };
    if (damage == "count")
        put(80, std::uint64_t{1'000'000'000'000});
    else if (damage == "truncated")
        bytes.resize(16036); // 64 bytes short (as a size: GCC warns on size() - 64 under ASan)
    else if (damage == "header")
        bytes.resize(50);
    else if (damage == "flipped")
        bytes[5000] = static_cast<char>(bytes[5000] ^ 0x04);
    else if (damage == "version")
        put(8, std::uint32_t{7});
    else
        put(32, 1.25);
    try {
        parseCorrectionCacheFile(bytes, Suite::ridge->params(), "damaged.bin");
        BOOST_FAIL("no error");
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        BOOST_TEST((message.starts_with("damaged.bin: ") && message.find(row.fragment) != std::string::npos), message);
    }
    // load() treats the same file as a miss.
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    BOOST_TEST(!cache.load(Suite::ridge->params()));
}

BOOST_AUTO_TEST_CASE(disabledCacheStoresNothing)
{
    const CorrectionCache cache{std::filesystem::path()};
    BOOST_TEST(!cache.enabled());
    BOOST_TEST(!cache.store(*Suite::nnls));
    BOOST_TEST(!cache.load(Suite::nnls->params()));
}

