#pragma once
/// One row for each data-file format this program reads: its name, what a person calls it, the
/// file names and first bytes that tell it, its readers for a classifier and a regression, its
/// streamed conversion to a NumPy array, and the part of a file dialog's filter it adds. Every
/// place that lists formats (detection, the readers' dispatch, `convert`, the CLI's `--format`,
/// the app's file dialog, its drop sorting and tooltips) reads this table, so a new format is a
/// new reader and one row here (with its DataFormat value in data_file.h).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/classification_data.h"
#include "core/data/csv_dataset.h"
#include "core/data/data_file.h"
#include "core/data/regression_data.h"
#include "core/data/response_column.h"

namespace core {

struct NpyConversion;

/// How the app's file selection holds a file of the format (ui/files/data_files.h).
enum class FileSelection {
    Table,     ///< alone, with its columns to choose (CSV)
    Array,     ///< alone, or a .npy features array with its .npy label array
    ImagePair, ///< an image file with its label file, classes chosen (IDX)
};

struct DataFormatEntry {
    DataFormat format;
    std::string_view name;                 ///< `--format` and dataFormatName(): "csv"
    std::string_view label;                ///< for people: "CSV"
    std::vector<std::string_view> suffixes; ///< lower-case name endings, before any ".gz": ".csv", ".tsv"
    /// Lower-case parts of a name that suggest the format where no suffix does (IDX: "ubyte").
    std::vector<std::string_view> nameParts;
    FileSelection selection = FileSelection::Table;
    /// True from the first bytes (inflated when gzipped): a binary format's magic. Null for text.
    bool (*magic)(const std::uint8_t *bytes, std::size_t size) = nullptr;
    /// True from the first line that is not blank or a comment: a text format that is not the
    /// fallback. Null for binary formats and for CSV, which every other text is taken for.
    bool (*firstLine)(std::string_view line) = nullptr;
    /// Each point's label or response is in the file: a separate label file is refused.
    bool ownLabels = true;
    /// `--memory-map on` may read it in place.
    bool mappable = false;

    /// A classifier's data from the file (request.path and its own options). Null: `readRefusal`.
    ClassificationData (*readClassification)(const DataFileRequest &request, std::vector<CsvColumnSummary> *columns) = nullptr;
    std::string_view readRefusal;
    /// A regression's data, the response chosen by `response`. Null: `regressionRefusal`.
    GlmData (*readRegression)(const DataFileRequest &request, ResponseColumn &response,
                              std::vector<CsvColumnSummary> *columns) = nullptr;
    std::string_view regressionRefusal;
    /// The file streamed into an uncompressed float32 .npy array at `temporary` (npy_conversion.h).
    /// Null: `conversionRefusal`.
    NpyConversion (*convert)(const DataFileRequest &request, const std::string &temporary,
                             const std::function<void(int pass)> &passStarted, std::stop_token stop) = nullptr;
    std::string_view conversionRefusal;
};

/// Every format, in the order people read them (messages, tooltips). Detection tries the binary
/// magics first, then the text formats' first lines, and takes the rest for CSV.
const std::vector<DataFormatEntry> &dataFormatTable();
/// The row of `format` (every DataFormat has one).
const DataFormatEntry &dataFormatEntry(DataFormat format);

/// "*.csv *.tsv *.npy … *ubyte": every suffix and name part, for a file dialog's filter.
std::string dataFileDialogPatterns();
/// "CSV, LIBSVM, NumPy .npy or IDX": every format's label, for messages and tooltips.
std::string dataFormatLabels(std::string_view conjunction = "or");
/// "csv, libsvm, npy or idx": every format's name, for `--format`'s help and refusals.
std::string dataFormatNames(std::string_view conjunction = "or");

} // namespace core
