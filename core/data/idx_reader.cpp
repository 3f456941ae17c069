#include "core/data/idx_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "core/data/byte_source.h"
#include "core/io/atomic_file.h"

namespace core {
namespace {

constexpr std::size_t kOutputChunk = std::size_t{1} << 24;
// Deflate cannot expand data by more than about 1032:1, so a gzip file of F bytes holds at
// most ~1032·F bytes: the bound that keeps a forged header from reserving gigabytes.
constexpr std::uint64_t kMaxDeflateRatio = 1040;

std::runtime_error fileError(const std::string &path, const std::string &what)
{
    return std::runtime_error(path + ": " + what);
}

std::string hex(std::uint32_t value, int digits)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%0*X", digits, value);
    return text;
}

std::string typeName(std::uint8_t type)
{
    switch (type) {
    case 0x08: return "unsigned byte";
    case 0x09: return "signed byte";
    case 0x0B: return "16-bit integer";
    case 0x0C: return "32-bit integer";
    case 0x0D: return "32-bit float";
    case 0x0E: return "64-bit float";
    default: return "unknown";
    }
}

// Parses and checks the magic number and dimensions; returns the dimensions.
std::vector<std::uint32_t> readHeader(ByteSource &source, const std::string &path, std::uint8_t dimensions,
                                      const char *kind, const char *dimensionNames)
{
    const std::uint32_t expected = 0x0800u | dimensions;
    const std::string expectation = "expected " + hex(expected, 8) + " for an IDX " + kind + " file of unsigned bytes";
    std::uint8_t magic[4];
    const std::size_t got = source.read(magic, 4);
    if (source.truncatedGzip() && got < 4)
        throw fileError(path, "truncated gzip stream: it ends inside the IDX magic number");
    if (got == 0)
        throw fileError(path, std::string(source.gzipped() ? "the gzip stream is empty; " : "the file is empty; ") + expectation);
    if (got < 4)
        throw fileError(path, "the data are " + std::to_string(got) + " bytes long, too short for an IDX magic number");
    const std::uint32_t value = std::uint32_t{magic[0]} << 24 | std::uint32_t{magic[1]} << 16
                                | std::uint32_t{magic[2]} << 8 | magic[3];
    if (magic[0] != 0 || magic[1] != 0)
        throw fileError(path, "not an IDX file: wrong magic number " + hex(value, 8) + " (" + expectation + ")");
    if (magic[2] != 0x08)
        throw fileError(path, "wrong magic number " + hex(value, 8) + ": data type " + hex(magic[2], 2) + " ("
                                  + typeName(magic[2]) + ") is not supported, only unsigned bytes (0x08); "
                                  + expectation);
    if (magic[3] != dimensions)
        throw fileError(path, "wrong magic number " + hex(value, 8) + ": " + std::to_string(magic[3])
                                  + " dimension(s), but an IDX " + kind + " file has " + std::to_string(dimensions)
                                  + " (" + dimensionNames + "); " + expectation);
    std::vector<std::uint32_t> dims(dimensions);
    for (std::size_t k = 0; k < dims.size(); ++k) {
        std::uint8_t bytes[4];
        if (source.read(bytes, 4) < 4)
            throw fileError(path, std::string(source.truncatedGzip() ? "truncated gzip stream" : "truncated")
                                      + ": the data end inside the header's dimension list");
        dims[k] = std::uint32_t{bytes[0]} << 24 | std::uint32_t{bytes[1]} << 16 | std::uint32_t{bytes[2]} << 8 | bytes[3];
        if (dims[k] == 0)
            throw fileError(path, "dimension " + std::to_string(k + 1) + " of the header is 0; every dimension must be > 0");
    }
    if (dims[0] > kIdxMaxCount)
        throw fileError(path, "the header announces " + std::to_string(dims[0]) + " items, more than the supported "
                                  + std::to_string(kIdxMaxCount));
    return dims;
}

// Reads exactly `bytes` payload bytes and checks that nothing follows them.
std::vector<std::uint8_t> readPayload(ByteSource &source, const std::string &path, std::uint64_t bytes,
                                      const std::string &what)
{
    const std::uint64_t headerBytes = source.fileSize() - source.rawRemaining();
    if (!source.gzipped()) {
        const std::uint64_t available = source.rawRemaining();
        if (available < bytes)
            throw fileError(path, "truncated: the header announces " + what + " (" + std::to_string(bytes)
                                      + " bytes after the " + std::to_string(headerBytes) + "-byte header), but the file holds only "
                                      + std::to_string(available));
        if (available > bytes)
            throw fileError(path, std::to_string(available - bytes) + " bytes of trailing data after the "
                                      + std::to_string(bytes) + " bytes the header announces (" + what + ")");
    }
    // Checked before anything is allocated: a forged header must not make a small file reserve
    // gigabytes.
    if (source.gzipped() && bytes > source.fileSize() * kMaxDeflateRatio)
        throw fileError(path, "truncated or corrupt: the header announces " + what + " (" + std::to_string(bytes)
                                  + " bytes), but " + std::to_string(source.fileSize())
                                  + " bytes of gzip data can hold at most about "
                                  + std::to_string(source.fileSize() * kMaxDeflateRatio));
    std::vector<std::uint8_t> data;
    data.reserve(static_cast<std::size_t>(bytes));
    while (data.size() < bytes) {
        const std::size_t old = data.size();
        const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(bytes - old, kOutputChunk));
        data.resize(old + chunk);
        const std::size_t got = source.read(data.data() + old, chunk);
        if (got < chunk)
            throw fileError(path, std::string(source.truncatedGzip() ? "truncated gzip stream" : "truncated")
                                      + ": the header announces " + what + " (" + std::to_string(bytes)
                                      + " bytes of data), but the data end after " + std::to_string(old + got) + " bytes");
    }
    if (source.gzipped()) {
        const std::uint64_t extra = source.drainRemaining();
        if (source.truncatedGzip())
            throw fileError(path, "truncated gzip stream: all " + std::to_string(bytes)
                                      + " announced bytes are there, but the stream's end marker and checksum are missing");
        if (extra > 0)
            throw fileError(path, std::to_string(extra) + " bytes of trailing data after the " + std::to_string(bytes)
                                      + " bytes the header announces (" + what + ")");
    }
    return data;
}

