#include "core/data/regression_file.h"

#include <filesystem>
#include <stdexcept>

#include "core/data/byte_source.h"
#include "core/data/data_formats.h"
#include "core/data/libsvm_dataset.h"

namespace core {
namespace {

GlmData parseLibsvmRegression(std::istream &in, const std::string &path, ResponseColumn &response)
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

GlmData readLibsvmRegressionFile(const std::string &path, ResponseColumn &response)
{
    return readTextFile(path, [&](std::istream &in) { return parseLibsvmRegression(in, path, response); });
}

GlmData readRegressionFile(const DataFileRequest &request, const std::string &model, const ResponseColumn::Rule &rule,
                           std::vector<CsvColumnSummary> *columns)
{
    const DataFormatEntry &row = dataFormatEntry(request.format ? *request.format : detectDataFormat(request.path));
    if (request.memoryMap == MemoryMap::On)
        throw std::runtime_error(request.path + ": --memory-map on reads a classifier's float32 array in place; a "
                                 "regression reads its rows into memory (leave --memory-map auto)");
    if (row.ownLabels && !request.labels.empty())
        throw std::runtime_error(request.path + ": a " + std::string(row.label) + " file carries its own responses; "
                                 "leave out the file " + request.labels);
    if (!row.readRegression)
        throw std::runtime_error(request.path + ": " + std::string(row.regressionRefusal));
    ResponseColumn response(request.path, model, rule);
    return row.readRegression(request, response, columns);
}

} // namespace core
