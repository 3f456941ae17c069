#pragma once
/// A user's own binary classification data from a CSV file, for the logistic-regression model.
///
/// Format: one example per line, fields separated by commas, surrounding spaces ignored,
/// blank lines and lines starting with '#' skipped, LF or CRLF line ends. The first non-comment
/// line is a header when any of its fields is not a number; a header column named `label`
/// (any case) is the label, otherwise the first column is. Every other column is a numeric
/// feature.
///
/// Labels may be numbers or words; exactly two distinct values are allowed. The smaller one
/// (numerically when both are numbers, else by text) becomes label 0, the other label 1, and
/// the mapping is recorded in classNames and the description.
///
/// Features are parsed as doubles and stored as floats (see classification_data.h); values
/// outside float range are rejected rather than turned into infinities.
#include <istream>
#include <string>

#include "core/data/classification_data.h"

namespace core {

/// Reads the file. Throws std::runtime_error whose message starts with the path and gives the
/// line number (and column) of the first problem: a NaN or infinite value, a non-numeric
/// feature, a row with a different number of fields, fewer or more than two label values, no
/// feature column, no data row, or a file that cannot be read.
ClassificationData readCsvDataset(const std::string &path);

/// The same parser over a stream (opened in binary mode if it is a file): `name` takes the
/// place of the path in error messages and the description. Same errors as readCsvDataset().
ClassificationData parseCsvDataset(std::istream &in, const std::string &name);

} // namespace core