void deflateInto(z_stream &stream, std::ostream &out, const std::uint8_t *data, std::size_t size, int flush)
{
    std::vector<std::uint8_t> buffer(1 << 16);
    std::size_t offset = 0;
    do {
        const std::size_t piece = std::min<std::size_t>(size - offset, std::size_t{1} << 30);
        stream.next_in = const_cast<std::uint8_t *>(data + offset);
        stream.avail_in = static_cast<uInt>(piece);
        offset += piece;
        const int mode = offset == size ? flush : Z_NO_FLUSH;
        do {
            stream.next_out = buffer.data();
            stream.avail_out = static_cast<uInt>(buffer.size());
            if (deflate(&stream, mode) == Z_STREAM_ERROR)
                throw std::runtime_error("gzip compression failed");
            out.write(reinterpret_cast<const char *>(buffer.data()),
                      static_cast<std::streamsize>(buffer.size() - stream.avail_out));
        } while (stream.avail_out == 0);
    } while (offset < size);
}

void writeIdx(const std::string &path, const std::vector<std::uint32_t> &dims, std::span<const std::uint8_t> data,
              bool gzip)
{
    std::vector<std::uint8_t> header = {0, 0, 0x08, static_cast<std::uint8_t>(dims.size())};
    for (const std::uint32_t dim : dims)
        for (int shift = 24; shift >= 0; shift -= 8)
            header.push_back(static_cast<std::uint8_t>(dim >> shift));
    writeFileAtomically(path, [&](std::ostream &out) {
        if (!gzip) {
            out.write(reinterpret_cast<const char *>(header.data()), static_cast<std::streamsize>(header.size()));
            out.write(reinterpret_cast<const char *>(data.data()), static_cast<std::streamsize>(data.size()));
            return;
        }
        z_stream stream{};
        if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::runtime_error("cannot start gzip compression");
        try {
            deflateInto(stream, out, header.data(), header.size(), Z_NO_FLUSH);
            deflateInto(stream, out, data.data(), data.size(), Z_FINISH);
        } catch (...) {
            deflateEnd(&stream);
            throw;
        }
        deflateEnd(&stream);
    });
}

