#include "core/data/csv_dataset.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/io/csv_fields.h"

namespace core {
namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        text = text.substr(1, text.size() - 2);
    return text;
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

enum class ParseStatus { Ok, NotANumber, OutOfRange };

// The whole field must be a number; from_chars accepts no leading '+', so skip one.
ParseStatus parseNumber(std::string_view field, double &value)
{
    if (!field.empty() && field.front() == '+')
        field.remove_prefix(1);
    if (field.empty())
        return ParseStatus::NotANumber;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (end != field.data() + field.size())
        return ParseStatus::NotANumber;
    if (error == std::errc::result_out_of_range) {
        // from_chars reports underflow (1e-400) like overflow; only overflow is an error.
        const double rounded = std::strtod(std::string(field).c_str(), nullptr);
        if (std::isinf(rounded))
            return ParseStatus::OutOfRange;
        value = rounded;
        return ParseStatus::Ok;
    }
    return error == std::errc() ? ParseStatus::Ok : ParseStatus::NotANumber;
}

bool isNumber(std::string_view field)
{
    double value = 0.0;
    return parseNumber(field, value) != ParseStatus::NotANumber;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

struct LabelValue {
    std::string text;
    std::optional<double> number;
    long line = 0;
};

class CsvReader {
public:
    explicit CsvReader(const std::string &path) : m_path(path) {}

    ClassificationData read(std::istream &in)
    {
        std::string line;
        long lineNumber = 0;
        while (std::getline(in, line)) {
            ++lineNumber;
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            const std::string_view text = trim(line);
            if (text.empty() || text.front() == '#')
                continue;
            handleLine(splitCsvFields(line, trim), lineNumber);
        }
        if (in.bad())
            throw std::runtime_error(m_path + ": read error");
        return finish();
    }

private:
    [[noreturn]] void fail(long line, const std::string &what) const
    {
        throw std::runtime_error(m_path + ": line " + std::to_string(line) + ": " + what);
    }

    void handleLine(const std::vector<std::string_view> &fields, long line)
    {
        if (m_fieldCount == 0) {
            m_fieldCount = fields.size();
            m_firstLine = line;
            if (m_fieldCount < 2)
                fail(line, "only one field; need a label column and at least one feature column");
            const bool named = std::any_of(fields.begin(), fields.end(),
                                           [](std::string_view f) { return equalsIgnoreCase(f, "label"); });
            // A text label in the first column is data; text anywhere else means a header.
            const bool header = named || std::any_of(fields.begin() + 1, fields.end(),
                                                     [](std::string_view f) { return !isNumber(f); });
            if (header) {
                for (std::size_t k = 0; k < fields.size(); ++k)
                    if (equalsIgnoreCase(fields[k], "label")) {
                        m_labelColumn = k;
                        break;
                    }
                return;
            }
        }
        if (fields.size() != m_fieldCount)
            fail(line, "ragged row: " + std::to_string(fields.size()) + " fields, but line " + std::to_string(m_firstLine)
                           + " has " + std::to_string(m_fieldCount));
        for (std::size_t k = 0; k < fields.size(); ++k) {
            if (k == m_labelColumn) {
                m_labels.push_back(labelIndex(fields[k], line));
                continue;
            }
            double value = 0.0;
            const std::string where = "column " + std::to_string(k + 1) + ": ";
            const std::string shown = inQuotes(fields[k]);
            const ParseStatus status = parseNumber(fields[k], value);
            if (fields[k].empty())
                fail(line, where + "empty field");
            if (status == ParseStatus::NotANumber)
                fail(line, where + "non-numeric field " + shown);
            if (status == ParseStatus::OutOfRange)
                fail(line, where + "value " + shown + " is out of range");
            if (!std::isfinite(value))
                fail(line, where + "NaN or infinite value " + shown + "; features must be finite");
            if (std::abs(value) > static_cast<double>(std::numeric_limits<float>::max()))
                fail(line, where + "value " + shown + " exceeds the single-precision range used for features");
            m_features.push_back(static_cast<float>(value));
        }
        ++m_rows;
    }

    // Index of the label value in order of first appearance (0 or 1).
    std::uint8_t labelIndex(std::string_view field, long line)
    {
        if (field.empty())
            fail(line, "column " + std::to_string(m_labelColumn + 1) + ": empty label");
        double value = 0.0;
        std::optional<double> number;
        if (parseNumber(field, value) == ParseStatus::Ok) {
            if (!std::isfinite(value))
                fail(line, "column " + std::to_string(m_labelColumn + 1) + ": label " + inQuotes(field)
                               + " is NaN or infinite");
            number = value;
        }
        for (std::size_t k = 0; k < m_values.size(); ++k) {
            const LabelValue &seen = m_values[k];
            if ((number && seen.number) ? *number == *seen.number : field == seen.text)
                return static_cast<std::uint8_t>(k);
        }
        if (m_values.size() == 2)
            fail(line, "a third label value " + inQuotes(field) + " (line " + std::to_string(m_values[0].line) + " has "
                           + inQuotes(m_values[0].text) + ", line " + std::to_string(m_values[1].line) + " has "
                           + inQuotes(m_values[1].text) + "); binary classification needs exactly two label values");
        m_values.push_back({std::string(field), number, line});
        return static_cast<std::uint8_t>(m_values.size() - 1);
    }

    ClassificationData finish()
    {
        if (m_rows == 0)
            throw std::runtime_error(m_path + ": no data rows");
        if (m_values.size() < 2)
            throw std::runtime_error(m_path + ": every row has the label " + inQuotes(m_values[0].text)
                                     + "; binary classification needs exactly two label values");
        const bool bothNumbers = m_values[0].number && m_values[1].number;
        const bool swap = bothNumbers ? *m_values[1].number < *m_values[0].number : m_values[1].text < m_values[0].text;
        ClassificationData data;
        const auto d = static_cast<Eigen::Index>(m_fieldCount - 1);
        data.features = Eigen::Map<const FeatureMatrix>(m_features.data(), m_rows, d);
        data.labels = std::move(m_labels);
        if (swap)
            for (auto &label : data.labels)
                label = static_cast<std::uint8_t>(1 - label);
        const std::string &zero = m_values[swap ? 1 : 0].text, &one = m_values[swap ? 0 : 1].text;
        data.classNames = {inQuotes(zero), inQuotes(one)};
        data.description = std::filesystem::path(m_path).filename().string() + ": " + std::to_string(m_rows) + " rows, "
                           + std::to_string(d) + " features, label column " + std::to_string(m_labelColumn + 1)
                           + "; label 0 = " + inQuotes(zero) + ", label 1 = " + inQuotes(one);
        return data;
    }

    std::string m_path;
    std::size_t m_fieldCount = 0;
    std::size_t m_labelColumn = 0;
    long m_firstLine = 0;
    Eigen::Index m_rows = 0;
    std::vector<float> m_features;
    std::vector<std::uint8_t> m_labels;
    std::vector<LabelValue> m_values;
};

} // namespace

ClassificationData readCsvDataset(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot open for reading");
    return parseCsvDataset(in, path);
}

ClassificationData parseCsvDataset(std::istream &in, const std::string &name)
{
    return CsvReader(name).read(in);
}

} // namespace core
