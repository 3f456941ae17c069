#pragma once
/// A user's CSV or LIBSVM file converted, as a stream, into an uncompressed float32 NumPy array
/// whose last column is the 0/1 label: the form a run reads in place through a memory map
/// (npy_dataset.h: mapNpyDataset), so that a table larger than memory runs too, and a file read
/// many times is parsed once.
///
/// Two passes over the input, a line at a time. The first checks every line as the readers do
/// and finds the shape: a LIBSVM file's largest index, a table's label column and its two values.
/// The second writes the rows. Neither keeps more than a block of rows. The array goes to a
/// temporary file beside the output, renamed into place at the end, so that a failed or stopped
/// conversion leaves no partial file.
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

#include "core/data/data_file.h"

namespace core {

struct NpyConversion {
    std::int64_t rows = 0;
    int features = 0;            ///< columns before the label
    std::uint64_t bytes = 0;     ///< of the .npy file written
    std::string description;     ///< the input's: rows, features and how its labels became 0 and 1
};

/// Converts `request.path` (CSV or LIBSVM, gzipped or not; the format detected unless named;
/// request.table applies to a CSV) into the .npy file `output`. `passStarted` is told 1, then 2.
/// Throws std::runtime_error naming the file and line of the first problem in the input, an
/// input that is .npy or IDX already, too little free space for the output, or a failed write;
/// core::Cancelled (nothing written) when `stop` is requested.
NpyConversion convertToNpy(const DataFileRequest &request, const std::string &output,
                           const std::function<void(int pass)> &passStarted = {}, std::stop_token stop = {});

/// The two passes for one format, writing `temporary` (convertToNpy renames it into place or
/// removes it): the CSV and LIBSVM rows of data_formats.h.
NpyConversion convertCsvToNpy(const std::string &path, const CsvReadOptions &options, const std::string &temporary,
                              const std::function<void(int pass)> &passStarted, std::stop_token stop);
NpyConversion convertLibsvmToNpy(const std::string &path, const std::string &temporary,
                                 const std::function<void(int pass)> &passStarted, std::stop_token stop);

} // namespace core
