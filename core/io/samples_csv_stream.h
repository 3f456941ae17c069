#pragma once
/// A samples file written while its chain runs, so that a run cut short keeps every draw made:
/// Ctrl-C, SIGTERM (a cluster job at its time limit) or `kill -9`. The format is the one
/// writeSamplesCsv() writes (samples_csv.h), with three differences while it runs:
///   - the header says `# status = running`, and the lp__ column is left out (it needs a pass
///     over the data per distinct draw; the finished run's file, written as before over this one,
///     has it);
///   - the draws are appended as they come, flushed to the file at least every second and every
///     1,000 draws, whole lines at a time;
///   - a run that is interrupted ends the file with `# status = interrupted after …` lines,
///     which pandas (comment='#'), ArviZ and `diagnose` read past.
/// After `kill -9` the file ends at its last flush; a last line cut in the middle has no line
/// end, and the readers drop it (samples_csv_reader.h).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/chain/chain_runner.h"
#include "core/io/samples_csv.h"

namespace core {

class SamplesCsvStream {
public:
    /// Creates (or truncates) `path` and writes `metadata`, `# status = running` and the
    /// column names for `dimension` parameters. Rows before `firstRow` (a burn-in) are never
    /// written. Throws std::runtime_error naming the path when it cannot be written.
    SamplesCsvStream(const std::string &path, const CsvMetadata &metadata, int dimension, std::int64_t firstRow);
    /// Appends to `path`, a streamed file already cut back to its last checkpoint (`run
    /// --resume`): no header, rows before `firstRow` not written, `kept` draws counted as written.
    struct Append {
        std::int64_t kept = 0;
    };
    SamplesCsvStream(const std::string &path, Append append, std::int64_t firstRow);
    ~SamplesCsvStream();
    SamplesCsvStream(const SamplesCsvStream &) = delete;
    SamplesCsvStream &operator=(const SamplesCsvStream &) = delete;

    /// Appends rows [first, last) of `chain` (those at or after firstRow), and flushes when a
    /// second has passed or 1,000 rows wait. Throws std::runtime_error when the write fails.
    void append(const ChainResult &chain, std::int64_t first, std::int64_t last);
    /// Writes what waits and closes the file; `note` (when not empty) becomes the closing
    /// `# status = …` line.
    void close(const std::string &note);

    const std::string &path() const { return m_path; }
    /// Draws written (rows at or after firstRow).
    std::int64_t rowsWritten() const { return m_rows; }

private:
    void flush();

    std::string m_path;
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> m_file{nullptr, &std::fclose};
    std::int64_t m_firstRow = 0;
    std::int64_t m_rows = 0;
    std::string m_pending; // whole lines not yet handed to the file
    std::int64_t m_pendingRows = 0;
    std::chrono::steady_clock::time_point m_lastFlush;
};

} // namespace core
