#include "core/io/samples_csv_reader.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>

#include "core/io/csv_fields.h"

namespace core {
namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// Long fields are cut in messages so that one bad line cannot flood the terminal.
std::string shown(std::string_view text)
{
    constexpr std::size_t limit = 40;
    return text.size() <= limit ? std::string(text) : std::string(text.substr(0, limit)) + "…";
}

bool parseNumber(std::string_view field, double &value)
{
    // from_chars takes no '+'; allow one, but not "+-2" or "+ 2".
    if (!field.empty() && field.front() == '+') {
        field.remove_prefix(1);
        if (field.empty() || field.front() == '+' || field.front() == '-' || field.front() == ' ')
            return false;
    }
    const char *end = field.data() + field.size();
    const auto [stop, error] = std::from_chars(field.data(), end, value);
    if (error == std::errc::result_out_of_range) {
        // Underflow to a subnormal or zero, or overflow to ±inf: strtod gives the nearest value.
        const std::string copy(field);
        value = std::strtod(copy.c_str(), nullptr);
        return stop == end;
    }
    return error == std::errc() && stop == end;
}

class Parser {
public:
    Parser(std::string_view text, std::string_view fileName) : m_text(text) { m_table.fileName = fileName; }

    SamplesTable parse()
    {
        std::size_t position = 0;
        std::size_t lineNumber = 0;
        while (position < m_text.size()) {
            const std::size_t newline = m_text.find('\n', position);
            const std::size_t end = newline == std::string_view::npos ? m_text.size() : newline;
            ++lineNumber;
            // A file streamed while its run went on and killed mid-write ends inside a line: that
            // line is not a draw (samples_csv_stream.h).
            if (newline == std::string_view::npos && streamed() && !trim(m_text.substr(position)).empty()) {
                m_table.partialLastLine = lineNumber;
                break;
            }
            handleLine(m_text.substr(position, end - position), lineNumber);
            position = end + 1;
        }
        if (m_table.columns.empty())
            throw SamplesCsvError(m_table.fileName + ": no header row (the file is empty or holds only comments); "
                                  "expected a line of column names such as lp__,theta.1");
        if (m_table.draws() == 0)
            throw SamplesCsvError(m_table.fileName + ":" + std::to_string(m_headerLine)
                                  + ": the header is not followed by any draws");
        return std::move(m_table);
    }

private:
    [[noreturn]] void fail(std::size_t line, const std::string &what) const
    {
        throw SamplesCsvError(m_table.fileName + ":" + std::to_string(line) + ": " + what);
    }

    void handleLine(std::string_view raw, std::size_t line)
    {
        const std::string_view text = trim(raw);
        if (text.empty())
            return;
        if (text.front() == '#') {
            if (m_table.columns.empty())
                addMetadata(text.substr(1));
            else
                addStatus(text.substr(1));
            return;
        }
        if (text.find('\0') != std::string_view::npos)
            fail(line, "contains a NUL byte; this is not a text CSV file");
        const std::vector<std::string_view> fields = splitCsvFields(text, trim);
        if (m_table.columns.empty())
            readHeader(fields, line);
        else
            readRow(fields, line);
    }

    bool streamed() const
    {
        for (const auto &[key, value] : m_table.metadata)
            if (key == "status" && value.starts_with("running"))
                return true;
        return false;
    }

    // A streamed file's closing `# status = interrupted …` line, after the draws.
    void addStatus(std::string_view comment)
    {
        const std::size_t equals = comment.find('=');
        if (equals != std::string_view::npos && trim(comment.substr(0, equals)) == "status")
            m_table.metadata.emplace_back("status", std::string(trim(comment.substr(equals + 1))));
    }

    void addMetadata(std::string_view comment)
    {
        const std::size_t equals = comment.find('=');
        if (equals == std::string_view::npos)
            return;
        const std::string_view key = trim(comment.substr(0, equals));
        if (!key.empty())
            m_table.metadata.emplace_back(std::string(key), std::string(trim(comment.substr(equals + 1))));
    }

    void readHeader(const std::vector<std::string_view> &fields, std::size_t line)
    {
        std::set<std::string_view> seen;
        for (std::size_t k = 0; k < fields.size(); ++k) {
            std::string_view name = fields[k];
            if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
                name = name.substr(1, name.size() - 2);
            if (name.empty())
                fail(line, "column " + std::to_string(k + 1) + " of the header has no name");
            double number = 0.0;
            if (parseNumber(name, number))
                fail(line, "column " + std::to_string(k + 1) + ": the header must name the columns, found the number '"
                               + shown(name) + "' (is the header row missing?)");
            if (!seen.insert(name).second)
                fail(line, "column " + std::to_string(k + 1) + ": the name '" + shown(name) + "' appears twice in the header");
            m_table.columns.emplace_back(name);
        }
        m_table.values.resize(fields.size());
        m_headerLine = line;
    }

    void readRow(const std::vector<std::string_view> &fields, std::size_t line)
    {
        if (fields.size() != m_table.columns.size())
            fail(line, std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") + ", but the header (line "
                           + std::to_string(m_headerLine) + ") has " + std::to_string(m_table.columns.size())
                           + " columns");
        for (std::size_t k = 0; k < fields.size(); ++k) {
            double value = 0.0;
            if (!parseNumber(fields[k], value))
                fail(line, "column " + std::to_string(k + 1) + " ('" + shown(m_table.columns[k]) + "'): '" + shown(fields[k])
                               + "' is not a number");
            m_table.values[k].push_back(value);
        }
    }

    std::string_view m_text;
    SamplesTable m_table;
    std::size_t m_headerLine = 0;
};

} // namespace

bool SamplesTable::isSamplerColumn(std::string_view name)
{
    return name.size() > 2 && name.substr(name.size() - 2) == "__";
}

SamplesTable parseSamplesCsv(std::string_view text, std::string_view fileName)
{
    return Parser(text, fileName).parse();
}

SamplesTable readSamplesCsv(const std::string &path)
{
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw SamplesCsvError(path + ": is a directory, not a samples CSV file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw SamplesCsvError(path + ": cannot open for reading (" + std::strerror(errno) + ")");
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad())
        throw SamplesCsvError(path + ": read error");
    return parseSamplesCsv(content.str(), path);
}

} // namespace core
