#include "core/data/npy_array.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace core {
namespace {

constexpr std::array<std::uint8_t, 6> kMagic = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::uint64_t kMaxHeaderBytes = 1 << 20;

[[noreturn]] void fail(const std::string &path, const std::string &what)
{
    throw std::runtime_error(path + ": " + what);
}

void readExactly(ByteSource &source, std::uint8_t *out, std::size_t n, const std::string &path, const char *what)
{
    if (source.read(out, n) != n)
        fail(path, std::string("the file ends inside ") + what);
}

// A cursor over the header's dict literal, which numpy writes as
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }.
class DictScanner {
public:
    DictScanner(std::string_view text, const std::string &path) : m_text(text), m_path(path) {}

    void skipSpace()
    {
        while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])))
            ++m_at;
    }
    bool take(char c)
    {
        skipSpace();
        if (m_at < m_text.size() && m_text[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    void expect(char c)
    {
        if (!take(c))
            fail(m_path, std::string("the header is not a dict literal (expected '") + c + "' at character "
                             + std::to_string(m_at) + ")");
    }
    std::string quoted()
    {
        skipSpace();
        if (m_at >= m_text.size() || (m_text[m_at] != '\'' && m_text[m_at] != '"'))
            fail(m_path, "the header is not a dict literal (expected a quoted string at character " + std::to_string(m_at) + ")");
        const char quote = m_text[m_at++];
        const std::size_t end = m_text.find(quote, m_at);
        if (end == std::string_view::npos)
            fail(m_path, "the header has an unclosed string");
        std::string value(m_text.substr(m_at, end - m_at));
        m_at = end + 1;
        return value;
    }
    std::string_view word()
    {
        skipSpace();
        const std::size_t start = m_at;
        while (m_at < m_text.size() && std::isalnum(static_cast<unsigned char>(m_text[m_at])))
            ++m_at;
        return m_text.substr(start, m_at - start);
    }
    std::int64_t integer()
    {
        skipSpace();
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(m_text.data() + m_at, m_text.data() + m_text.size(), value);
        if (error != std::errc() || end == m_text.data() + m_at)
            fail(m_path, "the header's shape holds something other than whole numbers");
        m_at = static_cast<std::size_t>(end - m_text.data());
        // numpy on some platforms wrote "3L".
        if (m_at < m_text.size() && m_text[m_at] == 'L')
            ++m_at;
        return value;
    }

private:
    std::string_view m_text;
    const std::string &m_path;
    std::size_t m_at = 0;
};

NpyType parseDescr(const std::string &descr, const std::string &path)
{
    NpyType type;
    const auto refuse = [&] {
        fail(path, "element type '" + descr + "' is not read: the features must be numbers (bool, int8-64, uint8-64, "
                   "float32 or float64; save with .astype(numpy.float32))");
    };
    if (descr.size() < 3)
        refuse();
    const char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        refuse();
    type.bigEndian = order == '>';
    type.kind = descr[1];
    int bytes = 0;
    const auto [end, error] = std::from_chars(descr.data() + 2, descr.data() + descr.size(), bytes);
    if (error != std::errc() || end != descr.data() + descr.size())
        refuse();
    type.bytes = bytes;
    const bool known = (type.kind == 'b' && bytes == 1) || ((type.kind == 'i' || type.kind == 'u') && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8))
                       || (type.kind == 'f' && (bytes == 4 || bytes == 8));
    if (!known)
        refuse();
    return type;
}

double convert(const std::uint8_t *bytes, const NpyType &type)
{
    std::array<std::uint8_t, 8> raw{};
    const auto n = static_cast<std::size_t>(type.bytes);
    for (std::size_t k = 0; k < n; ++k)
        raw[k] = bytes[type.bigEndian ? n - 1 - k : k];
    // Little-endian host (every machine this builds for): the bytes are now in host order.
    switch (type.kind) {
    case 'b': return raw[0] != 0 ? 1.0 : 0.0;
    case 'f':
        if (type.bytes == 4) {
            float value = 0.0f;
            std::memcpy(&value, raw.data(), 4);
            return value;
        } else {
            double value = 0.0;
            std::memcpy(&value, raw.data(), 8);
            return value;
        }
    case 'u': {
        std::uint64_t value = 0;
        std::memcpy(&value, raw.data(), static_cast<std::size_t>(type.bytes));
        return static_cast<double>(value);
    }
    default: {
        std::uint64_t value = 0;
        std::memcpy(&value, raw.data(), static_cast<std::size_t>(type.bytes));
        const int shift = 64 - 8 * type.bytes; // sign-extend
        return static_cast<double>(static_cast<std::int64_t>(value << shift) >> shift);
    }
    }
}

} // namespace

std::string npyHeaderBytes(const std::string &descr, const std::vector<std::int64_t> &shape)
{
    std::string shapeText = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (k > 0)
            shapeText += ", ";
        shapeText += std::to_string(shape[k]);
    }
    shapeText += shape.size() == 1 ? ",)" : ")";
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText + ", }";
    const std::size_t unpadded = kMagic.size() + 4 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    std::string out(kMagic.begin(), kMagic.end());
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(dict.size() & 0xFF);
    out += static_cast<char>((dict.size() >> 8) & 0xFF);
    return out + dict;
}

