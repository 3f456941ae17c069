#pragma once
/// Facts the build records about the program: its version and where the bundled data sets
/// (resources/data, installed to <prefix>/share/mh-explorer/data) can be found, both from a
/// build tree and from an installed copy, wherever its prefix is.
#include <string>
#include <vector>

namespace core {

/// The project version from CMake's project() call, e.g. "0.1.0".
std::string projectVersion();

/// The directories that may hold bundled or fetched data sets, to be passed to
/// discoverImageSources() (core/data/image_sources.h). In order:
///   1. the installed data directory, found relative to the running executable
///      (<bindir>/../share/mh-explorer/data for a standard layout), so a package or a
///      `cmake --install` to any prefix finds its data without a compiled-in absolute path;
///   2. when built with MHX_BUILD_TREE_DATA=ON (the default), the source tree's resources/data
///      and the build tree's data/ that scripts/setup.sh fills.
/// Directories that do not exist are left out. Never throws.
std::vector<std::string> dataSearchDirectories();

/// The installed data directory for an executable at `executablePath`, following the same
/// relative layout as dataSearchDirectories(); it need not exist. Throws
/// std::invalid_argument when `executablePath` is empty.
std::string installedDataDirectory(const std::string &executablePath);

} // namespace core
