#include "core/data/data_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "core/data/byte_source.h"
#include "core/data/data_formats.h"

namespace core {

std::string dataFormatName(DataFormat format)
{
    return std::string(dataFormatEntry(format).name);
}

std::optional<DataFormat> parseDataFormat(const std::string &text)
{
    if (text == "auto")
        return std::nullopt;
    for (const DataFormatEntry &row : dataFormatTable())
        if (row.name == text)
            return row.format;
    throw std::invalid_argument("format must be auto, " + dataFormatNames() + "; got '" + text + "'");
}

DataFormat detectDataFormat(const std::string &path)
{
    ByteSource source(path);
    std::string head(4096, '\0');
    head.resize(source.read(reinterpret_cast<std::uint8_t *>(head.data()), head.size()));
    const auto *bytes = reinterpret_cast<const std::uint8_t *>(head.data());
    for (const DataFormatEntry &row : dataFormatTable())
        if (row.magic && row.magic(bytes, head.size()))
            return row.format;
    // Text: the first line that is not blank or a comment decides; what no text format claims is
    // CSV (the row with neither a magic nor a first-line test).
    std::size_t start = 0;
    while (start < head.size()) {
        const std::size_t end = std::min(head.find('\n', start), head.size());
        const std::string_view line = std::string_view(head).substr(start, end - start);
        const auto first = std::find_if(line.begin(), line.end(), [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
        if (first != line.end() && *first != '#') {
            for (const DataFormatEntry &row : dataFormatTable())
                if (row.firstLine && row.firstLine(line))
                    return row.format;
            break;
        }
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
    for (const DataFormatEntry &row : dataFormatTable())
        for (std::string_view suffix : row.suffixes)
            if (name.ends_with(suffix))
                return row.format;
    for (const DataFormatEntry &row : dataFormatTable())
        for (std::string_view part : row.nameParts)
            if (name.find(part) != std::string::npos)
                return row.format;
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
    const DataFormatEntry &row = dataFormatEntry(request.format ? *request.format : detectDataFormat(request.path));
    if (request.memoryMap == MemoryMap::On && !row.mappable)
        throw std::runtime_error(request.path + ": --memory-map on reads NumPy .npy arrays in place; this is a "
                                 + std::string(row.name) + " file (convert it with numpy.save, or leave --memory-map auto)");
    if (row.ownLabels && !request.labels.empty())
        throw std::runtime_error(request.path + ": a " + std::string(row.label) + " file carries its own labels; leave "
                                 "out the label file " + request.labels);
    if (!row.readClassification)
        throw std::runtime_error(request.path + ": " + std::string(row.readRefusal));
    return row.readClassification(request, columns);
}

} // namespace core
