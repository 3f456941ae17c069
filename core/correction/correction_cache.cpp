#include "core/correction/correction_cache.h"

#include "core/io/cache_directory.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>
#include <zlib.h>

namespace core {

namespace {

constexpr char kMagic[8] = {'M', 'H', 'X', 'C', 'O', 'R', 'R', '\0'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kByteOrder = 0x01020304;
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 4 + 4 + 3 * 8 + 4 * 8 + 8;

std::atomic<bool> g_enabled{true};

class Writer {
public:
    template <typename T>
    void put(const T &value)
    {
        const auto *bytes = reinterpret_cast<const char *>(&value);
        m_bytes.insert(m_bytes.end(), bytes, bytes + sizeof(T));
    }
    std::vector<char> &bytes() { return m_bytes; }

private:
    std::vector<char> m_bytes;
};

// Callers check the length before reading (the header, then the announced table).
class Reader {
public:
    explicit Reader(std::span<const char> bytes) : m_bytes(bytes) {}
    template <typename T>
    T get()
    {
        T value{};
        std::memcpy(&value, m_bytes.data() + m_offset, sizeof(T));
        m_offset += sizeof(T);
        return value;
    }
    std::size_t offset() const { return m_offset; }

private:
    std::span<const char> m_bytes;
    std::size_t m_offset = 0;
};

std::uint32_t checksum(const char *data, std::size_t size)
{
    return static_cast<std::uint32_t>(
        crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef *>(data), static_cast<uInt>(size)));
}

std::uint64_t parameterHash(const CorrectionParams &params)
{
    // FNV-1a over the exact bits, so 0.1 and 0.1000000000000001 are different tables.
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    const auto mix = [&hash](const void *data, std::size_t size) {
        const auto *bytes = static_cast<const unsigned char *>(data);
        for (std::size_t i = 0; i < size; ++i)
            hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
    };
    const std::int32_t grid = params.grid, solver = static_cast<std::int32_t>(params.solver);
    mix(&grid, sizeof grid);
    mix(&solver, sizeof solver);
    mix(&params.range, sizeof params.range);
    mix(&params.sigma, sizeof params.sigma);
    mix(&params.lambda, sizeof params.lambda);
    return hash;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::vector<char> serialise(const CorrectionDistribution &table)
{
    const CorrectionParams &p = table.params();
    const CorrectionStats &s = table.stats();
    Writer w;
    w.bytes().insert(w.bytes().end(), kMagic, kMagic + sizeof kMagic);
    w.put(kVersion);
    w.put(kByteOrder);
    w.put(static_cast<std::int32_t>(p.grid));
    w.put(static_cast<std::int32_t>(p.solver));
    w.put(p.range);
    w.put(p.sigma);
    w.put(p.lambda);
    w.put(s.rawMass);
    w.put(s.linfError);
    w.put(s.solveGridLinfError);
    w.put(s.solveSeconds);
    w.put(static_cast<std::uint64_t>(table.masses().size()));
    for (const double m : table.masses())
        w.put(m);
    w.put(checksum(w.bytes().data(), w.bytes().size()));
    return std::move(w.bytes());
}

} // namespace

CorrectionCache::CorrectionCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

std::filesystem::path CorrectionCache::defaultDirectory()
{
    return defaultCacheDirectory();
}

CorrectionCache CorrectionCache::fromEnvironment()
{
    return CorrectionCache(correctionCacheEnabled() ? defaultDirectory() : std::filesystem::path());
}

std::filesystem::path CorrectionCache::fileFor(const CorrectionParams &params) const
{
    char name[64];
    std::snprintf(name, sizeof name, "correction-v%u-%016llx.bin", kVersion,
                  static_cast<unsigned long long>(parameterHash(params)));
    return m_directory / name;
}

CorrectionDistribution parseCorrectionCacheFile(std::span<const char> bytes, const CorrectionParams &expected,
                                                const std::string &name)
{
    validate(expected);
    const auto fail = [&name](const std::string &what) { return std::runtime_error(name + ": " + what); };
    if (bytes.size() < kHeaderBytes + 4)
        throw fail("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the "
                   + std::to_string(kHeaderBytes + 4) + "-byte header and checksum");
    if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw fail("not a correction-table cache file (no MHXCORR magic)");
    Reader r(bytes);
    r.get<std::uint64_t>(); // magic, checked above
    if (const auto version = r.get<std::uint32_t>(); version != kVersion)
        throw fail("format version " + std::to_string(version) + ", expected " + std::to_string(kVersion));
    if (r.get<std::uint32_t>() != kByteOrder)
        throw fail("written with another byte order");
    CorrectionParams p;
    p.grid = r.get<std::int32_t>();
    const auto solver = r.get<std::int32_t>();
    p.solver = static_cast<CorrectionSolver>(solver);
    p.range = r.get<double>();
    p.sigma = r.get<double>();
    p.lambda = r.get<double>();
    if (p.grid != expected.grid || solver != static_cast<std::int32_t>(expected.solver)
        || !sameBits(p.range, expected.range) || !sameBits(p.sigma, expected.sigma)
        || !sameBits(p.lambda, expected.lambda))
        throw fail("the table is for other parameters (grid, solver, range, sigma or lambda differ)");
    CorrectionStats stats;
    stats.rawMass = r.get<double>();
    stats.linfError = r.get<double>();
    stats.solveGridLinfError = r.get<double>();
    stats.solveSeconds = r.get<double>();
    // The announced count is checked against the parameters and the file length before the
    // table is allocated, so a forged count cannot ask for terabytes.
    const std::size_t count = 2 * static_cast<std::size_t>(expected.grid) + 1;
    if (const auto announced = r.get<std::uint64_t>(); announced != count)
        throw fail("the header announces " + std::to_string(announced) + " masses, but grid "
                   + std::to_string(expected.grid) + " needs " + std::to_string(count));
    if (const std::size_t size = kHeaderBytes + 8 * count + 4; bytes.size() != size)
        throw fail(std::string(bytes.size() < size ? "truncated" : "trailing data") + ": " + std::to_string(bytes.size())
                   + " bytes, but the header announces " + std::to_string(size));
    std::vector<double> masses(count);
    for (double &m : masses)
        m = r.get<double>();
    const std::size_t payload = r.offset();
    if (r.get<std::uint32_t>() != checksum(bytes.data(), payload))
        throw fail("checksum mismatch: the file is corrupt");
    try {
        return CorrectionDistribution::fromMasses(expected, std::move(masses), stats);
    } catch (const std::invalid_argument &problem) {
        throw fail(std::string("invalid table: ") + problem.what());
    }
}

std::optional<CorrectionDistribution> CorrectionCache::load(const CorrectionParams &params) const
{
    if (!enabled())
        return std::nullopt;
    try {
        validate(params);
        std::ifstream in(fileFor(params), std::ios::binary);
        if (!in)
            return std::nullopt;
        const std::size_t limit = kHeaderBytes + 8 * (2 * static_cast<std::size_t>(params.grid) + 1) + 4;
        std::vector<char> bytes(limit + 1);
        in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        bytes.resize(static_cast<std::size_t>(in.gcount()));
        return parseCorrectionCacheFile(bytes, params, fileFor(params).string());
    } catch (const std::runtime_error &) {
        // A bad or unreadable file (format errors, I/O and filesystem errors are all
        // runtime_errors) is a cache miss: the table is solved again and the file replaced.
        return std::nullopt;
    } catch (const std::invalid_argument &) {
        return std::nullopt;
    }
}

bool CorrectionCache::store(const CorrectionDistribution &table) const
{
    // An unconverged solve is reported to its caller; a cached copy would hide that later.
    if (!enabled() || !table.solverConverged())
        return false;
    std::error_code error;
    std::filesystem::create_directories(m_directory, error);
    if (error)
        return false;
    const std::filesystem::path target = fileFor(table.params());
    // Unique per process and call, so concurrent writers never share a temporary file.
    static std::atomic<unsigned> counter{0};
    const std::filesystem::path temporary =
        target.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const std::vector<char> bytes = serialise(table);
    std::FILE *file = std::fopen(temporary.c_str(), "wb");
    if (!file)
        return false;
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    ok = std::fflush(file) == 0 && ok;
    ok = ::fsync(::fileno(file)) == 0 && ok;
    ok = std::fclose(file) == 0 && ok;
    if (ok) {
        std::filesystem::rename(temporary, target, error);
        ok = !error;
    }
    if (!ok)
        std::filesystem::remove(temporary, error);
    return ok;
}

void setCorrectionCacheEnabled(bool enabled) { g_enabled = enabled; }

bool correctionCacheEnabled() { return g_enabled; }

CorrectionDistribution loadOrSolveCorrection(const CorrectionParams &params, std::function<void(double)> progress,
                                             std::stop_token stop, bool *fromCache)
{
    validate(params);
    const CorrectionCache cache = CorrectionCache::fromEnvironment();
    if (auto cached = cache.load(params)) {
        if (fromCache)
            *fromCache = true;
        if (progress)
            progress(1.0);
        return std::move(*cached);
    }
    if (fromCache)
        *fromCache = false;
    CorrectionDistribution table = CorrectionDistribution::solve(params, std::move(progress), std::move(stop));
    cache.store(table);
    return table;
}

} // namespace core
