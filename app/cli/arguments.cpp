#include "app/cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace cli {

Arguments::Arguments(int argc, char **argv, int first, const std::set<std::string> &valueOptions,
                     const std::set<std::string> &flags)
{
    for (int i = first; i < argc; ++i) {
        std::string token = argv[i];
        if (token.rfind("--", 0) != 0)
            throw UsageError("unexpected argument '" + token + "' (options look like --name value)");
        std::string name = token.substr(2), value;
        const auto equals = name.find('=');
        const bool inlineValue = equals != std::string::npos;
        if (inlineValue) {
            value = name.substr(equals + 1);
            name = name.substr(0, equals);
        }
        if (flags.count(name)) {
            if (inlineValue)
                throw UsageError("--" + name + " takes no value");
            m_flags.insert(name);
            continue;
        }
        if (!valueOptions.count(name))
            throw UsageError("unknown option --" + name);
        if (!inlineValue) {
            if (i + 1 >= argc)
                throw UsageError("--" + name + " needs a value");
            value = argv[++i];
        }
        if (m_values.count(name))
            throw UsageError("--" + name + " given twice");
        m_values[name] = value;
    }
}

std::string Arguments::text(const std::string &name, const std::string &fallback) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

double Arguments::real(const std::string &name, double fallback) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    char *end = nullptr;
    errno = 0;
    const double value = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
        throw UsageError("--" + name + " must be a finite number; got '" + it->second + "'");
    return value;
}

std::int64_t Arguments::integer(const std::string &name, std::int64_t fallback) const
{
    if (!has(name))
        return fallback;
    const double value = real(name, 0.0);
    if (value != std::floor(value) || std::abs(value) > 9.0e15)
        throw UsageError("--" + name + " must be a whole number; got '" + text(name, "") + "'");
    return static_cast<std::int64_t>(value);
}

std::uint64_t Arguments::seed(const std::string &name, std::uint64_t fallback) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    char *end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(it->second.c_str(), &end, 10);
    if (it->second.empty() || it->second[0] == '-' || *end != '\0' || errno == ERANGE)
        throw UsageError("--" + name + " must be a whole number in [0, 18446744073709551615]; got '" + it->second + "'");
    return value;
}

std::vector<std::string> Arguments::list(const std::string &name, const std::string &fallback) const
{
    std::vector<std::string> items;
    const std::string all = text(name, fallback);
    std::size_t start = 0;
    while (start <= all.size()) {
        const auto comma = all.find(',', start);
        const std::string item = all.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!item.empty())
            items.push_back(item);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return items;
}

} // namespace cli
