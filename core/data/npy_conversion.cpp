#include "core/data/npy_conversion.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <istream>
#include <stdexcept>
#include <vector>

#include "core/correction/cancelled.h"
#include "core/data/binary_labels.h"
#include "core/data/byte_source.h"
#include "core/data/data_formats.h"
#include "core/data/libsvm_dataset.h"
#include "core/data/npy_array.h"

namespace core {
namespace {

constexpr std::int64_t kBlockRows = 4096;

// The rows of the array, a block at a time, into the temporary file; the header states the
// shape found by the first pass, and the rows written must come to it.
class NpyRowWriter {
public:
    NpyRowWriter(std::string path, std::int64_t rows, int features, std::stop_token stop)
        : m_path(std::move(path)), m_rows(rows), m_columns(features + 1), m_stop(std::move(stop)),
          m_out(m_path, std::ios::binary | std::ios::trunc)
    {
        if (!m_out)
            throw std::runtime_error(m_path + ": cannot write");
        m_out << npyHeaderBytes("<f4", {rows, static_cast<std::int64_t>(m_columns)});
        m_block.reserve(static_cast<std::size_t>(kBlockRows * m_columns));
    }

    // A zeroed row to fill: its features, then the label in the last column.
    float *nextRow()
    {
        if (m_buffered == kBlockRows)
            flush();
        m_block.resize(static_cast<std::size_t>((m_buffered + 1) * m_columns), 0.0f);
        return m_block.data() + static_cast<std::size_t>(m_buffered++ * m_columns);
    }

    void finish(const std::string &input)
    {
        flush();
        if (m_written != m_rows) // the file changed between the passes
            throw std::runtime_error(input + ": " + std::to_string(m_written) + " rows on the second reading, "
                                     + std::to_string(m_rows) + " on the first; was the file changed meanwhile?");
        m_out.close();
        if (!m_out)
            throw std::runtime_error(m_path + ": write failed on close (disk full?)");
    }

    int columns() const { return m_columns; }

private:
    void flush()
    {
        if (m_stop.stop_requested())
            throw Cancelled();
        m_out.write(reinterpret_cast<const char *>(m_block.data()),
                    static_cast<std::streamsize>(m_block.size() * sizeof(float)));
        if (!m_out)
            throw std::runtime_error(m_path + ": write failed (disk full?)");
        m_written += m_buffered;
        m_buffered = 0;
        m_block.clear();
    }

    std::string m_path;
    std::int64_t m_rows;
    int m_columns;
    std::stop_token m_stop;
    std::ofstream m_out;
    std::vector<float> m_block;
    std::int64_t m_buffered = 0, m_written = 0;
};

void requireSpace(const std::string &output, std::int64_t rows, int features)
{
    const std::uint64_t bytes = static_cast<std::uint64_t>(rows) * (static_cast<std::uint64_t>(features) + 1) * sizeof(float);
    std::error_code error;
    const auto space = std::filesystem::space(std::filesystem::absolute(output).parent_path(), error);
    if (!error && space.available < bytes + (std::uint64_t{1} << 30))
        throw std::runtime_error(output + ": about " + std::to_string(bytes >> 20) + " MiB to write, but only "
                                 + std::to_string(space.available >> 20) + " MiB are free there (1 GiB is kept spare)");
}

} // namespace

NpyConversion convertLibsvmToNpy(const std::string &path, const std::string &temporary,
                                 const std::function<void(int)> &passStarted, std::stop_token stop)
{
    if (passStarted)
        passStarted(1);
    BinaryLabelCoder coder(path, false);
    NpyConversion result;
    long long maxIndex = 0, given = 0;
    readTextFile(path, [&](std::istream &in) {
        forEachLibsvmRow(in, path, [&](const LibsvmLine &parsed, long number) {
            coder.addLazily(parsed.label(), [&] { return "line " + std::to_string(number); });
            maxIndex = std::max(maxIndex, parsed.maxIndex());
            given += static_cast<long long>(parsed.indices().size());
            if (++result.rows % kBlockRows == 0 && stop.stop_requested())
                throw Cancelled();
        });
    });
    if (result.rows == 0)
        throw std::runtime_error(path + ": no data rows");
    if (maxIndex == 0)
        throw std::runtime_error(path + ": no row has a feature; every feature would be 0");
    coder.requireTwoValues();
    result.features = static_cast<int>(maxIndex);
    requireSpace(temporary, result.rows, result.features);

    if (passStarted)
        passStarted(2);
    NpyRowWriter writer(temporary, result.rows, result.features, stop);
    readTextFile(path, [&](std::istream &in) {
        forEachLibsvmRow(in, path, [&](const LibsvmLine &parsed, long) {
            float *row = writer.nextRow();
            for (std::size_t k = 0; k < parsed.indices().size(); ++k)
                row[parsed.indices()[k]] = parsed.values()[k];
            row[result.features] = coder.label(parsed.label());
        });
    });
    writer.finish(path);
    const auto [zero, one] = coder.classNames();
    result.description = std::filesystem::path(path).filename().string() + ": " + std::to_string(result.rows)
                         + " rows, " + std::to_string(result.features) + " features (LIBSVM, "
                         + std::to_string(given) + " values given, the rest 0); label 0 = " + zero + ", label 1 = " + one;
    return result;
}

NpyConversion convertCsvToNpy(const std::string &path, const CsvReadOptions &options, const std::string &temporary,
                              const std::function<void(int)> &passStarted, std::stop_token stop)
{
    if (passStarted)
        passStarted(1);
    CsvLabelCoding coding;
    const CsvRowBlockSink checkStop = [&](const auto &, const auto &) {
        if (stop.stop_requested())
            throw Cancelled();
    };
    readTextFile(path, [&](std::istream &in) { scanCsvRows(in, path, options, checkStop, &coding); });
    NpyConversion result;
    result.rows = coding.rows;
    result.features = static_cast<int>(coding.fields - 1);
    result.description = coding.description;
    requireSpace(temporary, result.rows, result.features);

    if (passStarted)
        passStarted(2);
    NpyRowWriter writer(temporary, result.rows, result.features, stop);
    const auto fields = coding.fields;
    readTextFile(path, [&](std::istream &in) {
        scanCsvRows(in, path, options, [&](const std::vector<double> &cells, const std::vector<std::uint8_t> &text) {
            for (std::size_t base = 0; base < cells.size(); base += fields) {
                float *row = writer.nextRow();
                row[result.features] = coding.row(cells.data() + base, text.data() + base, row);
            }
        }, nullptr);
    });
    writer.finish(path);
    return result;
}


NpyConversion convertToNpy(const DataFileRequest &request, const std::string &output,
                           const std::function<void(int pass)> &passStarted, std::stop_token stop)
{
    const DataFormatEntry &row = dataFormatEntry(request.format ? *request.format : detectDataFormat(request.path));
    if (!row.convert)
        throw std::runtime_error(request.path + ": " + std::string(row.conversionRefusal));
    if (!request.labels.empty())
        throw std::runtime_error(request.path + ": a " + std::string(row.label)
                                 + " file carries its labels; --labels is for .npy features");
    const std::string temporary = output + ".part";
    try {
        NpyConversion result = row.convert(request, temporary, passStarted, stop);
        std::filesystem::rename(temporary, output);
        result.bytes = std::filesystem::file_size(output);
        return result;
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw;
    }
}

} // namespace core
