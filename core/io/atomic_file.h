#pragma once
/// Whole-file writes that either land completely or leave nothing behind.
///
/// The content goes to a temporary file in the target's directory, is flushed and fsync'ed,
/// and is then renamed over the target, so a reader never sees a partial file and a failure
/// leaves the previous file (or no file) in place.
#include <functional>
#include <ostream>
#include <string>

namespace core {

/// Writes `writer`'s output to `path` atomically. Throws std::runtime_error with the path and
/// the operating system's reason when the directory is missing or unwritable, the disk is
/// full, or `writer` throws (the temporary file is removed in every case).
void writeFileAtomically(const std::string &path, const std::function<void(std::ostream &)> &writer);

/// Checks before a long run that `path` can be created: its directory exists and is writable
/// and `path` is not a directory. Creates and removes a probe file; leaves nothing behind.
/// Throws std::runtime_error naming the path and the reason.
void checkWritable(const std::string &path);

} // namespace core
