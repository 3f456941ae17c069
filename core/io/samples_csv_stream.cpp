#include "core/io/samples_csv_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace core {
namespace {

constexpr std::int64_t kFlushRows = 1000;
constexpr auto kFlushInterval = std::chrono::seconds(1);

} // namespace

SamplesCsvStream::SamplesCsvStream(const std::string &path, const CsvMetadata &metadata, int dimension,
                                   std::int64_t firstRow)
    : m_path(path), m_firstRow(firstRow), m_lastFlush(std::chrono::steady_clock::now())
{
    m_file.reset(std::fopen(path.c_str(), "wb"));
    if (!m_file)
        throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    for (const auto &[key, value] : metadata)
        m_pending += "# " + key + " = " + value + '\n';
    m_pending += "# status = running (the draws are appended as they are made; lp__ comes with the finished file)\n";
    m_pending += samplesColumnNames(dimension, false);
    m_pending += '\n';
    flush();
}

SamplesCsvStream::SamplesCsvStream(const std::string &path, Append append, std::int64_t firstRow)
    : m_path(path), m_firstRow(firstRow), m_rows(append.kept), m_lastFlush(std::chrono::steady_clock::now())
{
    m_file.reset(std::fopen(path.c_str(), "ab"));
    if (!m_file)
        throw std::runtime_error(path + ": cannot append: " + std::strerror(errno));
}

SamplesCsvStream::~SamplesCsvStream()
{
    try {
        if (m_file)
            close({});
    } catch (...) {
        // A destructor must not throw; the file keeps what was flushed.
    }
}

void SamplesCsvStream::append(const ChainResult &chain, std::int64_t first, std::int64_t last)
{
    for (std::int64_t t = std::max(first, m_firstRow); t < last; ++t) {
        appendSamplesRow(m_pending, chain, t);
        ++m_pendingRows;
        ++m_rows;
    }
    if (m_pendingRows >= kFlushRows || std::chrono::steady_clock::now() - m_lastFlush >= kFlushInterval)
        flush();
}

void SamplesCsvStream::flush()
{
    if (!m_pending.empty()) {
        // One write of whole lines: a kill between flushes loses only unflushed lines.
        if (std::fwrite(m_pending.data(), 1, m_pending.size(), m_file.get()) != m_pending.size()
            || std::fflush(m_file.get()) != 0)
            throw std::runtime_error(m_path + ": write failed: " + std::strerror(errno));
        m_pending.clear();
    }
    m_pendingRows = 0;
    m_lastFlush = std::chrono::steady_clock::now();
}

void SamplesCsvStream::close(const std::string &note)
{
    if (!m_file)
        return;
    if (!note.empty())
        m_pending += "# status = " + note + '\n';
    flush();
    if (std::fclose(m_file.release()) != 0)
        throw std::runtime_error(m_path + ": write failed on close: " + std::strerror(errno));
}

} // namespace core
