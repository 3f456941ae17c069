#pragma once
/// Reads samples CSVs: the files writeSamplesCsv writes (`# key = value` lines, one header row,
/// sampler columns ending in "__", then theta.1, theta.2, …) and CmdStan's output CSVs
/// (comment lines anywhere: the configuration before the header, the adaptation block after
/// it, the timing block at the end). One file holds one chain.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/samples_csv.h"

namespace core {

/// A samples file that cannot be read: the message names the file, and where it applies the
/// line and the column, and says what is wrong.
struct SamplesCsvError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct SamplesTable {
    std::string fileName;
    /// `# key = value` comments before the header, and a streamed file's closing `# status = …`
    /// after the draws (the last "status" entry is the file's state).
    CsvMetadata metadata;
    std::vector<std::string> columns;  ///< header names, in file order
    std::vector<std::vector<double>> values; ///< values[column][draw]
    /// A file streamed during its run (`# status = running`) that ends inside a line, as a
    /// `kill -9` leaves it: that line's number; the line is not read. 0 otherwise.
    std::size_t partialLastLine = 0;

    std::size_t draws() const { return values.empty() ? 0 : values.front().size(); }
    /// True for sampler statistics ("lp__", "accept_stat__", …): names ending in "__".
    static bool isSamplerColumn(std::string_view name);
};

/// Parses a samples CSV held in memory; `fileName` only labels error messages. Fields are
/// decimal numbers (or nan/inf); spaces around them and CRLF line ends are accepted. Throws
/// SamplesCsvError ("samples.csv:12: column 3 ('theta.2'): 'abc' is not a number") for a
/// non-number, a row whose field count differs from the header's, an empty or duplicate column
/// name, no header, or no draws.
SamplesTable parseSamplesCsv(std::string_view text, std::string_view fileName);

/// Reads and parses the file at `path`; SamplesCsvError also when it cannot be opened or read.
SamplesTable readSamplesCsv(const std::string &path);

} // namespace core
