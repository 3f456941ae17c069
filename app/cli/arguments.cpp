#include "app/cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>

#include <CLI/CLI.hpp>

#include "core/experiment/settings/settings_table.h"

namespace cli {
namespace {

// Help for the options that are not run settings (those come from core::settingsTable()).
const std::map<std::string, std::string> &outputOptionHelp()
{
    static const std::map<std::string, std::string> help = {
        {"out", "write the samples CSV (run: streamed as the draws are made, so that an interrupted run keeps them), the Markdown table (compare) or the file the command makes"},
        {"summary", "write a JSON summary"},
        {"trace", "logreg: test accuracy against data read, every --trace-every samples, as CSV"},
        {"no-cache", "solve the correction table again instead of reading the cache"},
        {"chains", "chains per method, seeds seed, seed + 1, ... [1]"},
        {"parallel", "run the chains at once, one per core"},
        {"threads", "run the chains (compare: the trials; sweep: the points, 0 = one per core) on N threads"},
        {"from", "the settings in this samples file's header: the same chain again"},
        {"resume", "continue the chain of this samples file, cut short, from its last checkpoint (written with --checkpoint-every): the file gets the draws the uninterrupted run would have made"},
        {"methods", "comma-separated methods, run on the same data and seeds; METHOD+taylor1 or METHOD+taylor2 adds control variates to that one (e.g. minibatch,minibatch+taylor2,mh)"},
        {"trials", "chains per method, seeds seed..seed+trials-1 [compare 10, sweep 1 per point]"},
        {"vary", "sweep: NAME=FROM:TO:COUNT, a numeric setting's key or flag (sigma, temperature, batch...)"},
        {"log", "sweep: geometric spacing between FROM and TO (both > 0)"},
        {"csv", "also write the rows as CSV"},
        {"minibatch-iterations", "iterations of the minibatch chain [20000]"},
        {"full-iterations", "iterations of each full-data chain [100]"},
        {"repeats", "bench: time each side this many times, alternating, and report the medians [5]"},
    };
    return help;
}

std::string helpFor(const std::string &name)
{
    for (const core::SettingSpec &spec : core::settingsTable())
        if (spec.flag == name)
            return spec.help;
        else if (!spec.offFlag.empty() && spec.offFlag == name)
            return "the opposite of --" + spec.flag;
    const auto it = outputOptionHelp().find(name);
    return it == outputOptionHelp().end() ? std::string() : it->second;
}

} // namespace

Arguments::Arguments(int argc, char **argv, int first, const std::set<std::string> &valueOptions,
                     const std::set<std::string> &flags, const std::map<std::string, std::string> &helpOverrides)
{
    auto helpText = [&helpOverrides](const std::string &name) {
        const auto it = helpOverrides.find(name);
        return it == helpOverrides.end() ? helpFor(name) : it->second;
    };
    // CLI11 does the parsing (known options only, values present, --help per command); the
    // values stay text, read by the settings table's parsers or the accessors below.
    const std::string command = first >= 2 && first - 1 < argc ? argv[first - 1] : "";
    CLI::App app("mh-explorer-cli " + command + ": options (defaults in brackets)", "mh-explorer-cli " + command);
    std::map<std::string, std::string> values;
    std::map<std::string, bool> switches;
    std::map<std::string, CLI::Option *> options;
    for (const std::string &name : valueOptions)
        options[name] = app.add_option("--" + name, values[name], helpText(name))->type_name("VALUE");
    for (const std::string &name : flags)
        options[name] = app.add_flag("--" + name, switches[name], helpText(name));
    try {
        // argv[first - 1], the command, stands where CLI11 expects the program's name.
        app.parse(argc - first + 1, argv + first - 1);
    } catch (const CLI::CallForHelp &) {
        throw HelpRequested{app.help()};
    } catch (const CLI::ParseError &error) {
        throw UsageError(error.what());
    }
    for (const auto &[name, option] : options) {
        if (option->count() > 1)
            throw UsageError("--" + name + " given twice");
        if (option->count() == 0)
            continue;
        if (flags.count(name))
            m_flags.insert(name);
        else
            m_values[name] = values[name];
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
