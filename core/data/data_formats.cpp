#include "core/data/data_formats.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/data/byte_source.h"
#include "core/data/libsvm_dataset.h"
#include "core/data/npy_array.h"
#include "core/data/npy_conversion.h"
#include "core/data/npy_dataset.h"
#include "core/data/regression_file.h"

namespace core {
namespace {

bool hasIdxMagic(const std::uint8_t *bytes, std::size_t size)
{
    // Two zero bytes, the element type (0x08 unsigned byte … 0x0E double), 1 to 4 dimensions.
    return size >= 4 && bytes[0] == 0 && bytes[1] == 0 && (bytes[2] == 0x08 || (bytes[2] >= 0x09 && bytes[2] <= 0x0E))
           && bytes[3] >= 1 && bytes[3] <= 4;
}

ClassificationData readCsv(const DataFileRequest &request, std::vector<CsvColumnSummary> *columns)
{
    return readCsvDataset(request.path, request.table, columns);
}

GlmData readCsvRegression(const DataFileRequest &request, ResponseColumn &response, std::vector<CsvColumnSummary> *columns)
{
    return readTextFile(request.path, [&](std::istream &in) {
        return parseCsvRegression(in, request.path, request.table, response, columns);
    });
}

NpyConversion convertCsv(const DataFileRequest &request, const std::string &temporary,
                         const std::function<void(int)> &passStarted, std::stop_token stop)
{
    return convertCsvToNpy(request.path, request.table, temporary, passStarted, stop);
}

ClassificationData readLibsvm(const DataFileRequest &request, std::vector<CsvColumnSummary> *)
{
    if (!request.table.labelColumn.empty())
        throw std::runtime_error(request.path + ": a LIBSVM file's label is the first field of each line; "
                                 "--label-column does not apply");
    return readLibsvmDataset(request.path);
}

GlmData readLibsvmRegression(const DataFileRequest &request, ResponseColumn &response, std::vector<CsvColumnSummary> *)
{
    if (!request.table.labelColumn.empty())
        throw std::runtime_error(request.path + ": a LIBSVM file's response is the first field of each line; "
                                 "--response-column does not apply");
    return readLibsvmRegressionFile(request.path, response);
}

NpyConversion convertLibsvm(const DataFileRequest &request, const std::string &temporary,
                            const std::function<void(int)> &passStarted, std::stop_token stop)
{
    return convertLibsvmToNpy(request.path, temporary, passStarted, stop);
}

ClassificationData readNpy(const DataFileRequest &request, std::vector<CsvColumnSummary> *)
{
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

GlmData readNpyResponses(const DataFileRequest &request, ResponseColumn &response, std::vector<CsvColumnSummary> *)
{
    return readNpyRegression(request.path, request.labels, request.table.labelColumn, response);
}

std::vector<DataFormatEntry> makeTable()
{
    std::vector<DataFormatEntry> table;
    {
        DataFormatEntry csv{DataFormat::Csv, "csv", "CSV", {".csv", ".tsv"}, {}, FileSelection::Table};
        csv.readClassification = readCsv;
        csv.readRegression = readCsvRegression;
        csv.convert = convertCsv;
        table.push_back(std::move(csv));
    }
    {
        DataFormatEntry libsvm{DataFormat::Libsvm, "libsvm", "LIBSVM", {".svm", ".libsvm", ".svmlight"}, {},
                               FileSelection::Array};
        libsvm.firstLine = looksLikeLibsvmLine;
        libsvm.readClassification = readLibsvm;
        libsvm.readRegression = readLibsvmRegression;
        libsvm.convert = convertLibsvm;
        table.push_back(std::move(libsvm));
    }
    {
        DataFormatEntry npy{DataFormat::Npy, "npy", "NumPy .npy", {".npy"}, {}, FileSelection::Array};
        npy.magic = hasNpyMagic;
        npy.ownLabels = false;
        npy.mappable = true;
        npy.readClassification = readNpy;
        npy.readRegression = readNpyResponses;
        npy.conversionRefusal = "is a NumPy array already; run it with --data (an uncompressed float32 array is read "
                                "in place)";
        table.push_back(std::move(npy));
    }
    {
        DataFormatEntry idx{DataFormat::Idx, "idx", "IDX", {".idx"}, {"ubyte", "idx"}, FileSelection::ImagePair};
        idx.magic = hasIdxMagic;
        idx.ownLabels = false; // its label file is a second IDX file, which logistic_dataset.h reads
        idx.readRefusal = "IDX images need their label file and two classes (--labels, --classes)";
        idx.regressionRefusal = "IDX images hold classes, not a regression's response: sample them with --dataset "
                                "logreg, or give a CSV, LIBSVM or .npy file with a numeric response";
        idx.conversionRefusal = "IDX images are converted with their classes chosen; run them with --images and --labels";
        table.push_back(std::move(idx));
    }
    return table;
}

} // namespace

const std::vector<DataFormatEntry> &dataFormatTable()
{
    static const std::vector<DataFormatEntry> table = makeTable();
    return table;
}

const DataFormatEntry &dataFormatEntry(DataFormat format)
{
    const auto &table = dataFormatTable();
    const auto found = std::find_if(table.begin(), table.end(), [format](const DataFormatEntry &row) { return row.format == format; });
    return found != table.end() ? *found : throw std::logic_error("a data format without its row in dataFormatTable()");
}

std::string dataFileDialogPatterns()
{
    // Appended piece by piece: GCC 12 reports "*" + std::string(…) as an overlapping copy
    // (a false positive of -Wrestrict, an error under -Werror).
    std::string patterns;
    const auto add = [&](std::string_view before, std::string_view text, std::string_view after) {
        if (!patterns.empty())
            patterns += ' ';
        patterns.append(before).append(text).append(after);
    };
    for (const DataFormatEntry &row : dataFormatTable()) {
        for (std::string_view suffix : row.suffixes)
            add("*", suffix, "");
        for (std::string_view part : row.nameParts)
            add("*", part, ""); // names that end so: "train-images-idx3-ubyte"
    }
    add("*", ".gz", "");
    return patterns;
}

namespace {

// "a, b, c or d" of one field of every row.
std::string listOf(std::string_view DataFormatEntry::*field, std::string_view conjunction)
{
    const std::vector<DataFormatEntry> &table = dataFormatTable();
    std::string text;
    for (std::size_t k = 0; k < table.size(); ++k) {
        if (k > 0)
            text.append(k + 1 == table.size() ? " " : ", ");
        if (k > 0 && k + 1 == table.size())
            text.append(conjunction).append(" ");
        text.append(table[k].*field);
    }
    return text;
}

} // namespace

std::string dataFormatLabels(std::string_view conjunction)
{
    return listOf(&DataFormatEntry::label, conjunction);
}

std::string dataFormatNames(std::string_view conjunction)
{
    return listOf(&DataFormatEntry::name, conjunction);
}

} // namespace core
