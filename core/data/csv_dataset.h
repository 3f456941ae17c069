#pragma once
/// A user's own binary classification data from a CSV file, for the logistic-regression model.
///
/// Format (plain or gzipped, told by the content): one example per line; fields separated by commas, semicolons or tabs (found from
/// the first line, or named); a field may be double-quoted, with the delimiter inside it and ""
/// for a quote (delimited_text.h); spaces around fields ignored; blank lines and lines starting
/// with '#' skipped; LF or CRLF line ends. The first line is a header when a column that holds
/// text there holds a number on the next line (or when one of its fields is `label`, any case).
///
/// The label column is the one the user names (CsvReadOptions::labelColumn: a header name or a
/// 1-based number, negative numbers counting from the end); without one, the header column
/// named `label`, else the first column. It must hold exactly two distinct values, numbers or
/// words: the smaller one (numerically when both are numbers, else by text) becomes label 0,
/// the other label 1, and the mapping is recorded in classNames and the description. When the
/// chosen column is not binary the error lists the columns that are and names the option.
/// Every other column is a numeric feature.
///
/// Missing values (empty fields, NA, N/A, NaN, NULL, ?) are an error naming line and column,
/// or, with CsvReadOptions::dropMissing, drop their rows (counted in the description).
/// Features are parsed as doubles and stored as floats (see classification_data.h); infinite
/// values and values outside float range are rejected.
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "core/data/classification_data.h"

namespace core {

struct GlmData;
class ResponseColumn;

struct CsvReadOptions {
    /// A header name (exact, else the one name equal up to case) or a column number (1 = first,
    /// −1 = last); empty: the column named "label", else the first.
    std::string labelColumn;
    char delimiter = 0;       ///< 0: detected from the first line (delimited_text.h)
    bool dropMissing = false; ///< drop rows with a missing value instead of failing
};

/// What a column of the file holds, for choosing the label: its name, and its values up to
/// the third distinct one.
struct CsvColumnSummary {
    std::string name;                 ///< the header's name, or "column k" without a header
    std::vector<std::string> values;  ///< its first distinct values, at most 3, in file order
    bool numeric = true;              ///< no field of the column is text
    bool binary() const { return values.size() == 2; }
};

/// How a table's rows become features and a label, decided once the whole file has been read.
struct CsvLabelCoding {
    std::size_t column = 0;            ///< the label's column, 0-based
    std::size_t fields = 0;            ///< columns per row
    bool swap = false;                 ///< the second value seen is label 0
    std::optional<double> secondNumber;///< the second value seen, when it is a number
    std::int64_t rows = 0;             ///< rows kept
    long long dropped = 0;             ///< rows dropped for a missing value
    std::string zero, one;             ///< the label values as written, 0 first
    std::vector<std::string> featureNames; ///< empty without a header
    std::string description;           ///< as ClassificationData::description
    /// A parsed row's features (all columns but the label, as float) into `features`; returns
    /// its label.
    std::uint8_t row(const double *cells, const std::uint8_t *text, float *features) const;
};

/// Parsed rows, row-major with `fields` cells a row: a number, or for a text cell the index of
/// its distinct value (`text` 1).
using CsvRowBlockSink = std::function<void(const std::vector<double> &cells, const std::vector<std::uint8_t> &text)>;

/// Reads a table a block of rows at a time, with every check readCsvDataset() makes, and hands
/// each block to `sink` (which may be empty) without keeping it: the memory of one block for a
/// file of any size. On return `coding` (when given) says how rows become features and labels;
/// a second read with the same options hands over the same rows (npy_conversion.h).
void scanCsvRows(std::istream &in, const std::string &name, const CsvReadOptions &options, const CsvRowBlockSink &sink,
                 CsvLabelCoding *coding);

/// Reads the file. Throws std::runtime_error whose message starts with the path and gives the
/// line number (and column) of the first problem: an infinite value, a non-numeric feature, a
/// missing value (unless dropped), a row with a different number of fields, an unclosed quote,
/// a label column without exactly two values, a label column the file does not have, no
/// feature column, no data row, or a file that cannot be read. When `columns` is given it
/// receives every column's summary once the file is read, also when the label column then turns
/// out unusable (so that a front end can offer the binary ones).
ClassificationData readCsvDataset(const std::string &path, const CsvReadOptions &options = {},
                                  std::vector<CsvColumnSummary> *columns = nullptr);

/// The same parser over a stream (opened in binary mode if it is a file): `name` takes the
/// place of the path in error messages and the description. Same errors as readCsvDataset().
ClassificationData parseCsvDataset(std::istream &in, const std::string &name, const CsvReadOptions &options = {},
                                   std::vector<CsvColumnSummary> *columns = nullptr);

/// A regression's table (regression_file.h): the same format and checks, but the chosen column
/// (CsvReadOptions::labelColumn; empty: the column named "response" or "y", any case, else the
/// first) is a numeric response, each value passed to `response` with its line ("line 12"),
/// which refuses what the model cannot take; a text value in it is refused with its line.
/// Every other column is a feature, and the header's names become GlmData::featureNames.
/// `columns`, when given, receives every column's summary once the whole file is read.
GlmData parseCsvRegression(std::istream &in, const std::string &name, const CsvReadOptions &options,
                           ResponseColumn &response, std::vector<CsvColumnSummary> *columns = nullptr);

} // namespace core
