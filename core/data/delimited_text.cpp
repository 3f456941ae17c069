#include "core/data/delimited_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace core {

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

bool isBlankChar(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

char detectDelimiter(std::string_view line)
{
    constexpr std::array<char, 3> kCandidates = {',', ';', '\t'};
    std::array<std::size_t, 3> counts{};
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (!quoted)
            for (std::size_t k = 0; k < kCandidates.size(); ++k)
                counts[k] += c == kCandidates[k];
    }
    const auto best = static_cast<std::size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    return counts[best] == 0 ? ',' : kCandidates[best];
}

char parseDelimiter(const std::string &text)
{
    if (text == "auto")
        return 0;
    if (text == "tab" || text == "\\t" || text == "\t")
        return '\t';
    if (text.size() == 1 && text[0] != '"' && text[0] != '\n' && text[0] != '\r' && text[0] != ' ')
        return text[0];
    throw std::invalid_argument("delimiter must be auto, tab or one character such as , or ; (not a quote, a space "
                                "or a line end); got '" + text + "'");
}

std::string delimiterName(char delimiter)
{
    if (delimiter == '\t')
        return "tab";
    return inQuotes(std::string_view(&delimiter, 1));
}

bool splitDelimitedLine(std::string_view line, char delimiter, std::vector<std::string> &fields)
{
    fields.clear();
    std::size_t at = 0;
    for (;;) {
        std::string field;
        while (at < line.size() && isBlankChar(line[at]) && line[at] != delimiter)
            ++at;
        if (at < line.size() && line[at] == '"') {
            ++at;
            for (;;) {
                if (at >= line.size())
                    return false;
                if (line[at] == '"') {
                    if (at + 1 < line.size() && line[at + 1] == '"') {
                        field += '"';
                        at += 2;
                        continue;
                    }
                    ++at;
                    break;
                }
                field += line[at++];
            }
            // Text after the closing quote, up to the delimiter, belongs to the field too
            // (spreadsheets write `"a"b` rarely; keeping it loses nothing).
            while (at < line.size() && line[at] != delimiter)
                field += line[at++];
            while (!field.empty() && isBlankChar(field.back()))
                field.pop_back();
        } else {
            const std::size_t end = std::min(line.find(delimiter, at), line.size());
            field.assign(line.substr(at, end - at));
            at = end;
            while (!field.empty() && isBlankChar(field.back()))
                field.pop_back();
        }
        fields.push_back(std::move(field));
        if (at >= line.size())
            return true;
        ++at; // the delimiter
    }
}

bool isMissingField(std::string_view field)
{
    for (std::string_view mark : {"", "NA", "N/A", "NaN", "NULL", "?"})
        if (equalsIgnoreCase(field, mark))
            return true;
    return false;
}

NumberStatus parseFieldNumber(std::string_view field, double &value)
{
    // from_chars accepts no leading '+', so skip one.
    if (!field.empty() && field.front() == '+')
        field.remove_prefix(1);
    if (field.empty())
        return NumberStatus::NotANumber;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (end != field.data() + field.size())
        return NumberStatus::NotANumber;
    if (error == std::errc::result_out_of_range) {
        // from_chars reports underflow (1e-400) like overflow; only overflow is an error.
        const double rounded = std::strtod(std::string(field).c_str(), nullptr);
        if (std::isinf(rounded))
            return NumberStatus::OutOfRange;
        value = rounded;
        return NumberStatus::Ok;
    }
    return error == std::errc() ? NumberStatus::Ok : NumberStatus::NotANumber;
}

// Built by appending: GCC 12 reports a false -Wrestrict for "'" + std::string(view) + "'".
std::string inQuotes(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out.append(text);
    out += '\'';
    return out;
}

} // namespace core