IdxImages readImages(ByteSource &source, const std::string &path)
{
    const auto dims = readHeader(source, path, 3, "image", "count, rows, columns");
    if (dims[1] > kIdxMaxSide || dims[2] > kIdxMaxSide
        || std::uint64_t{dims[1]} * dims[2] > kIdxMaxImagePixels)
        throw fileError(path, "the header announces images of " + std::to_string(dims[1]) + "x" + std::to_string(dims[2])
                                  + " pixels, more than the supported " + std::to_string(kIdxMaxImagePixels) + " pixels");
    const std::uint64_t bytes = std::uint64_t{dims[0]} * dims[1] * dims[2];
    const std::string what = std::to_string(dims[0]) + " images of " + std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
    if (bytes > kIdxMaxPayloadBytes)
        throw fileError(path, "the header announces " + what + " (" + std::to_string(bytes)
                                  + " bytes), more than the supported " + std::to_string(kIdxMaxPayloadBytes) + " bytes");
    IdxImages images;
    images.pixels = readPayload(source, path, bytes, what);
    images.count = static_cast<int>(dims[0]);
    images.rows = static_cast<int>(dims[1]);
    images.cols = static_cast<int>(dims[2]);
    return images;
}

std::vector<std::uint8_t> readLabels(ByteSource &source, const std::string &path)
{
    const auto dims = readHeader(source, path, 1, "label", "count");
    return readPayload(source, path, dims[0], std::to_string(dims[0]) + " labels");
}

} // namespace

IdxImages readIdxImages(const std::string &path)
{
    ByteSource source(path);
    return readImages(source, path);
}

IdxImages parseIdxImages(std::span<const std::uint8_t> bytes, const std::string &name)
{
    ByteSource source(bytes, name);
    return readImages(source, name);
}

std::vector<std::uint8_t> readIdxLabels(const std::string &path)
{
    ByteSource source(path);
    return readLabels(source, path);
}

std::vector<std::uint8_t> parseIdxLabels(std::span<const std::uint8_t> bytes, const std::string &name)
{
    ByteSource source(bytes, name);
    return readLabels(source, name);
}

LabelledImages readIdxDataset(const std::string &imagesPath, const std::string &labelsPath)
{
    IdxImages images = readIdxImages(imagesPath);
    std::vector<std::uint8_t> labels = readIdxLabels(labelsPath);
    if (labels.size() != static_cast<std::size_t>(images.count))
        throw std::runtime_error(labelsPath + ": holds " + std::to_string(labels.size()) + " labels, but the image file "
                                 + imagesPath + " holds " + std::to_string(images.count) + " images");
    LabelledImages out;
    out.pixels = std::move(images.pixels);
    out.labels = std::move(labels);
    out.count = images.count;
    out.rows = images.rows;
    out.cols = images.cols;
    out.description = std::filesystem::path(imagesPath).filename().string() + " + "
                      + std::filesystem::path(labelsPath).filename().string() + " ("
                      + std::filesystem::path(imagesPath).parent_path().string() + ")";
    return out;
}

void writeIdxImages(const std::string &path, std::span<const std::uint8_t> pixels, int count, int rows, int cols,
                    bool gzip)
{
    if (count < 1 || rows < 1 || cols < 1)
        throw std::invalid_argument("IDX images need count, rows and cols >= 1");
    if (pixels.size() != static_cast<std::size_t>(count) * static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        throw std::invalid_argument("IDX images: pixels must hold count * rows * cols bytes");
    writeIdx(path, {static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols)},
             pixels, gzip);
}

void writeIdxLabels(const std::string &path, std::span<const std::uint8_t> labels, bool gzip)
{
    if (labels.empty() || labels.size() > kIdxMaxCount)
        throw std::invalid_argument("IDX labels: need between 1 and 2147483647 labels");
    writeIdx(path, {static_cast<std::uint32_t>(labels.size())}, labels, gzip);
}

} // namespace core
