#pragma once
/// A samples file streamed by a run that was cut short (samples_csv_stream.h), read to continue
/// that run (`run --resume`): its header, its complete draw lines (a line cut in the middle by
/// `kill -9` is left out), and the state it was left in; and the same file cut back to a
/// checkpoint, so that the continued chain appends the draws that follow it.
#include <cstddef>
#include <string>
#include <vector>

#include "core/io/samples_csv.h"

namespace core {

struct StreamedSamples {
    std::string path;
    CsvMetadata metadata;          ///< the header's `# key = value` lines, in order
    std::string status;            ///< the last `# status = …` (empty: a finished run's file)
    std::vector<std::string> head; ///< the comment lines and the column line, as written
    std::vector<std::string> columns;
    std::vector<std::string> rows; ///< the complete draw lines, as written

    /// The value of `key` in the header, or `fallback`.
    std::string value(const std::string &key, const std::string &fallback = {}) const;
    /// The parameters (every column not ending in "__") of draw line `row`, exactly as written
    /// (round-trip decimals). Throws std::runtime_error naming the line when one is not a number.
    std::vector<double> parameters(std::size_t row) const;
};

/// Reads `path`. Throws std::runtime_error starting with the path when it cannot be read or
/// has no column line.
StreamedSamples readStreamedSamples(const std::string &path);

/// Rewrites the file with its header and its first `keptRows` draw lines only, atomically
/// (a temporary file renamed over it): what a resumed chain appends to.
void cutBackStreamedSamples(const StreamedSamples &file, std::size_t keptRows);

} // namespace core
