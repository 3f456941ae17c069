#include "core/install/install_layout.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>

// Set by core/CMakeLists.txt on this file only, so that changing them rebuilds one file.
#ifndef MHX_VERSION
#error "MHX_VERSION must be defined by the build"
#endif
#ifndef MHX_DATA_DIR_FROM_BINDIR
#error "MHX_DATA_DIR_FROM_BINDIR must be defined by the build"
#endif
#ifndef MHX_BUILD_TREE_DATA_DIRS
#define MHX_BUILD_TREE_DATA_DIRS ""
#endif

namespace core {
namespace {

namespace fs = std::filesystem;

// The running program's own file, with symbolic links resolved, so that a link such as
// /usr/local/bin/mh-explorer -> /opt/mhx/bin/mh-explorer still finds /opt/mhx/share.
fs::path executablePath()
{
    std::error_code error;
    fs::path path = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::path() : path;
}

void appendIfDirectory(std::vector<std::string> &directories, const fs::path &path)
{
    std::error_code error;
    if (path.empty() || !fs::is_directory(path, error))
        return;
    const std::string text = path.lexically_normal().string();
    for (const std::string &known : directories)
        if (known == text)
            return;
    directories.push_back(text);
}

} // namespace

std::string projectVersion()
{
    return MHX_VERSION;
}

std::string installedDataDirectory(const std::string &executablePath)
{
    if (executablePath.empty())
        throw std::invalid_argument("installedDataDirectory: executablePath must not be empty");
    return (fs::path(executablePath).parent_path() / MHX_DATA_DIR_FROM_BINDIR).lexically_normal().string();
}

std::vector<std::string> dataSearchDirectories()
{
    std::vector<std::string> directories;
    if (const fs::path self = executablePath(); !self.empty())
        appendIfDirectory(directories, installedDataDirectory(self.string()));
    const std::string buildTree = MHX_BUILD_TREE_DATA_DIRS;
    for (std::size_t start = 0; start < buildTree.size();) {
        const std::size_t colon = std::min(buildTree.find(':', start), buildTree.size());
        appendIfDirectory(directories, buildTree.substr(start, colon - start));
        start = colon + 1;
    }
    return directories;
}

} // namespace core
