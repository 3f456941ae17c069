#pragma once
/// NumPy's .npy array files (format versions 1.0, 2.0 and 3.0), as `numpy.save` writes them: a
/// magic string, a header holding a Python dict literal {'descr': '<f4', 'fortran_order': False,
/// 'shape': (N, d)}, then the elements in C order. Read through ByteSource, so a gzipped .npy
/// reads too. Every size the header announces is checked against the file before anything is
/// allocated: a header that claims 10¹² rows is an error, not an allocation.
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/byte_source.h"

namespace core {

/// The element types read: booleans, signed and unsigned integers of 1 to 8 bytes, and
/// floating point of 4 or 8 bytes, little- or big-endian.
struct NpyType {
    char kind = 'f'; ///< 'b' (bool), 'i', 'u' or 'f'
    int bytes = 4;
    bool bigEndian = false;
};

struct NpyHeader {
    NpyType type;
    std::vector<std::int64_t> shape;
    std::uint64_t elements = 0;   ///< the product of the shape (1 for a 0-d array)
    std::uint64_t headerBytes = 0; ///< magic, version, length and the dict, padding included
    std::string descr;            ///< as written, for messages ("<f4")
};

/// Reads and checks the header from `source`, leaving it at the first element. Throws
/// std::runtime_error starting with `path` for: not a .npy file (magic), an unknown version,
/// a header that does not parse, a type not listed above (text, objects, complex, structured),
/// Fortran order, a negative dimension, or (for a plain file) a data size other than the file's
/// remaining bytes.
NpyHeader readNpyHeader(ByteSource &source, const std::string &path);

/// Reads `count` elements from `source` (after readNpyHeader) and converts each to double.
/// Throws std::runtime_error when the data end early.
void readNpyElements(ByteSource &source, const NpyHeader &header, std::uint64_t count, std::vector<double> &out,
                     const std::string &path);

/// The magic, version 1.0 header and padding of an .npy file of C-order elements `descr`
/// ("<f4") in `shape`, as numpy.save writes them (the data start at a multiple of 64 bytes).
std::string npyHeaderBytes(const std::string &descr, const std::vector<std::int64_t> &shape);

/// True when the first bytes of a file are the .npy magic "\x93NUMPY".
bool hasNpyMagic(const std::uint8_t *bytes, std::size_t size);

} // namespace core
