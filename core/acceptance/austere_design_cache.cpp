#include "core/acceptance/austere_design_cache.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/correction/correction_cache.h"
#include "core/io/atomic_file.h"
#include "core/io/cache_directory.h"

namespace core {
namespace {

constexpr const char *kMagic = "MHX-AUSTERE-DESIGN";
constexpr int kVersion = 1;
// Part of the file, so that a change of the designer's cell count invalidates old files.
constexpr int kCells = AustereDesignTable::kDefaultCells;

bool sameGrid(const AustereDesigner &designer)
{
    const auto batches = AustereDesigner::defaultBatches();
    const auto epsilons = AustereDesigner::defaultEpsilons();
    std::size_t k = 0;
    const auto &tables = designer.tables();
    for (auto m : batches)
        for (double e : epsilons) {
            if (m > tables.front().populationSize())
                continue;
            if (k >= tables.size() || tables[k].batch() != m || tables[k].epsilon() != e)
                return false;
            ++k;
        }
    return k == tables.size();
}

} // namespace

AustereDesignCache::AustereDesignCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

AustereDesignCache AustereDesignCache::fromEnvironment()
{
    return AustereDesignCache(correctionCacheEnabled() ? defaultCacheDirectory() : std::filesystem::path());
}

std::filesystem::path AustereDesignCache::fileFor(std::int64_t populationSize) const
{
    return m_directory / ("austere-design-v" + std::to_string(kVersion) + "-n" + std::to_string(populationSize) + ".txt");
}

std::optional<AustereDesigner> AustereDesignCache::load(std::int64_t populationSize) const
{
    if (!enabled())
        return std::nullopt;
    try {
        std::ifstream in(fileFor(populationSize));
        if (!in)
            return std::nullopt;
        std::string magic, key;
        int version = 0, cells = 0, points = 0;
        std::int64_t n = 0;
        std::size_t count = 0;
        if (!(in >> magic >> version) || magic != kMagic || version != kVersion)
            return std::nullopt;
        if (!(in >> key) || key != "N" || !(in >> n) || !(in >> key) || key != "cells" || !(in >> cells)
            || !(in >> key) || key != "points" || !(in >> points) || !(in >> key) || key != "tables" || !(in >> count))
            return std::nullopt;
        if (n != populationSize || cells != kCells || points != AustereDesignTable::gridPoints() || count == 0
            || count > 10'000)
            return std::nullopt;
        std::vector<AustereDesignTable> tables;
        tables.reserve(count);
        for (std::size_t t = 0; t < count; ++t) {
            std::int64_t batch = 0;
            double epsilon = 0.0;
            if (!(in >> batch >> epsilon))
                return std::nullopt;
            std::vector<double> error(static_cast<std::size_t>(points)), fraction(static_cast<std::size_t>(points));
            for (double &v : error)
                if (!(in >> v))
                    return std::nullopt;
            for (double &v : fraction)
                if (!(in >> v))
                    return std::nullopt;
            tables.emplace_back(populationSize, batch, epsilon, std::move(error), std::move(fraction));
        }
        std::size_t endCount = 0;
        if (!(in >> key) || key != "end" || !(in >> endCount) || endCount != count)
            return std::nullopt;
        AustereDesigner designer(std::move(tables));
        if (!sameGrid(designer))
            return std::nullopt;
        return designer;
    } catch (const std::invalid_argument &) {
        return std::nullopt;
    } catch (const std::ios_base::failure &) {
        return std::nullopt;
    } catch (const std::filesystem::filesystem_error &) {
        return std::nullopt;
    }
}

bool AustereDesignCache::store(std::int64_t populationSize, const AustereDesigner &designer) const
{
    if (!enabled())
        return false;
    try {
        std::filesystem::create_directories(m_directory);
        writeFileAtomically(fileFor(populationSize).string(), [&](std::ostream &out) {
            const auto &tables = designer.tables();
            out << kMagic << ' ' << kVersion << '\n'
                << "N " << populationSize << " cells " << kCells << " points " << AustereDesignTable::gridPoints()
                << " tables " << tables.size() << '\n';
            for (const auto &table : tables) {
                out << table.batch() << ' ' << formatRoundTrip(table.epsilon());
                for (double v : table.errorGrid())
                    out << ' ' << formatRoundTrip(v);
                for (double v : table.dataFractionGrid())
                    out << ' ' << formatRoundTrip(v);
                out << '\n';
            }
            out << "end " << tables.size() << '\n';
        });
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

std::shared_ptr<const AustereDesigner> loadOrBuildAustereDesigner(std::int64_t populationSize,
                                                                  const std::function<void(double)> &progress,
                                                                  std::stop_token stop, bool *fromCache)
{
    const AustereDesignCache cache = AustereDesignCache::fromEnvironment();
    if (auto cached = cache.load(populationSize)) {
        if (fromCache)
            *fromCache = true;
        if (progress)
            progress(1.0);
        return std::make_shared<const AustereDesigner>(std::move(*cached));
    }
    auto designer = std::make_shared<const AustereDesigner>(populationSize, AustereDesigner::defaultBatches(),
                                                            AustereDesigner::defaultEpsilons(), progress, stop);
    cache.store(populationSize, *designer);
    if (fromCache)
        *fromCache = false;
    return designer;
}

} // namespace core
