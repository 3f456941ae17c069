#include "core/io/cache_directory.h"

#include <cstdlib>

namespace core {

std::filesystem::path defaultCacheDirectory()
{
    const auto nonEmpty = [](const char *name) -> const char * {
        const char *value = std::getenv(name);
        return value && *value ? value : nullptr;
    };
    if (const char *dir = nonEmpty("MHX_CACHE_DIR"))
        return dir;
    if (const char *xdg = nonEmpty("XDG_CACHE_HOME"); xdg && std::filesystem::path(xdg).is_absolute())
        return std::filesystem::path(xdg) / "mh-explorer";
    if (const char *home = nonEmpty("HOME"))
        return std::filesystem::path(home) / ".cache" / "mh-explorer";
    return {};
}

} // namespace core
