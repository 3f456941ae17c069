#include "core/io/mapped_file.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace core {
namespace {

[[noreturn]] void failWithErrno(const std::string &path, const std::string &what)
{
    throw std::runtime_error(path + ": " + what + " (" + std::strerror(errno) + ")");
}

// Touches one byte per page of [begin, begin + size) and returns the bytes per second.
double timeSequentialRead(const std::uint8_t *begin, std::size_t size)
{
    const auto started = std::chrono::steady_clock::now();
    volatile std::uint8_t sink = 0;
    for (std::size_t offset = 0; offset < size; offset += 4096)
        sink = static_cast<std::uint8_t>(sink + begin[offset]);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return static_cast<double>(size) / std::max(seconds, 1e-6);
}

} // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        failWithErrno(path, "cannot open for mapping");
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        ::close(fd);
        failWithErrno(path, "cannot read the file's size");
    }
    if (!S_ISREG(info.st_mode) || info.st_size <= 0) {
        ::close(fd);
        throw std::runtime_error(path + ": only a non-empty regular file can be mapped");
    }
    const auto size = static_cast<std::size_t>(info.st_size);
    void *address = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    const int mapError = errno;
    ::close(fd); // the mapping keeps the file open
    if (address == MAP_FAILED) {
        errno = mapError;
        failWithErrno(path, "cannot map " + std::to_string(size >> 20) + " MiB");
    }
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->m_data = static_cast<const std::uint8_t *>(address);
    file->m_size = size;
    file->m_path = path;
    file->advise(Access::Sequential);
    const std::size_t probe = std::min<std::size_t>(size, std::size_t{32} << 20);
    file->m_readRate = timeSequentialRead(file->m_data + (size - probe) / 2, probe);
    file->advise(Access::Random);
    const long pageSize = ::sysconf(_SC_PAGESIZE), pages = ::sysconf(_SC_PHYS_PAGES);
    file->m_pageMask = ~static_cast<std::uintptr_t>(std::max(pageSize, 1L) - 1);
    file->m_largerThanMemory = pageSize > 0 && pages > 0
                               && static_cast<double>(size) > static_cast<double>(pageSize) * static_cast<double>(pages);
    return file;
}

void MappedFile::advise(Access access) const
{
    ::madvise(const_cast<std::uint8_t *>(m_data), m_size, access == Access::Random ? MADV_RANDOM : MADV_SEQUENTIAL);
}

void MappedFile::willNeed(const void *address, std::size_t bytes) const
{
    const auto first = reinterpret_cast<std::uintptr_t>(address) & m_pageMask;
    const auto end = reinterpret_cast<std::uintptr_t>(address) + bytes;
    ::madvise(reinterpret_cast<void *>(first), end - first, MADV_WILLNEED);
}

MappedFile::~MappedFile()
{
    if (m_data)
        ::munmap(const_cast<std::uint8_t *>(m_data), m_size);
}

} // namespace core
