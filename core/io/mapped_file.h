#pragma once
/// A file mapped read-only into memory (POSIX mmap): its bytes are addressable at once, and the
/// kernel reads a page from disk only when it is first touched. That is how a features file
/// larger than RAM is sampled: the minibatch test touches a few hundred random rows per test,
/// and the page cache keeps what fits. Pages are advised as randomly accessed, so the kernel
/// does not read ahead a whole window around every touched row.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace core {

class MappedFile {
public:
    /// Maps the whole of `path`. Throws std::runtime_error starting with the path when the file
    /// cannot be opened, is empty or is not a regular file, or the mapping fails (the system's
    /// reason appended).
    static std::shared_ptr<const MappedFile> open(const std::string &path);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const std::uint8_t *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    const std::string &path() const { return m_path; }
    /// Bytes per second of one sequential read of up to 32 MiB from the middle of the file,
    /// measured at open: the basis of the cost announced before a pass over every row
    /// (full_pass_notice.h). Pages already cached read at memory speed, as a pass would.
    double sequentialReadRate() const { return m_readRate; }

    /// How the pages will be read next: Random (the default: a page per touched row, no
    /// read-ahead) or Sequential (a pass over every row: read ahead, and drop pages behind).
    enum class Access { Random, Sequential };
    /// A hint to the kernel, for the whole file; harmless when several readers disagree.
    void advise(Access access) const;
    /// True when the file is larger than the machine's physical memory, so that the page cache
    /// cannot hold it and a random row is often on disk.
    bool largerThanMemory() const { return m_largerThanMemory; }
    /// Asks the kernel to start reading the pages of [address, address + bytes) now, without
    /// waiting for them: several rows' reads then overlap on the disk instead of queueing one
    /// after another as each is touched.
    void willNeed(const void *address, std::size_t bytes) const;

private:
    MappedFile() = default;
    const std::uint8_t *m_data = nullptr;
    std::size_t m_size = 0;
    std::string m_path;
    double m_readRate = 0.0;
    bool m_largerThanMemory = false;
    std::uintptr_t m_pageMask = 0;
};

} // namespace core
