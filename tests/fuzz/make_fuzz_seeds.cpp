// Writes the seed corpora of the fuzz targets with the program's own writers, so that every
// seed is a file the program really produces: make_fuzz_seeds <corpus directory>.
// The hand-written edge cases (CSV variants, damaged files) live in the corpus folders as they
// are; this program rewrites only the files it names.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <QString>

#include "core/acceptance/austere_design_cache.h"
#include "core/correction/correction_cache.h"
#include "core/data/idx_reader.h"
#include "ui/files/session.h"

namespace fs = std::filesystem;

namespace {

std::vector<char> readAll(const fs::path &file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const fs::path &file, const std::vector<char> &bytes)
{
    std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void idxSeeds(const fs::path &dir)
{
    std::vector<std::uint8_t> pixels(3 * 4 * 5);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        pixels[i] = static_cast<std::uint8_t>(i * 37);
    const std::vector<std::uint8_t> labels = {1, 7, 1};
    core::writeIdxImages((dir / "images-3x4x5").string(), pixels, 3, 4, 5, false);
    core::writeIdxImages((dir / "images-3x4x5.gz").string(), pixels, 3, 4, 5, true);
    core::writeIdxLabels((dir / "labels-3").string(), labels, false);
    core::writeIdxLabels((dir / "labels-3.gz").string(), labels, true);
    // Two gzip members back to back are one valid file.
    std::vector<char> twoMembers = readAll(dir / "labels-3.gz");
    const std::vector<char> second = twoMembers;
    twoMembers.insert(twoMembers.end(), second.begin(), second.end());
    writeAll(dir / "labels-3-twice.gz", twoMembers);
}

void correctionSeeds(const fs::path &dir)
{
    const fs::path scratch = dir / "scratch";
    const core::CorrectionCache cache(scratch);
    for (const auto solver : {core::CorrectionSolver::Ridge, core::CorrectionSolver::Nnls}) {
        core::CorrectionParams params;
        params.grid = 50;
        params.solver = solver;
        const auto table = core::CorrectionDistribution::solve(params);
        cache.store(table);
        fs::rename(cache.fileFor(params),
                   dir / (solver == core::CorrectionSolver::Ridge ? "grid50-ridge.bin" : "grid50-nnls.bin"));
    }
    fs::remove_all(scratch);
}

void austereSeeds(const fs::path &dir)
{
    const fs::path scratch = dir / "scratch";
    const core::AustereDesignCache cache(scratch);
    // N = 50 has one batch size, m = 50 = N, so its values are 0 and 1: a short file (3 KB)
    // that mutations turn into every other shape. Larger N give files of 30 KB and more.
    for (const std::int64_t n : {50}) {
        const core::AustereDesigner designer(n, core::AustereDesigner::defaultBatches(),
                                             core::AustereDesigner::defaultEpsilons());
        cache.store(n, designer);
        fs::rename(cache.fileFor(n), dir / ("n" + std::to_string(n) + ".txt"));
    }
    fs::remove_all(scratch);
}

void sessionSeeds(const fs::path &dir)
{
    ui::Session defaults;
    ui::saveSession(defaults, QString::fromStdString((dir / "defaults.json").string()), nullptr);
    ui::Session other;
    other.config.dataset = "logreg";
    other.config.method = core::TestMethod::AustereConservative;
    other.config.seed = 18'446'744'073'709'551'615ULL;
    other.config.burnIn = 400;
    other.config.annealFrom = 100.0;
    other.compare = true;
    other.compareMethods = {core::TestMethod::Minibatch, core::TestMethod::SubLhd};
    other.chains = 4;
    QString error;
    if (!ui::saveSession(other, QString::fromStdString((dir / "logreg-compare.json").string()), &error))
        std::cerr << error.toStdString() << '\n';
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: make_fuzz_seeds <corpus directory>\n";
        return 2;
    }
    const fs::path root = argv[1];
    for (const char *name : {"fuzz_idx", "fuzz_correction_cache", "fuzz_austere_design_cache", "fuzz_session"})
        fs::create_directories(root / name);
    idxSeeds(root / "fuzz_idx");
    correctionSeeds(root / "fuzz_correction_cache");
    austereSeeds(root / "fuzz_austere_design_cache");
    sessionSeeds(root / "fuzz_session");
    return 0;
}
