#pragma once
/// A regression's rows from a user's data file, for the generalised linear models
/// (`--dataset glm --data FILE --model M --response-column C`): the formats readDataFile()
/// reads for classification (data_file.h), with a numeric response in place of a binary label.
///
///   CSV     the response is the column --response-column names (a header name or a number,
///           1 = first, −1 = last; by default the column named "response" or "y", else the
///           first); every other column is a feature;
///   LIBSVM  the response is each line's first field, as LIBSVM's regression data sets have it;
///   .npy    a (N, d + 1) array with the response's column named by number, or a (N, d)
///           features array with a (N,) or (N, 1) response array (--labels).
///
/// Each response is checked by the model's rule as it is read, so a refusal names the line
/// (CSV, LIBSVM) or the row or element (.npy) that holds it: a Poisson count that is negative
/// or fractional, a probit response that is not 0 or 1, a value that is not finite. IDX images
/// hold classes, not responses, and are refused with what to use instead. The rows are read
/// into memory (a memory map is for logistic regression's float32 arrays, --memory-map on is
/// refused).
#include <string>

#include "core/data/data_file.h"
#include "core/data/regression_data.h"
#include "core/data/response_column.h"

namespace core {

/// Reads the file for the model named `model` (in messages) whose responses `rule` checks.
/// Throws std::runtime_error starting with the path: the readers' own errors (malformed lines,
/// non-finite features, ragged rows, …), a response the rule refuses (with its line or row), no
/// feature column, or a format that holds no response.
/// `columns`, when given, receives a CSV's columns (for choosing the response).
GlmData readRegressionFile(const DataFileRequest &request, const std::string &model, const ResponseColumn::Rule &rule,
                           std::vector<CsvColumnSummary> *columns = nullptr);

/// LIBSVM's regression files: the first field of each line is the response, the rest as for
/// classification, stored dense (the LIBSVM row of data_formats.h).
GlmData readLibsvmRegressionFile(const std::string &path, ResponseColumn &response);

} // namespace core
