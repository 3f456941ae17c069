#include "core/io/streamed_samples.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/io/atomic_file.h"
#include "core/io/csv_fields.h"

namespace core {
namespace {

std::string_view trimView(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

std::string trimmed(std::string_view text)
{
    return std::string(trimView(text));
}

} // namespace

std::string StreamedSamples::value(const std::string &key, const std::string &fallback) const
{
    for (const auto &[name, text] : metadata)
        if (name == key)
            return text;
    return fallback;
}

std::vector<double> StreamedSamples::parameters(std::size_t row) const
{
    const std::vector<std::string_view> fields = splitCsvFields(rows.at(row), trimView);
    if (fields.size() != columns.size())
        throw std::runtime_error(path + ": draw " + std::to_string(row + 1) + " has " + std::to_string(fields.size())
                                 + " fields, the header " + std::to_string(columns.size()));
    std::vector<double> theta;
    for (std::size_t k = 0; k < columns.size(); ++k) {
        if (columns[k].ends_with("__"))
            continue;
        double number = 0.0;
        const std::string_view field = fields[k];
        const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), number);
        if (error != std::errc() || end != field.data() + field.size())
            throw std::runtime_error(path + ": draw " + std::to_string(row + 1) + ", column '" + columns[k] + "': '"
                                     + std::string(field) + "' is not a number");
        theta.push_back(number);
    }
    return theta;
}

StreamedSamples readStreamedSamples(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    StreamedSamples file;
    file.path = path;
    std::size_t begin = 0;
    while (begin < text.size()) {
        const std::size_t end = text.find('\n', begin);
        if (end == std::string::npos)
            break; // a line without its end: cut by kill -9, never a whole draw
        std::string line = text.substr(begin, end - begin);
        begin = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.starts_with('#')) {
            const std::size_t equals = line.find('=');
            const std::string key = equals == std::string::npos ? std::string() : trimmed(std::string_view(line).substr(1, equals - 1));
            const std::string value = equals == std::string::npos ? std::string() : trimmed(std::string_view(line).substr(equals + 1));
            if (key == "status")
                file.status = value;
            if (file.columns.empty()) {
                file.head.push_back(line);
                if (!key.empty())
                    file.metadata.emplace_back(key, value);
            }
            continue;
        }
        if (trimmed(line).empty())
            continue;
        if (file.columns.empty()) {
            file.head.push_back(line);
            for (const std::string_view name : splitCsvFields(line, trimView))
                file.columns.emplace_back(name);
            continue;
        }
        file.rows.push_back(std::move(line));
    }
    if (file.columns.empty())
        throw std::runtime_error(path + ": no column line; this is not a samples file");
    return file;
}

void cutBackStreamedSamples(const StreamedSamples &file, std::size_t keptRows)
{
    if (keptRows > file.rows.size())
        throw std::invalid_argument(file.path + ": cannot keep " + std::to_string(keptRows) + " of "
                                    + std::to_string(file.rows.size()) + " draws");
    writeFileAtomically(file.path, [&](std::ostream &out) {
        for (const std::string &line : file.head)
            out << line << '\n';
        for (std::size_t row = 0; row < keptRows; ++row)
            out << file.rows[row] << '\n';
    });
}

} // namespace core
