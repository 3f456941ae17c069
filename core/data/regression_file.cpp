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
    DenseLibsvmRows dense = readDenseLibsvmRows(in, path, [&](double label, long lineNumber) {
        response.addLazily(label, [lineNumber] { return "line " + std::to_string(lineNumber); });
    });
    GlmData data;
    data.description = std::filesystem::path(path).filename().string() + ": " + std::to_string(dense.features.rows())
                       + " rows, " + std::to_string(dense.features.cols())
                       + " features (LIBSVM, the rest 0), response the first field";
    data.features = std::move(dense.features);
    data.response = response.take();
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
