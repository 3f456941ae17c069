#pragma once
// Command-line options of the form --name value, --name=value or a bare --flag, parsed by CLI11;
// the values are kept as text for the settings table's parsers.
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

/// A bad command line: printed as one line, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// --help was asked for: `text` is the command's option list, printed with exit code 0.
struct HelpRequested {
    std::string text;
};

class Arguments {
public:
    /// Parses argv[first..] (argv[first - 1] is the command). Every option must be known to
    /// the command (`valueOptions` take a value, `flags` do not); anything else, or an option
    /// given twice, is a UsageError. --help throws HelpRequested. `helpOverrides` replaces the
    /// shared help of options the command uses in its own way.
    Arguments(int argc, char **argv, int first, const std::set<std::string> &valueOptions,
              const std::set<std::string> &flags = {}, const std::map<std::string, std::string> &helpOverrides = {});

    bool has(const std::string &name) const { return m_values.count(name) || m_flags.count(name); }
    std::string text(const std::string &name, const std::string &fallback) const;
    double real(const std::string &name, double fallback) const;
    /// Accepts 1000000, 1e6 or 1_000_000 style values that are whole numbers.
    std::int64_t integer(const std::string &name, std::int64_t fallback) const;
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }
    std::vector<std::string> list(const std::string &name, const std::string &fallback) const;

private:
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

} // namespace cli
