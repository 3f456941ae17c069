// The disk cache of correction tables: exact round trip, the environment's location, and
// damaged or foreign files, which must be ignored (re-solved), never trusted.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "core/correction/correction_cache.h"
#include "core/correction/correction_distribution.h"

using namespace core;

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

class tst_CorrectionCache : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_cacheDir;
    std::optional<CorrectionDistribution> m_ridge;
    std::optional<CorrectionDistribution> m_nnls;

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
        m_ridge.emplace(CorrectionDistribution::solve(makeParams(1000, 1.0, 10.0)));
        m_nnls.emplace(CorrectionDistribution::solve(makeParams(1000, 1.0, 10.0, CorrectionSolver::Nnls)));
    }

    void cacheRoundTrip()
    {
        const CorrectionCache cache(std::filesystem::path(m_cacheDir.path().toStdString()) / "round-trip");
        QVERIFY(!cache.load(m_ridge->params()));
        QVERIFY(cache.store(*m_ridge));
        const auto loaded = cache.load(m_ridge->params());
        QVERIFY(loaded.has_value());
        QVERIFY(loaded->params() == m_ridge->params());
        QVERIFY(loaded->masses() == m_ridge->masses()); // bit for bit
        QCOMPARE(loaded->linfError(), m_ridge->linfError());
        QCOMPARE(loaded->solveGridLinfError(), m_ridge->solveGridLinfError());
        QCOMPARE(loaded->rawMass(), m_ridge->rawMass());
        QCOMPARE(loaded->solveSeconds(), m_ridge->solveSeconds());
        QCOMPARE(loaded->variance(), m_ridge->variance());
        // Another λ is another table.
        CorrectionParams other = m_ridge->params();
        other.lambda = std::nextafter(other.lambda, 100.0);
        QVERIFY(!cache.load(other));
        QVERIFY(cache.fileFor(other) != cache.fileFor(m_ridge->params()));
    }

    void loadOrSolveUsesEnvironmentCache()
    {
        const CorrectionParams p = makeParams(300, 0.9, 1.0);
        bool fromCache = true;
        const auto first = loadOrSolveCorrection(p, {}, {}, &fromCache);
        QVERIFY(!fromCache);
        const auto second = loadOrSolveCorrection(p, {}, {}, &fromCache);
        QVERIFY(fromCache);
        QVERIFY(first.masses() == second.masses());
        QVERIFY(std::filesystem::exists(CorrectionCache::fromEnvironment().fileFor(p)));

        setCorrectionCacheEnabled(false);
        loadOrSolveCorrection(p, {}, {}, &fromCache);
        setCorrectionCacheEnabled(true);
        QVERIFY(!fromCache);
    }

    void corruptCacheFilesAreIgnored_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << "truncated";
        QTest::newRow("empty") << "empty";
        QTest::newRow("flipped byte") << "flipped";
        QTest::newRow("extra byte") << "extra";
        QTest::newRow("other params") << "other";
    }
    void corruptCacheFilesAreIgnored()
    {
        QFETCH(QString, damage);
        const CorrectionParams p = makeParams(200, 1.1, 3.0, CorrectionSolver::Nnls);
        const auto table = CorrectionDistribution::solve(p);
        const CorrectionCache cache(std::filesystem::path(m_cacheDir.path().toStdString()) / "corrupt");
        QVERIFY(cache.store(table));
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
            QVERIFY(!cache.load(other));
            return;
        }
        QVERIFY(!cache.load(p));
        // The next store replaces the damaged file.
        QVERIFY(cache.store(table));
        QVERIFY(cache.load(p).has_value());
    }

    // The parser behind load() says what is wrong, and checks a forged count (N = 10^12 here)
    // against the parameters and the file length before it allocates anything.
    void parserNamesTheProblem_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("count 10^12") << "count" << "the header announces 1000000000000 masses, but grid 1000 needs 2001";
        QTest::newRow("truncated") << "truncated" << "truncated: 16036 bytes, but the header announces 16100";
        QTest::newRow("short header") << "header" << "shorter than the 92-byte header and checksum";
        QTest::newRow("checksum") << "flipped" << "checksum mismatch";
        QTest::newRow("version") << "version" << "format version 7, expected 1";
        QTest::newRow("other sigma") << "sigma" << "the table is for other parameters";
    }
    void parserNamesTheProblem()
    {
        QFETCH(QString, damage);
        QFETCH(QString, fragment);
        const CorrectionCache cache(std::filesystem::path(m_cacheDir.path().toStdString()) / "parse");
        QVERIFY(cache.store(*m_ridge));
        const auto file = cache.fileFor(m_ridge->params());
        std::ifstream in(file, std::ios::binary);
        std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        QCOMPARE(bytes.size(), std::size_t{16100}); // 88-byte header, 2001 masses, checksum
        QVERIFY(parseCorrectionCacheFile(bytes, m_ridge->params(), "good.bin").masses() == m_ridge->masses());
        const auto put = [&bytes](std::size_t offset, auto value) {
            std::memcpy(bytes.data() + offset, &value, sizeof value);
        };
        if (damage == "count")
            put(80, std::uint64_t{1'000'000'000'000});
        else if (damage == "truncated")
            bytes.resize(bytes.size() - 64);
        else if (damage == "header")
            bytes.resize(50);
        else if (damage == "flipped")
            bytes[5000] = static_cast<char>(bytes[5000] ^ 0x04);
        else if (damage == "version")
            put(8, std::uint32_t{7});
        else
            put(32, 1.25);
        try {
            parseCorrectionCacheFile(bytes, m_ridge->params(), "damaged.bin");
            QFAIL("no error");
        } catch (const std::runtime_error &error) {
            const QString message = error.what();
            QVERIFY2(message.startsWith("damaged.bin: ") && message.contains(fragment), qPrintable(message));
        }
        // load() treats the same file as a miss.
        std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        QVERIFY(!cache.load(m_ridge->params()));
    }

    void disabledCacheStoresNothing()
    {
        const CorrectionCache cache{std::filesystem::path()};
        QVERIFY(!cache.enabled());
        QVERIFY(!cache.store(*m_nnls));
        QVERIFY(!cache.load(m_nnls->params()));
    }
};

QTEST_APPLESS_MAIN(tst_CorrectionCache)
#include "tst_correction_cache.moc"
