#pragma once
// A fresh, private directory under the system's temporary directory for a test's files,
// removed with everything in it when the object goes out of scope; and whole-file reads and
// writes for preparing and inspecting those files.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <stdlib.h> // mkdtemp (POSIX)

namespace testfiles {

class TemporaryDirectory {
public:
    /// Creates the directory (mode 0700, a unique name); throws std::runtime_error if it cannot.
    TemporaryDirectory()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "mhx-test-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw std::runtime_error("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
        m_path = pattern;
    }
    ~TemporaryDirectory()
    {
        std::error_code ignored; // a destructor must not throw; a leftover directory is harmless
        std::filesystem::remove_all(m_path, ignored);
    }
    TemporaryDirectory(const TemporaryDirectory &) = delete;
    TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;

    const std::filesystem::path &path() const { return m_path; }
    /// The path of `name` inside the directory, as the string the core's file functions take.
    std::string filePath(std::string_view name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

/// One directory for a whole Boost.Test module, made before its first test case and removed
/// after its last: `using Suite = testfiles::SuiteDirectory; BOOST_TEST_GLOBAL_FIXTURE(Suite);`,
/// then `Suite::dir->filePath("name")` in the cases.
struct SuiteDirectory {
    static inline std::optional<TemporaryDirectory> dir;

    void setup() { dir.emplace(); }
    void teardown() { dir.reset(); }
};

/// The whole content of `path`; throws std::runtime_error when it cannot be opened.
inline std::string readFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Replaces the content of `path` by `content`; throws std::runtime_error when it cannot.
inline void writeFile(const std::filesystem::path &path, std::string_view content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

} // namespace testfiles
