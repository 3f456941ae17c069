#include "core/data/regression_file.h"

#include <filesystem>
#include <stdexcept>

#include "core/data/byte_source.h"
#include "core/data/csv_dataset.h"
#include "core/data/libsvm_dataset.h"
#include "core/data/npy_dataset.h"

namespace core {
namespace {

// LIBSVM's regression files: the first field of each line is the response, the rest as for
// classification, stored dense.
GlmData readLibsvmRegression(std::istream &in, const std::string &path, ResponseColumn &response)
{
    std::vector<std::size_t> rowStart{0};
    std::vector<std::uint32_t> indices;
    std::vector<float> values;
    long long maxIndex = 0;
    forEachLibsvmRow(in, path, [&](const LibsvmLine &parsed, long lineNumber) {
        response.addLazily(parsed.label(), [lineNumber] { return "line " + std::to_string(lineNumber); });
        maxIndex = std::max(maxIndex, parsed.maxIndex());
        indices.insert(indices.end(), parsed.indices().begin(), parsed.indices().end());
        values.insert(values.end(), parsed.values().begin(), parsed.values().end());
        rowStart.push_back(indices.size());
    });
    const auto rows = static_cast<Eigen::Index>(rowStart.size() - 1);
    if (rows == 0)
        throw std::runtime_error(path + ": no data rows");
    if (maxIndex == 0)
        throw std::runtime_error(path + ": no row has a feature; every feature would be 0");
    const std::size_t bytes = static_cast<std::size_t>(rows) * static_cast<std::size_t>(maxIndex) * sizeof(float);
    if (bytes > kLibsvmMaxDenseBytes)
        throw std::runtime_error(path + ": " + std::to_string(rows) + " rows of " + std::to_string(maxIndex)
                                 + " features take " + std::to_string(bytes >> 20) + " MiB stored dense, over the "
                                 + std::to_string(kLibsvmMaxDenseBytes >> 20) + " MiB limit");
    GlmData data;
    data.features = FeatureMatrix::Zero(rows, static_cast<Eigen::Index>(maxIndex));
    for (Eigen::Index r = 0; r < rows; ++r)
        for (std::size_t k = rowStart[static_cast<std::size_t>(r)]; k < rowStart[static_cast<std::size_t>(r) + 1]; ++k)
            data.features(r, static_cast<Eigen::Index>(indices[k])) = values[k];
    data.response = response.take();
    data.description = std::filesystem::path(path).filename().string() + ": " + std::to_string(rows) + " rows, "
                       + std::to_string(maxIndex) + " features (LIBSVM, the rest 0), response the first field";
    return data;
}

} // namespace

GlmData readRegressionFile(const DataFileRequest &request, const std::string &model, const ResponseColumn::Rule &rule,
                           std::vector<CsvColumnSummary> *columns)
{
    const DataFormat format = request.format ? *request.format : detectDataFormat(request.path);
    if (request.memoryMap == MemoryMap::On)
        throw std::runtime_error(request.path + ": --memory-map on reads a classifier's float32 array in place; a "
                                 "regression reads its rows into memory (leave --memory-map auto)");
    const auto noResponseFile = [&](const char *what) {
        if (!request.labels.empty())
            throw std::runtime_error(request.path + ": " + what + " carries its own responses; leave out the file "
                                     + request.labels);
    };
    ResponseColumn response(request.path, model, rule);
    switch (format) {
    case DataFormat::Csv:
        noResponseFile("a CSV file");
        return readTextFile(request.path, [&](std::istream &in) {
            return parseCsvRegression(in, request.path, request.table, response, columns);
        });
    case DataFormat::Libsvm:
        noResponseFile("a LIBSVM file");
        if (!request.table.labelColumn.empty())
            throw std::runtime_error(request.path + ": a LIBSVM file's response is the first field of each line; "
                                     "--response-column does not apply");
        return readTextFile(request.path, [&](std::istream &in) { return readLibsvmRegression(in, request.path, response); });
    case DataFormat::Npy:
        return readNpyRegression(request.path, request.labels, request.table.labelColumn, response);
    case DataFormat::Idx:
        break;
    }
    throw std::runtime_error(request.path + ": IDX images hold classes, not a regression's response: sample them with "
                             "--dataset logreg, or give a CSV, LIBSVM or .npy file with a numeric response");
}

} // namespace core
