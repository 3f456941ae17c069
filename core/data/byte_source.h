#pragma once
/// The bytes of a file, or of a buffer already in memory, delivered in order and inflated on the
/// fly when they start with the gzip magic 1f 8b (whatever the file is called). Used by the IDX
/// reader (idx_reader.h), which checks every length it is told against fileSize() and
/// rawRemaining() before it allocates.
///
/// Several gzip members back to back are one stream; anything else after a member is an error.
/// Errors are std::runtime_error whose message starts with the path (or the buffer's name).
#include <array>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <memory>
#include <span>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include <zlib.h>

namespace core {

class ByteSource {
public:
    /// Streams the file at `path` (1 MiB of input buffered at a time).
    explicit ByteSource(const std::string &path);
    /// Reads `bytes`, which must outlive the source; `name` stands for the path in errors.
    ByteSource(std::span<const std::uint8_t> bytes, const std::string &name);
    ~ByteSource();
    ByteSource(const ByteSource &) = delete;
    ByteSource &operator=(const ByteSource &) = delete;

    bool gzipped() const { return m_gzip; }
    /// The gzip stream ended without its end marker (the file was cut short).
    bool truncatedGzip() const { return m_truncated; }
    /// Size of the file or buffer, compressed if it is gzipped.
    std::uint64_t fileSize() const { return m_fileSize; }
    /// For raw data, the bytes not yet delivered.
    std::uint64_t rawRemaining() const { return m_fileSize - m_fileRead + m_stream.avail_in; }

    /// Delivers up to n bytes; fewer only at the end of the data. Throws on corrupt gzip data.
    std::size_t read(std::uint8_t *out, std::size_t n);
    /// Counts the bytes left after what was read, consuming them.
    std::uint64_t drainRemaining();

private:
    void start();
    // Makes more input available after what is left; false at the end of the data.
    bool refill();
    // A gzip file may hold several members back to back; anything else after a member is
    // not gzip data, and silently ignoring it would hide a damaged file.
    void endOfMember();

    std::string m_path;
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> m_file{nullptr, &std::fclose}; // null: reading m_memory
    std::span<const std::uint8_t> m_memory;
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_fileRead = 0;
    std::vector<std::uint8_t> m_input;
    z_stream m_stream{};
    bool m_gzip = false;
    bool m_finished = false;
    bool m_truncated = false;
};

/// A ByteSource as a stream buffer, so that text readers (std::getline) read gzipped and plain
/// files alike. Give the stream exceptions(std::ios::badbit) so that the source's errors (corrupt
/// gzip data, a gzip stream cut short) reach its reader as they were thrown.
class ByteSourceStreamBuffer : public std::streambuf {
public:
    ByteSourceStreamBuffer(ByteSource &source, std::string path) : m_source(source), m_path(std::move(path)) {}

protected:
    int_type underflow() override;

private:
    ByteSource &m_source;
    std::string m_path;
    std::array<char, 1 << 16> m_buffer{};
};

/// Calls `reader(in)` with the file at `path` as a text stream, gzipped or not, whose source
/// errors (corrupt or cut-short gzip data) reach the reader as they were thrown; returns what the
/// reader returns.
template <typename Reader>
decltype(auto) readTextFile(const std::string &path, Reader &&reader)
{
    ByteSource source(path);
    ByteSourceStreamBuffer buffer(source, path);
    std::istream in(&buffer);
    in.exceptions(std::ios::badbit);
    return reader(in);
}

} // namespace core
