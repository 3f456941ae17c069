#pragma once
/// A disk cache of solved correction tables, so that a table is solved once per parameter set
/// (Seita et al., "Minibatch Acceptance Test", Sec. 4: the solve is O(N³) and its table
/// depends only on N, σ, λ and the range).
///
/// Location: $MHX_CACHE_DIR if set and non-empty, else $XDG_CACHE_HOME/mh-explorer, else
/// $HOME/.cache/mh-explorer; no cache if none of these is available.
///
/// One file per parameter set, named by a hash of the exact parameter bits and checked
/// against the parameters stored inside. Binary layout (native little-endian doubles):
///   "MHXCORR\0" | u32 version | u32 0x01020304 (byte order) | i32 grid | i32 solver |
///   f64 range, sigma, lambda | f64 rawMass, linfError, solveGridLinfError, solveSeconds |
///   u64 count = 2N+1 | f64 masses[count] | u32 CRC-32 of all preceding bytes.
/// Files are written to a temporary name in the same directory and renamed into place, so a
/// reader never sees a partial file. A file that is short, corrupt, from another version or
/// for other parameters is ignored (and overwritten by the next store), never trusted.
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>

#include "core/correction/correction_distribution.h"

namespace core {

class CorrectionCache {
public:
    /// A cache in `directory` (created on first store). An empty path disables it.
    explicit CorrectionCache(std::filesystem::path directory);

    /// The cache at the location given by the environment (see the file comment); disabled
    /// (empty directory) if none, or if setCorrectionCacheEnabled(false) was called.
    static CorrectionCache fromEnvironment();
    /// The directory the environment points to, or an empty path.
    static std::filesystem::path defaultDirectory();

    const std::filesystem::path &directory() const { return m_directory; }
    bool enabled() const { return !m_directory.empty(); }
    /// Where the table for `params` is stored.
    std::filesystem::path fileFor(const CorrectionParams &params) const;

    /// The cached table for exactly these parameters, or nothing if the cache is disabled,
    /// the file is missing, unreadable or invalid. Does not throw on I/O or format errors.
    std::optional<CorrectionDistribution> load(const CorrectionParams &params) const;
    /// Writes `table` atomically. Returns false (and leaves no temporary file) if the cache is
    /// disabled or the write fails; does not throw on I/O errors.
    bool store(const CorrectionDistribution &table) const;

private:
    std::filesystem::path m_directory;
};

/// Parses the bytes of one cache file (layout above) and checks them against `expected`: magic,
/// version, byte order, the parameters, the announced count 2·grid+1 and the file length
/// (both before anything is allocated), the checksum, then the table itself
/// (CorrectionDistribution::fromMasses). Throws std::runtime_error whose message starts with
/// `name` and says what is wrong, and std::invalid_argument if `expected` is invalid.
/// CorrectionCache::load() reads the file, calls this and treats an error as a cache miss.
CorrectionDistribution parseCorrectionCacheFile(std::span<const char> bytes, const CorrectionParams &expected,
                                                const std::string &name);

/// Process-wide switch for fromEnvironment() (default on), e.g. for a --no-cache option or tests.
void setCorrectionCacheEnabled(bool enabled);
bool correctionCacheEnabled();

/// The table for `params` from the environment's cache if present, else solved by
/// CorrectionDistribution::solve (same progress, stop and exceptions) and stored.
/// `*fromCache` (if given) tells which happened. Throws std::invalid_argument for invalid params.
CorrectionDistribution loadOrSolveCorrection(const CorrectionParams &params, std::function<void(double)> progress = {},
                                             std::stop_token stop = {}, bool *fromCache = nullptr);

} // namespace core
