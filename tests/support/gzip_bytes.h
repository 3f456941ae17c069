#pragma once
// Gzip-compressed bytes for the readers' tests: a file as `gzip` would write it.
#include <cstdint>
#include <vector>

#include <zlib.h>

namespace testfiles {

inline std::vector<std::uint8_t> gzipBytes(const std::vector<std::uint8_t> &bytes)
{
    z_stream stream{};
    deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::vector<std::uint8_t> out(deflateBound(&stream, static_cast<uLong>(bytes.size())) + 64);
    stream.next_in = const_cast<std::uint8_t *>(bytes.data());
    stream.avail_in = static_cast<uInt>(bytes.size());
    stream.next_out = out.data();
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

} // namespace testfiles
