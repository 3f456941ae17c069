#include "core/io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace core {
namespace {

std::string directoryOf(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string failure(const std::string &path, const std::string &what, int error)
{
    return "cannot write '" + path + "': " + what + " (" + std::strerror(error) + ")";
}

// Creates a unique temporary file next to `path`; returns its descriptor and name.
int createTemporary(const std::string &path, std::string &temporary)
{
    if (path.empty())
        throw std::runtime_error("cannot write '': the output path is empty");
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        throw std::runtime_error("cannot write '" + path + "': it is a directory");
    const std::string directory = directoryOf(path);
    if (::stat(directory.c_str(), &info) != 0)
        throw std::runtime_error(failure(path, "directory '" + directory + "' does not exist", errno));
    std::string pattern = path + ".tmp-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const int fd = ::mkstemp(buffer.data());
    if (fd < 0)
        throw std::runtime_error(failure(path, "cannot create a file in '" + directory + "'", errno));
    temporary.assign(buffer.data());
    return fd;
}

} // namespace

void writeFileAtomically(const std::string &path, const std::function<void(std::ostream &)> &writer)
{
    std::string temporary;
    const int fd = createTemporary(path, temporary);
    ::close(fd);
    try {
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            if (!out)
                throw std::runtime_error(failure(path, "cannot open the temporary file", errno));
            writer(out);
            out.flush();
            if (!out)
                throw std::runtime_error(failure(path, "write failed (disk full?)", errno));
        }
        const int syncFd = ::open(temporary.c_str(), O_RDONLY);
        if (syncFd >= 0) {
            const bool synced = ::fsync(syncFd) == 0;
            const int syncError = errno;
            ::close(syncFd);
            if (!synced)
                throw std::runtime_error(failure(path, "fsync failed", syncError));
        }
        // mkstemp creates 0600; give the file the usual permissions a plain create would.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::chmod(temporary.c_str(), 0666 & ~mask);
        if (std::rename(temporary.c_str(), path.c_str()) != 0)
            throw std::runtime_error(failure(path, "rename failed", errno));
    } catch (...) {
        std::remove(temporary.c_str());
        throw;
    }
}

void checkWritable(const std::string &path)
{
    std::string temporary;
    const int fd = createTemporary(path, temporary);
    ::close(fd);
    std::remove(temporary.c_str());
}

} // namespace core
