#pragma once
/// Where solved tables (correction distributions, AustereMH designs) are kept between runs:
/// $MHX_CACHE_DIR if set and non-empty, else $XDG_CACHE_HOME/mh-explorer, else
/// $HOME/.cache/mh-explorer; empty (no cache) if none of these is available.
#include <filesystem>

namespace core {

std::filesystem::path defaultCacheDirectory();

} // namespace core
