#pragma once
// .npy files as numpy.save writes them (format 1.0, the header padded to 64 bytes), for the
// readers' tests and the fuzz seeds.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace testfiles {

/// The bytes of an .npy file: `descr` such as "<f4", the shape, and the elements' raw bytes.
inline std::string npyBytes(const std::string &descr, const std::vector<std::int64_t> &shape, const std::string &raw,
                            bool fortran = false)
{
    std::string shapeText = "(";
    for (std::size_t k = 0; k < shape.size(); ++k)
        shapeText += (k ? ", " : "") + std::to_string(shape[k]);
    shapeText += shape.size() == 1 ? ",)" : ")";
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False")
                         + ", 'shape': " + shapeText + ", }";
    const std::size_t total = 10 + header.size() + 1;
    header += std::string((64 - total % 64) % 64, ' ') + "\n";
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>(header.size() >> 8);
    return out + header + raw;
}

/// The raw little-endian bytes of `values` as type T.
template <typename T, typename Source>
std::string rawBytes(const std::vector<Source> &values)
{
    std::string raw(values.size() * sizeof(T), '\0');
    for (std::size_t k = 0; k < values.size(); ++k) {
        const T value = static_cast<T>(values[k]);
        std::memcpy(raw.data() + k * sizeof(T), &value, sizeof(T));
    }
    return raw;
}

} // namespace testfiles
