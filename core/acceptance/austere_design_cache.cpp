#include "core/acceptance/austere_design_cache.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/correction/correction_cache.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"
#include "core/io/cache_directory.h"

namespace core {
namespace {

constexpr const char *kMagic = "MHX-AUSTERE-DESIGN";
constexpr int kVersion = 1;
// Part of the file, so that a change of the designer's cell count invalidates old files.
constexpr int kCells = AustereDesignTable::kDefaultCells;
// Far more than the default grid's 60 tables; a larger count is a damaged or forged file.
constexpr std::size_t kMaxTables = 10'000;

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

AustereDesigner parseAustereDesignCacheFile(std::istream &in, std::int64_t populationSize, const std::string &name)
{
    const auto fail = [&name](const std::string &what) { return std::runtime_error(name + ": " + what); };
    std::string magic, key;
    int version = 0, cells = 0, points = 0;
    std::int64_t n = 0;
    std::size_t count = 0;
    if (!(in >> magic >> version) || magic != kMagic)
        throw fail(std::string("not an AustereMH design file (the first line must be '") + kMagic + " "
                   + std::to_string(kVersion) + "')");
    if (version != kVersion)
        throw fail("format version " + std::to_string(version) + ", expected " + std::to_string(kVersion));
    // The sizes line is checked in full before anything is allocated: a forged count or N must
    // not reserve memory.
    if (!(in >> key) || key != "N" || !(in >> n) || !(in >> key) || key != "cells" || !(in >> cells)
        || !(in >> key) || key != "points" || !(in >> points) || !(in >> key) || key != "tables" || !(in >> count))
        throw fail("the second line must be 'N <n> cells <c> points <p> tables <t>' with integer values");
    if (n != populationSize)
        throw fail("the grid is for N = " + std::to_string(n) + ", not " + std::to_string(populationSize));
    if (cells != kCells || points != AustereDesignTable::gridPoints())
        throw fail("the grid has " + std::to_string(cells) + " cells and " + std::to_string(points)
                   + " points, but this program uses " + std::to_string(kCells) + " and "
                   + std::to_string(AustereDesignTable::gridPoints()));
    if (count == 0 || count > kMaxTables)
        throw fail("the header announces " + std::to_string(count) + " tables; between 1 and "
                   + std::to_string(kMaxTables) + " are supported");
    std::vector<AustereDesignTable> tables;
    tables.reserve(count);
    for (std::size_t t = 0; t < count; ++t) {
        const std::string where = "table " + std::to_string(t + 1) + " of " + std::to_string(count) + ": ";
        std::int64_t batch = 0;
        double epsilon = 0.0;
        if (!(in >> batch >> epsilon))
            throw fail(where + "missing or non-numeric batch size and epsilon");
        std::vector<double> error(static_cast<std::size_t>(points)), fraction(static_cast<std::size_t>(points));
        for (double &v : error)
            if (!(in >> v))
                throw fail(where + "missing or non-numeric error value");
        for (double &v : fraction)
            if (!(in >> v))
                throw fail(where + "missing or non-numeric data-fraction value");
        try {
            tables.emplace_back(populationSize, batch, epsilon, std::move(error), std::move(fraction));
        } catch (const std::invalid_argument &problem) {
            throw fail(where + problem.what());
        }
    }
    std::size_t endCount = 0;
    if (!(in >> key) || key != "end" || !(in >> endCount) || endCount != count)
        throw fail("truncated: no 'end " + std::to_string(count) + "' line after the tables");
    AustereDesigner designer(std::move(tables));
    if (!sameGrid(designer))
        throw fail("the tables are not the default grid of batch sizes and error levels");
    return designer;
}

std::optional<AustereDesigner> AustereDesignCache::load(std::int64_t populationSize) const
{
    if (!enabled())
        return std::nullopt;
    try {
        const std::filesystem::path file = fileFor(populationSize);
        std::ifstream in(file);
        if (!in)
            return std::nullopt;
        return parseAustereDesignCacheFile(in, populationSize, file.string());
    } catch (const std::runtime_error &) {
        // A bad file is a cache miss: the grid is tabulated again and the file replaced.
        return std::nullopt;
    } catch (const std::invalid_argument &) {
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
