// `mh-explorer-cli dataset`: export generated data so it can be checked elsewhere, or read back
// as a user's file (--data): the mixture as CSV, tall logistic and tall GLM data as a NumPy .npy
// array written as a stream (sizes beyond memory included) or as CSV. With --data, a user's CSV or LIBSVM file
// converted, as a stream, into the .npy array a run reads in place (core/data/npy_conversion.h).
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <filesystem>
#include <fstream>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "core/data/gaussian_mixture_data.h"
#include "core/data/npy_conversion.h"
#include "core/experiment/inputs/logistic_dataset.h"
#include "core/data/npy_array.h"
#include "core/data/synthetic_glm_data.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"

namespace cli {
namespace {

int writeMixture(const Arguments &args, std::uint64_t seed, const std::string &outPath)
{
    core::GaussianMixtureSpec spec;
    spec.seed = seed;
    spec.size = args.integer("n-data", spec.size);
    if (spec.size < 1 || spec.size > 2'147'483'647)
        throw UsageError("--n-data must be in [1, 2147483647]; got " + std::to_string(spec.size));
    const Eigen::VectorXd x = core::generateGaussianMixture(spec);
    core::writeFileAtomically(outPath, [&](std::ostream &out) {
        out << "# dataset = gmm\n# seed = " << spec.seed << "\n# n_data = " << spec.size
            << "\n# model = x ~ 0.5 N(theta1, 2) + 0.5 N(theta1 + theta2, 2), theta = (0, 1)\nx\n";
        for (Eigen::Index i = 0; i < x.size(); ++i)
            out << core::formatRoundTrip(x[i]) << '\n';
    });
    std::printf("wrote %lld points to %s (mean %.6f, variance %.6f)\n", static_cast<long long>(x.size()),
                outPath.c_str(), x.mean(), (x.array() - x.mean()).square().sum() / std::max<double>(1.0, x.size() - 1.0));
    return 0;
}

// Writes `bytes` (an estimate) to `outPath` through `write(out, temporary)` into a temporary
// file renamed into place at the end: the rows never all sit in memory, and an interrupted or
// failed export leaves no partial file. Refuses before writing when the disk lacks the room.
template <typename Write>
void streamToFile(const std::string &outPath, std::uint64_t bytes, Write &&write)
{
    std::error_code error;
    const auto space = std::filesystem::space(std::filesystem::absolute(outPath).parent_path(), error);
    if (!error && space.available < bytes + (std::uint64_t{1} << 30))
        throw UsageError("--out " + outPath + ": about " + std::to_string(bytes >> 20) + " MiB to write, but only "
                         + std::to_string(space.available >> 20) + " MiB are free there (1 GiB is kept spare)");
    const std::string temporary = outPath + ".part";
    try {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error(temporary + ": cannot write");
        write(out, temporary);
        out.close();
        if (!out)
            throw std::runtime_error(temporary + ": write failed on close");
        std::filesystem::rename(temporary, outPath);
    } catch (...) {
        std::filesystem::remove(temporary, error);
        throw;
    }
}

void stopIfInterrupted()
{
    pollInterrupt();
    if (interruptToken().stop_requested())
        throw std::runtime_error("interrupted");
}

// The shape of a generated file: its rows and covariates, .npy or CSV, the .npy cell type and
// the CSV name of the last column.
struct GeneratedLayout {
    std::int64_t rows;
    int features;
    bool npy;
    const char *npyType;
    const char *targetName;
};

// Generated rows, block by block, into `out`: an .npy array of Cell (the covariates, then the
// label or response last) or a CSV with the header x1, …, xd and the target's name.
// `makeBlock(block, features, targets)` fills one block of float covariates and returns its
// rows; `targetText` writes one target as CSV text.
template <typename Cell, typename Target, typename MakeBlock, typename TargetText>
void writeGeneratedRows(std::ofstream &out, const std::string &temporary, const GeneratedLayout &layout,
                        MakeBlock makeBlock, TargetText targetText)
{
    const std::uint64_t columns = static_cast<std::uint64_t>(layout.features) + 1;
    if (layout.npy) {
        out << core::npyHeaderBytes(layout.npyType, {layout.rows, static_cast<std::int64_t>(columns)});
    } else {
        for (int j = 0; j < layout.features; ++j)
            out << 'x' << (j + 1) << ',';
        out << layout.targetName << '\n';
    }
    const auto blockRows = static_cast<std::size_t>(core::kSyntheticBlockRows);
    std::vector<float> features(blockRows * static_cast<std::size_t>(layout.features));
    std::vector<Target> targets(blockRows);
    std::vector<Cell> rows(blockRows * columns);
    const std::int64_t blocks = (layout.rows + core::kSyntheticBlockRows - 1) / core::kSyntheticBlockRows;
    for (std::int64_t block = 0; block < blocks; ++block) {
        stopIfInterrupted();
        const std::int64_t count = makeBlock(block, features.data(), targets.data());
        for (std::int64_t r = 0; r < count; ++r) {
            const auto row = static_cast<std::size_t>(r);
            const float *x = features.data() + row * static_cast<std::size_t>(layout.features);
            if (layout.npy) {
                std::copy(x, x + layout.features, rows.data() + row * columns);
                rows[row * columns + columns - 1] = static_cast<Cell>(targets[row]);
            } else {
                for (int j = 0; j < layout.features; ++j)
                    out << core::formatRoundTrip(x[j]) << ',';
                out << targetText(targets[row]) << '\n';
            }
        }
        if (layout.npy)
            out.write(reinterpret_cast<const char *>(rows.data()),
                      static_cast<std::streamsize>(static_cast<std::size_t>(count) * columns * sizeof(Cell)));
        if (!out)
            throw std::runtime_error(temporary + ": write failed (disk full?)");
    }
}

// tall-logreg's rows, block by block (streamToFile).
int writeTallLogistic(const Arguments &args, std::uint64_t seed, const std::string &outPath)
{
    core::SyntheticLogisticSpec spec;
    spec.seed = seed;
    spec.rows = args.integer("n-data", 1'000'000);
    const std::int64_t dimension = args.integer("dimension", 20);
    if (spec.rows < 2 || spec.rows > core::kMaxSyntheticRows)
        throw UsageError("--n-data must be in [2, 2^40] for an export; got " + std::to_string(spec.rows));
    if (dimension < 2 || dimension > 10'000)
        throw UsageError("--dimension must be in [2, 10000] (the bias counted); got " + std::to_string(dimension));
    spec.features = static_cast<int>(dimension - 1);
    const bool npy = std::filesystem::path(outPath).extension() == ".npy";
    const std::uint64_t columns = static_cast<std::uint64_t>(spec.features) + 1; // the label last
    const std::uint64_t bytes = static_cast<std::uint64_t>(spec.rows) * columns * (npy ? 4 : 12);
    const auto started = std::chrono::steady_clock::now();
    streamToFile(outPath, bytes, [&](std::ofstream &out, const std::string &temporary) {
        writeGeneratedRows<float, std::uint8_t>(
            out, temporary, {spec.rows, spec.features, npy, "<f4", "label"},
            [&](std::int64_t block, float *features, std::uint8_t *labels) {
                return core::syntheticLogisticBlock(spec, block, features, labels);
            },
            [](std::uint8_t label) { return std::to_string(int(label)); });
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("wrote %lld rows of %d features and the label (last column) to %s: %.3g MB in %.1f s; read it with "
                "run --dataset logreg --data %s --label-column -1\n",
                static_cast<long long>(spec.rows), spec.features, outPath.c_str(),
                static_cast<double>(std::filesystem::file_size(outPath)) / 1e6, seconds, outPath.c_str());
    return 0;
}

// tall-glm's rows (syntheticGlmBlock), block by block (streamToFile): an .npy array of doubles,
// the covariates then the response (doubles keep every response as the run draws it, and a
// float covariate exactly), or CSV. `run --dataset glm --data FILE --response-column -1
// --no-standardize` reads it back as the rows of `run --dataset tall-glm` with the same seed.
int writeTallGlm(const Arguments &args, std::uint64_t seed, const std::string &outPath)
{
    core::RunConfig chosen; // the model's settings, read and checked by the settings table
    for (const char *key : {"model", "model_plugin", "nu", "noise_scale"})
        readSetting(args, *core::findSettingByKey(key), chosen);
    core::SyntheticGlmSpec spec;
    spec.seed = seed;
    spec.family = chosen.glm;
    spec.rows = args.integer("n-data", 1'000'000);
    const std::int64_t dimension = args.integer("dimension", 20);
    if (spec.rows < 2 || spec.rows > 100'000'000)
        throw UsageError("--n-data must be in [2, 100000000] for tall-glm; got " + std::to_string(spec.rows));
    if (dimension < 2 || dimension > 10'000)
        throw UsageError("--dimension must be in [2, 10000] (the bias counted); got " + std::to_string(dimension));
    spec.features = static_cast<int>(dimension - 1);
    const std::unique_ptr<const core::GlmFamily> family = core::makeGlmFamily(spec.family);
    const bool npy = std::filesystem::path(outPath).extension() == ".npy";
    const std::uint64_t columns = static_cast<std::uint64_t>(spec.features) + 1; // the response last
    const auto started = std::chrono::steady_clock::now();
    streamToFile(outPath, static_cast<std::uint64_t>(spec.rows) * columns * (npy ? 8 : 14),
                 [&](std::ofstream &out, const std::string &temporary) {
        writeGeneratedRows<double, double>(
            out, temporary, {spec.rows, spec.features, npy, "<f8", "response"},
            [&](std::int64_t block, float *features, double *responses) {
                return core::syntheticGlmBlock(spec, *family, block, features, responses);
            },
            [](double response) { return core::formatRoundTrip(response); });
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s\nwrote %lld rows of %d covariates and the response (last column) to %s: %.3g MB in %.1f s; read "
                "it with run --dataset glm --data %s --model %s --response-column -1 --no-standardize\n",
                core::syntheticGlmDescription(spec, *family).c_str(), static_cast<long long>(spec.rows), spec.features,
                outPath.c_str(), static_cast<double>(std::filesystem::file_size(outPath)) / 1e6, seconds,
                outPath.c_str(), spec.family.plugin.empty() ? spec.family.name.c_str() : "... --model-plugin PLUGIN");
    return 0;
}

// A user's CSV or LIBSVM file, two passes a line at a time, into a float32 .npy with the label last.
int convertUserData(const Arguments &args, const std::string &outPath)
{
    for (const char *generated : {"dataset", "seed", "data-seed", "n-data", "dimension"})
        if (args.has(generated))
            throw UsageError(std::string("--") + generated + " is for generated data; --data converts your file");
    if (std::filesystem::path(outPath).extension() != ".npy")
        throw UsageError("--out " + outPath + ": --data is converted to a NumPy array; name it .npy");
    core::RunConfig read;
    for (const char *key : {"data", "format", "label_column", "delimiter", "drop_missing"})
        readSetting(args, *core::findSettingByKey(key), read);
    const core::DataFileRequest request = core::dataFileRequest(read.logreg);
    const auto started = std::chrono::steady_clock::now();
    const core::NpyConversion result = core::convertToNpy(request, outPath, [&](int pass) {
        std::fprintf(stderr, "%s: pass %d of 2 (%s) after %.1f s\n", request.path.c_str(), pass,
                     pass == 1 ? "checking every line, finding the shape" : "writing the rows",
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }, interruptToken());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s\nwrote %lld rows of %d features and the label (last column, 0 or 1) to %s: %.3g MB in %.1f s; read "
                "it with run --dataset logreg --data %s --label-column -1\n",
                result.description.c_str(), static_cast<long long>(result.rows), result.features, outPath.c_str(),
                static_cast<double>(result.bytes) / 1e6, seconds, outPath.c_str());
    return 0;
}

} // namespace

int datasetCommand(int argc, char **argv)
{
    const Arguments args(argc, argv, 2, {"dataset", "seed", "data-seed", "n-data", "dimension", "out", "data", "format",
                                         "label-column", "delimiter", "model", "model-plugin", "nu", "noise-scale"},
                         {"drop-missing"});
    if (!args.has("out"))
        throw UsageError("--out is required (gmm: a CSV path; tall-logreg, tall-glm: a .npy or .csv path; --data: a .npy path)");
    if (args.has("data")) {
        const std::string outPath = args.text("out", "");
        requireWritable("out", outPath);
        return convertUserData(args, outPath);
    }
    for (const char *tableOnly : {"format", "label-column", "delimiter", "drop-missing"})
        if (args.has(tableOnly))
            throw UsageError(std::string("--") + tableOnly + " is for converting your file (--data)");
    const std::string dataset = args.text("dataset", "gmm");
    const core::DatasetEntry *entry = core::findDataset(dataset);
    if (!entry || entry->exportAs == core::DatasetExport::None) {
        std::string names;
        for (const core::DatasetEntry &candidate : core::datasetTable())
            if (candidate.exportAs != core::DatasetExport::None) {
                names += names.empty() ? "" : " or ";
                names += candidate.name;
            }
        throw UsageError("--dataset must be " + names + "; got '" + dataset + "'");
    }
    if (!entry->dimensionSetting && args.has("dimension"))
        throw UsageError("--dimension is for --dataset tall-logreg or tall-glm");
    if (!core::modelIsChosen(*entry))
        for (const char *modelOnly : {"model", "model-plugin", "nu", "noise-scale"})
            if (args.has(modelOnly))
                throw UsageError(std::string("--") + modelOnly + " is for --dataset tall-glm");
    core::RunConfig seeded; // the table's seed reader: whole, unsigned, named errors
    readSetting(args, *core::findSettingByKey("seed"), seeded);
    readSetting(args, *core::findSettingByKey("data_seed"), seeded);
    const std::string outPath = args.text("out", "");
    requireWritable("out", outPath);
    // The mixture's seed is --seed (what a run's header records for its data); tall-logreg's rows are those of
    // run --dataset tall-logreg --data-seed S.
    switch (entry->exportAs) {
    case core::DatasetExport::MixturePoints: return writeMixture(args, seeded.seed, outPath);
    case core::DatasetExport::LogisticRows: return writeTallLogistic(args, seeded.dataSeed, outPath);
    case core::DatasetExport::RegressionRows: return writeTallGlm(args, seeded.dataSeed, outPath);
    case core::DatasetExport::None: break;
    }
    throw std::logic_error("a dataset that cannot be written passed the check above");
}

} // namespace cli
