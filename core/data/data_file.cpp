#include "core/data/data_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "core/data/byte_source.h"
#include "core/data/libsvm_dataset.h"
#include "core/data/npy_array.h"
#include "core/data/npy_dataset.h"

namespace core {
namespace {

bool hasIdxMagic(const std::uint8_t *bytes, std::size_t size)
{
    // Two zero bytes, the element type (0x08 unsigned byte … 0x0E double), 1 to 4 dimensions.
    return size >= 4 && bytes[0] == 0 && bytes[1] == 0 && (bytes[2] == 0x08 || (bytes[2] >= 0x09 && bytes[2] <= 0x0E))
           && bytes[3] >= 1 && bytes[3] <= 4;
}

} // namespace

std::string dataFormatName(DataFormat format)
{
    switch (format) {
    case DataFormat::Csv: return "csv";
    case DataFormat::Libsvm: return "libsvm";
    case DataFormat::Npy: return "npy";
    case DataFormat::Idx: return "idx";
    }
    return "csv";
}

std::optional<DataFormat> parseDataFormat(const std::string &text)
{
    if (text == "auto")
        return std::nullopt;
    for (DataFormat format : {DataFormat::Csv, DataFormat::Libsvm, DataFormat::Npy, DataFormat::Idx})
        if (dataFormatName(format) == text)
            return format;
    throw std::invalid_argument("format must be auto, csv, libsvm, npy or idx; got '" + text + "'");
}

DataFormat detectDataFormat(const std::string &path)
{
    ByteSource source(path);
    std::string head(4096, '\0');
    head.resize(source.read(reinterpret_cast<std::uint8_t *>(head.data()), head.size()));
    const auto *bytes = reinterpret_cast<const std::uint8_t *>(head.data());
    if (hasNpyMagic(bytes, head.size()))
        return DataFormat::Npy;
    if (hasIdxMagic(bytes, head.size()))
        return DataFormat::Idx;
    // Text: the first line that is not blank or a comment decides.
    std::size_t start = 0;
    while (start < head.size()) {
        const std::size_t end = std::min(head.find('\n', start), head.size());
        const std::string_view line = std::string_view(head).substr(start, end - start);
        const auto first = std::find_if(line.begin(), line.end(), [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
        if (first != line.end() && *first != '#')
            return looksLikeLibsvmLine(line) ? DataFormat::Libsvm : DataFormat::Csv;
        start = end + 1;
    }
    return DataFormat::Csv;
}

std::optional<DataFormat> formatFromName(const std::string &path)
{
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name.ends_with(".gz"))
        name.resize(name.size() - 3);
    if (name.ends_with(".npy"))
        return DataFormat::Npy;
    if (name.ends_with(".csv") || name.ends_with(".tsv"))
        return DataFormat::Csv;
    if (name.ends_with(".svm") || name.ends_with(".libsvm") || name.ends_with(".svmlight"))
        return DataFormat::Libsvm;
    if (name.find("ubyte") != std::string::npos || name.find("idx") != std::string::npos)
        return DataFormat::Idx;
    return std::nullopt;
}

std::string memoryMapName(MemoryMap mode)
{
    switch (mode) {
    case MemoryMap::Auto: return "auto";
    case MemoryMap::On: return "on";
    case MemoryMap::Off: return "off";
    }
    return "auto";
}

MemoryMap parseMemoryMap(const std::string &text)
{
    for (MemoryMap mode : {MemoryMap::Auto, MemoryMap::On, MemoryMap::Off})
        if (text == memoryMapName(mode))
            return mode;
    throw std::invalid_argument("memory-map must be auto, on or off; got '" + text + "'");
}

ClassificationData readDataFile(const DataFileRequest &request, std::vector<CsvColumnSummary> *columns)
{
    const DataFormat format = request.format ? *request.format : detectDataFormat(request.path);
    if (request.memoryMap == MemoryMap::On && format != DataFormat::Npy)
        throw std::runtime_error(request.path + ": --memory-map on reads NumPy .npy arrays in place; this is a "
                                 + dataFormatName(format) + " file (convert it with numpy.save, or leave --memory-map auto)");
    const auto noLabelFile = [&](const char *what) {
        if (!request.labels.empty())
            throw std::runtime_error(request.path + ": " + what + " carries its own labels; leave out the label file "
                                     + request.labels);
    };
    switch (format) {
    case DataFormat::Csv:
        noLabelFile("a CSV file");
        return readCsvDataset(request.path, request.table, columns);
    case DataFormat::Libsvm:
        noLabelFile("a LIBSVM file");
        if (!request.table.labelColumn.empty())
            throw std::runtime_error(request.path + ": a LIBSVM file's label is the first field of each line; "
                                     "--label-column does not apply");
        return readLibsvmDataset(request.path);
    case DataFormat::Npy: {
        std::error_code error;
        const auto size = std::filesystem::file_size(request.path, error);
        if (request.memoryMap == MemoryMap::On || (request.memoryMap == MemoryMap::Auto && !error && size >= kMapFromBytes)) {
            try {
                return mapNpyDataset(request.path, request.labels, request.table.labelColumn);
            } catch (const NotMappable &) {
                if (request.memoryMap == MemoryMap::On)
                    throw;
            }
        }
        return readNpyDataset(request.path, request.labels, request.table.labelColumn);
    }
    case DataFormat::Idx:
        break;
    }
    throw std::runtime_error(request.path + ": IDX images need their label file and two classes (--labels, --classes)");
}

} // namespace core
