#pragma once
/// One way in for a user's data file: its format told from the content (a NumPy magic, an IDX
/// magic, LIBSVM's `label index:value` lines, else CSV; gzipped or not) unless named, and the
/// reader of that format. IDX images need their classes chosen and are loaded by the
/// logistic-regression data step (core/experiment/inputs/logistic_dataset.h); every other format
/// gives a binary classification data set here.
#include <cstdint>
#include <optional>
#include <string>

#include "core/data/classification_data.h"
#include "core/data/csv_dataset.h"

namespace core {

enum class DataFormat { Csv, Libsvm, Npy, Idx };

/// "csv", "libsvm", "npy" or "idx".
std::string dataFormatName(DataFormat format);
/// "auto" gives nullopt (detect); otherwise one of the names above. Throws std::invalid_argument
/// naming the accepted values.
std::optional<DataFormat> parseDataFormat(const std::string &text);

/// The format of the file at `path` from its first bytes (inflated when gzipped). Throws
/// std::runtime_error when the file cannot be read.
DataFormat detectDataFormat(const std::string &path);

/// What a data file's name suggests, for choices made before it is read (which preset defaults
/// apply): IDX for names with "ubyte", "idx" or ".idx"; nullopt when the name says nothing.
std::optional<DataFormat> formatFromName(const std::string &path);

/// Whether a NumPy features array is read in place through a memory map (npy_dataset.h:
/// mapNpyDataset) instead of into memory: Auto maps an uncompressed float32 array of at least
/// kMapFromBytes and reads anything else into memory; On maps or fails with the reason; Off
/// always reads into memory.
enum class MemoryMap { Auto, On, Off };
inline constexpr std::uintmax_t kMapFromBytes = std::uintmax_t{1} << 30;
/// "auto", "on" or "off".
std::string memoryMapName(MemoryMap mode);
/// The inverse of memoryMapName(); throws std::invalid_argument naming the accepted values.
MemoryMap parseMemoryMap(const std::string &text);

struct DataFileRequest {
    std::string path;
    std::optional<DataFormat> format; ///< nullopt: detectDataFormat()
    std::string labels;               ///< a label file (.npy or IDX) for an .npy features array
    CsvReadOptions table;             ///< CSV: label column, delimiter, missing values; .npy: label column
    MemoryMap memoryMap = MemoryMap::Auto;
};

/// Reads a CSV, LIBSVM or .npy file into a data set (`columns`, when given, receives a CSV's
/// columns as readCsvDataset() does). Throws std::runtime_error naming the file for a malformed
/// file or an IDX file (which needs its classes: see logistic_dataset.h), and for a label file
/// given with a format that carries its own labels.
ClassificationData readDataFile(const DataFileRequest &request, std::vector<CsvColumnSummary> *columns = nullptr);

} // namespace core
