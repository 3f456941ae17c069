#pragma once
/// Reading and writing IDX files, the format of the MNIST and Fashion-MNIST distributions
/// (used for the logistic-regression experiment of Seita et al., "Minibatch Acceptance Test", Sec.
/// 6.2).
///
/// An IDX file is a 4-byte magic number (0x00, 0x00, a type code, the number of dimensions),
/// one big-endian uint32 per dimension, then the values in row-major order. Only unsigned-byte
/// data (type 0x08) is supported: image files have magic 0x00000803 (count × rows × cols) and
/// label files 0x00000801 (count). Files may be gzipped or not, whatever their name says: the
/// reader looks at the first two bytes.
///
/// Every check happens before the data are trusted: the magic number, the dimension count,
/// dimensions > 0 and within the caps below, and the exact payload length against the header
/// (a truncated file, trailing bytes, a truncated or corrupted gzip stream are all errors).
/// Errors are std::runtime_error whose message starts with the file's path and says exactly
/// what is wrong. Nothing is read out of bounds and no allocation exceeds what the file can
/// actually hold: a raw payload is checked against the file size, and a gzipped one against
/// the most that deflate can expand the file to (about 1032:1), before any buffer is reserved.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/data/classification_data.h"

namespace core {

/// Largest image count accepted (rows are indexed by DataIndex).
inline constexpr std::uint32_t kIdxMaxCount = 2'147'483'647u;
/// Largest image side accepted, in pixels.
inline constexpr std::uint32_t kIdxMaxSide = 65'536u;
/// Largest image accepted, in pixels (4096 × 4096).
inline constexpr std::uint64_t kIdxMaxImagePixels = std::uint64_t{1} << 24;
/// Largest payload accepted: 16 GiB, more than this machine class can hold in memory.
inline constexpr std::uint64_t kIdxMaxPayloadBytes = std::uint64_t{1} << 34;

/// The contents of an IDX image file: `count` images of rows × cols bytes, image after image.
struct IdxImages {
    std::vector<std::uint8_t> pixels;
    int count = 0;
    int rows = 0;
    int cols = 0;
};

/// Reads an unsigned-byte image file (magic 0x00000803), streaming it from disk. Throws
/// std::runtime_error on any malformed, truncated or oversized file, naming the path and the
/// problem.
IdxImages readIdxImages(const std::string &path);

/// The same parser over the bytes of a whole file already in memory (raw or gzipped): `name`
/// takes the place of the path in error messages. Same checks and errors as readIdxImages().
IdxImages parseIdxImages(std::span<const std::uint8_t> bytes, const std::string &name);

/// Reads an unsigned-byte label file (magic 0x00000801). Throws std::runtime_error as above.
std::vector<std::uint8_t> readIdxLabels(const std::string &path);

/// parseIdxImages()'s counterpart for label files.
std::vector<std::uint8_t> parseIdxLabels(std::span<const std::uint8_t> bytes, const std::string &name);

/// Reads an image file and its label file and checks that they hold the same number of
/// items. Throws std::runtime_error naming both files when they disagree.
LabelledImages readIdxDataset(const std::string &imagesPath, const std::string &labelsPath);

/// Writes an image file (magic 0x00000803), gzipped when `gzip` is true, atomically.
/// `pixels` must hold count · rows · cols bytes (std::invalid_argument otherwise); I/O errors
/// throw std::runtime_error naming the path.
void writeIdxImages(const std::string &path, std::span<const std::uint8_t> pixels, int count, int rows, int cols,
                    bool gzip);

/// Writes a label file (magic 0x00000801), gzipped when `gzip` is true, atomically.
void writeIdxLabels(const std::string &path, std::span<const std::uint8_t> labels, bool gzip);

} // namespace core
