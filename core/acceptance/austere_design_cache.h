#pragma once
/// A disk cache of AustereMH design grids. Tabulating the default grid (10 batch sizes × 6
/// error levels, 121 dynamic programs each, Korattikara et al., "Austerity in MCMC Land",
/// supplement Sec. A and D) costs minutes at N = 10⁶, and it depends on N only, so it is done once
/// per N and kept in the cache directory (cache_directory.h) as a text file:
///   MHX-AUSTERE-DESIGN 1
///   N <n> cells <c> points <p> tables <t>
///   <m> <epsilon> <p error values> <p data-fraction values>     (one line per table)
///   end <t>
/// The file is written atomically; a short, corrupt or mismatched file is ignored and rebuilt.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "core/acceptance/austere_designer.h"

namespace core {

class AustereDesignCache {
public:
    /// A cache in `directory`; an empty path disables it.
    explicit AustereDesignCache(std::filesystem::path directory);
    /// The environment's cache directory, or disabled if the correction cache is switched off
    /// (setCorrectionCacheEnabled(false): one switch for every solved table).
    static AustereDesignCache fromEnvironment();

    bool enabled() const { return !m_directory.empty(); }
    std::filesystem::path fileFor(std::int64_t populationSize) const;
    /// The default grid for N, or nothing (missing, unreadable or invalid file). Never throws
    /// on I/O or format errors.
    std::optional<AustereDesigner> load(std::int64_t populationSize) const;
    /// Returns false if disabled or the write fails; never throws on I/O errors.
    bool store(std::int64_t populationSize, const AustereDesigner &designer) const;

private:
    std::filesystem::path m_directory;
};

/// Parses a design file (layout above) for population size N = `populationSize` and checks it:
/// the magic and version, N, the cell and grid-point counts, the table count (all before any
/// table is allocated), every value (AustereDesignTable's checks), the end line, and that the
/// tables are the default grid. Throws std::runtime_error whose message starts with `name` and
/// says what is wrong. AustereDesignCache::load() calls it and treats an error as a cache miss.
AustereDesigner parseAustereDesignCacheFile(std::istream &in, std::int64_t populationSize, const std::string &name);

/// The default design grid for N from the environment's cache, or tabulated (with progress and
/// stop as AustereDesigner's constructor) and stored. `*fromCache` tells which happened.
std::shared_ptr<const AustereDesigner> loadOrBuildAustereDesigner(std::int64_t populationSize,
                                                                  const std::function<void(double)> &progress = {},
                                                                  std::stop_token stop = {},
                                                                  bool *fromCache = nullptr);

} // namespace core