bool hasNpyMagic(const std::uint8_t *bytes, std::size_t size)
{
    return size >= kMagic.size() && std::equal(kMagic.begin(), kMagic.end(), bytes);
}

NpyHeader readNpyHeader(ByteSource &source, const std::string &path)
{
    std::array<std::uint8_t, 8> start{};
    if (source.read(start.data(), start.size()) != start.size() || !hasNpyMagic(start.data(), start.size()))
        fail(path, "not a NumPy .npy file (it does not start with \\x93NUMPY)");
    const int major = start[6];
    if (major < 1 || major > 3)
        fail(path, ".npy format version " + std::to_string(major) + "." + std::to_string(start[7])
                       + " is not read (versions 1 to 3 are)");
    std::array<std::uint8_t, 4> length{};
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    readExactly(source, length.data(), lengthBytes, path, "the header length");
    std::uint64_t headerLength = 0;
    for (std::size_t k = 0; k < lengthBytes; ++k)
        headerLength |= static_cast<std::uint64_t>(length[k]) << (8 * k);
    if (headerLength > kMaxHeaderBytes)
        fail(path, "the header claims " + std::to_string(headerLength) + " bytes; a .npy header is at most "
                       + std::to_string(kMaxHeaderBytes));
    std::string text(static_cast<std::size_t>(headerLength), '\0');
    readExactly(source, reinterpret_cast<std::uint8_t *>(text.data()), text.size(), path, "the header");

    NpyHeader header;
    header.headerBytes = 8 + lengthBytes + headerLength;
    DictScanner scan(text, path);
    scan.expect('{');
    bool sawDescr = false, sawOrder = false, sawShape = false;
    while (!scan.take('}')) {
        const std::string key = scan.quoted();
        scan.expect(':');
        if (key == "descr") {
            header.descr = scan.quoted();
            header.type = parseDescr(header.descr, path);
            sawDescr = true;
        } else if (key == "fortran_order") {
            const std::string_view value = scan.word();
            if (value == "True")
                fail(path, "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
            if (value != "False")
                fail(path, "the header's fortran_order is neither True nor False");
            sawOrder = true;
        } else if (key == "shape") {
            scan.expect('(');
            while (!scan.take(')')) {
                const std::int64_t dimension = scan.integer();
                if (dimension < 0)
                    fail(path, "the header's shape has a negative dimension");
                header.shape.push_back(dimension);
                scan.take(',');
            }
            sawShape = true;
        } else {
            fail(path, "the header has an unknown key '" + key + "'");
        }
        scan.take(',');
    }
    if (!sawDescr || !sawOrder || !sawShape)
        fail(path, "the header lacks one of descr, fortran_order and shape");
    // The product, guarded against overflow: no file holds more than 2^62 bytes.
    header.elements = 1;
    const std::uint64_t limit = (std::uint64_t{1} << 62) / static_cast<std::uint64_t>(header.type.bytes);
    for (std::int64_t dimension : header.shape) {
        const auto d = static_cast<std::uint64_t>(dimension);
        if (d != 0 && header.elements > limit / d)
            fail(path, "the header's shape announces more elements than any file holds");
        header.elements *= d;
    }
    // Deflate packs at most about 1032 bytes into one, so a gzipped file of S bytes inflates to
    // under 1032 S + 64 kB: a header announcing more is lying, and nothing is allocated for it.
    if (source.gzipped()) {
        const std::uint64_t announced = header.elements * static_cast<std::uint64_t>(header.type.bytes);
        if (announced / 1032 > source.fileSize() + 64)
            fail(path, "the header announces " + std::to_string(announced) + " bytes of data, more than a gzip file of "
                           + std::to_string(source.fileSize()) + " bytes can hold");
    } else {
        const std::uint64_t announced = header.elements * static_cast<std::uint64_t>(header.type.bytes);
        if (announced != source.rawRemaining())
            fail(path, "the header announces " + std::to_string(announced) + " bytes of data (shape and " + header.descr
                           + "), but the file holds " + std::to_string(source.rawRemaining()) + " after its header");
    }
    return header;
}

void readNpyElements(ByteSource &source, const NpyHeader &header, std::uint64_t count, std::vector<double> &out,
                     const std::string &path)
{
    const auto bytes = static_cast<std::size_t>(header.type.bytes);
    std::vector<std::uint8_t> chunk(std::size_t{1} << 16);
    const std::size_t perChunk = chunk.size() / bytes;
    out.resize(static_cast<std::size_t>(count));
    std::uint64_t done = 0;
    while (done < count) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(perChunk, count - done));
        if (source.read(chunk.data(), n * bytes) != n * bytes)
            fail(path, "the data end after " + std::to_string(done) + " of " + std::to_string(header.elements) + " elements");
        for (std::size_t k = 0; k < n; ++k)
            out[static_cast<std::size_t>(done) + k] = convert(chunk.data() + k * bytes, header.type);
        done += n;
    }
}

} // namespace core
