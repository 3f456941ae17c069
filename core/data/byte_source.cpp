#include "core/data/byte_source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace core {
namespace {

constexpr std::size_t kInputChunk = std::size_t{1} << 20;
constexpr std::size_t kOutputChunk = std::size_t{1} << 24;
constexpr std::size_t kMemoryWindow = std::size_t{1} << 30;
constexpr std::size_t kDrainChunk = std::size_t{1} << 16;

std::runtime_error fileError(const std::string &path, const std::string &what)
{
    return std::runtime_error(path + ": " + what);
}

} // namespace

ByteSource::ByteSource(const std::string &path) : m_path(path), m_input(kInputChunk)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        throw fileError(path, "cannot open: " + error.message());
    m_fileSize = size;
    m_file.reset(std::fopen(path.c_str(), "rb"));
    if (!m_file)
        throw fileError(path, std::string("cannot open: ") + std::strerror(errno));
    start();
}

ByteSource::ByteSource(std::span<const std::uint8_t> bytes, const std::string &name)
    : m_path(name), m_memory(bytes)
{
    m_fileSize = bytes.size();
    m_stream.next_in = const_cast<std::uint8_t *>(bytes.data());
    start();
}

ByteSource::~ByteSource()
{
    if (m_gzip)
        inflateEnd(&m_stream);
}

std::size_t ByteSource::read(std::uint8_t *out, std::size_t n)
{
    std::size_t done = 0;
    while (done < n && !m_finished) {
        if (m_stream.avail_in == 0 && !refill() && !m_gzip) {
            m_finished = true;
            break;
        }
        const std::size_t want = std::min<std::size_t>(n - done, kOutputChunk);
        if (!m_gzip) {
            const std::size_t count = std::min<std::size_t>(want, m_stream.avail_in);
            std::memcpy(out + done, m_stream.next_in, count);
            m_stream.next_in += count;
            m_stream.avail_in -= static_cast<uInt>(count);
            done += count;
            continue;
        }
        m_stream.next_out = out + done;
        m_stream.avail_out = static_cast<uInt>(want);
        const int status = inflate(&m_stream, Z_NO_FLUSH);
        done += want - m_stream.avail_out;
        if (status == Z_STREAM_END)
            endOfMember();
        // With output space left, inflate only stalls when the input ran out at end of file:
        // report a short read and let the caller say what was missing.
        else if (status == Z_BUF_ERROR && m_stream.avail_in == 0) {
            m_truncated = true;
            m_finished = true;
        } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT || status == Z_STREAM_ERROR || status == Z_BUF_ERROR)
            throw fileError(m_path, std::string("corrupted gzip data (")
                                        + (m_stream.msg ? m_stream.msg : "invalid stream") + ")");
        else if (status == Z_MEM_ERROR)
            throw fileError(m_path, "out of memory while inflating the gzip data");
    }
    return done;
}

std::uint64_t ByteSource::drainRemaining()
{
    std::vector<std::uint8_t> sink(kDrainChunk);
    std::uint64_t extra = 0;
    while (const std::size_t count = read(sink.data(), sink.size()))
        extra += count;
    return extra;
}

void ByteSource::start()
{
    refill();
    m_gzip = m_stream.avail_in >= 2 && m_stream.next_in[0] == 0x1f && m_stream.next_in[1] == 0x8b;
    if (m_gzip && inflateInit2(&m_stream, 15 + 16) != Z_OK)
        throw fileError(m_path, "cannot start the gzip decoder");
}

bool ByteSource::refill()
{
    if (!m_file) {
        // In memory the input window just grows over the buffer, in pieces zlib's 32-bit
        // counters can hold.
        const std::uint8_t *windowEnd = m_stream.next_in + m_stream.avail_in;
        const auto left = static_cast<std::size_t>(m_memory.data() + m_memory.size() - windowEnd);
        const std::size_t count = std::min<std::size_t>(left, kMemoryWindow);
        m_stream.avail_in += static_cast<uInt>(count);
        m_fileRead += count;
        return count > 0;
    }
    std::size_t keep = m_stream.avail_in;
    if (keep > 0 && m_stream.next_in != m_input.data())
        std::memmove(m_input.data(), m_stream.next_in, keep);
    const std::size_t count = std::fread(m_input.data() + keep, 1, m_input.size() - keep, m_file.get());
    if (std::ferror(m_file.get()))
        throw fileError(m_path, std::string("read error: ") + std::strerror(errno));
    m_fileRead += count;
    m_stream.next_in = m_input.data();
    m_stream.avail_in = static_cast<uInt>(keep + count);
    return count > 0;
}

void ByteSource::endOfMember()
{
    while (m_stream.avail_in < 2 && refill()) {
    }
    if (m_stream.avail_in == 0) {
        m_finished = true;
        return;
    }
    if (m_stream.avail_in >= 2 && m_stream.next_in[0] == 0x1f && m_stream.next_in[1] == 0x8b) {
        inflateReset(&m_stream);
        return;
    }
    const std::uint64_t trailing = m_stream.avail_in + (m_fileSize - m_fileRead);
    throw fileError(m_path, std::to_string(trailing) + " bytes of trailing garbage after the end of the gzip stream");
}

ByteSourceStreamBuffer::int_type ByteSourceStreamBuffer::underflow()
{
    const std::size_t n = m_source.read(reinterpret_cast<std::uint8_t *>(m_buffer.data()), m_buffer.size());
    if (n == 0) {
        // Before a last, partial line is read as a short row.
        if (m_source.truncatedGzip())
            throw std::runtime_error(m_path + ": the gzip data end before their end marker (the file was cut short)");
        return traits_type::eof();
    }
    setg(m_buffer.data(), m_buffer.data(), m_buffer.data() + n);
    return traits_type::to_int_type(m_buffer[0]);
}

} // namespace core
