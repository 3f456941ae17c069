#pragma once
/// Binary classification data from NumPy arrays (npy_array.h): a features array of shape (N, d)
/// with a label array of shape (N,) or (N, 1), or one array of shape (N, d + 1) whose label column
/// is named by its number. The label file may also be an IDX label file (idx_reader.h). Labels
/// are numbers with exactly two values; the smaller becomes 0. Features of any numeric type are
/// stored as float; a NaN or infinite one is an error naming its row and column.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "core/data/classification_data.h"

namespace core {

struct GlmData;
class ResponseColumn;

/// The most bytes the features of an array file may take in memory as floats; checked from the
/// header, before anything is allocated.
inline constexpr std::size_t kNpyMaxFeatureBytes = std::size_t{16} << 30;

/// `labels` empty: `labelColumn` (1 = first, −1 = last) names the label's column in `features`.
/// Throws std::runtime_error starting with the path at fault: the header errors of
/// readNpyHeader(), a shape that is not 2-D (features) or (N,)/(N, 1) (labels), row counts that
/// differ, no label given (the message names --labels and --label-column), a column name where
/// only numbers can name a column, a label column that does not exist, a non-finite feature, a
/// third label value, or a features size over kNpyMaxFeatureBytes.
ClassificationData readNpyDataset(const std::string &features, const std::string &labels,
                                  const std::string &labelColumn);

/// One array with its label column, from bytes in memory (`name` stands for the path): the
/// entry of the fuzz target. Same errors as readNpyDataset().
/// A features array whose rows are too many for memory can be read in place instead.
/// Thrown by mapNpyDataset() when the file cannot be (the reason in the message), so that a
/// caller may fall back to readNpyDataset().
struct NotMappable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The same data with the features read in place from a memory map (MappedFeatureRows): an
/// uncompressed 2-D little-endian float32 array in C order, its labels from `labels` or from
/// its first or last column (one pass over the file, announced: full_pass_notice.h). Labels
/// are read into memory, one byte per row. Non-finite features are found when a row is read
/// (LogisticRegressionModel), not here. Throws NotMappable naming the obstacle (gzipped, not
/// float32, a label column in the middle), and the errors of readNpyDataset() otherwise.
ClassificationData mapNpyDataset(const std::string &features, const std::string &labels,
                                 const std::string &labelColumn);

ClassificationData parseNpyDataset(std::span<const std::uint8_t> bytes, const std::string &name,
                                   const std::string &labelColumn);

/// A regression's rows (regression_file.h): the features array with its response column
/// (`responseColumn`, a number) or a response file `responses` (.npy of shape (N,) or (N, 1),
/// or IDX labels), each response passed to `response` with its row or element. The errors of
/// readNpyDataset(), with "response" for "label".
GlmData readNpyRegression(const std::string &features, const std::string &responses,
                          const std::string &responseColumn, ResponseColumn &response);

} // namespace core
