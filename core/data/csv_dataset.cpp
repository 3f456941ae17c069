#include "core/data/csv_dataset.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <istream>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/data/byte_source.h"
#include "core/data/delimited_text.h"
#include "core/data/regression_data.h"
#include "core/data/response_column.h"

namespace core {
namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

bool isNumber(std::string_view field)
{
    double value = 0.0;
    return parseFieldNumber(field, value) != NumberStatus::NotANumber;
}

// One distinct value of a column, up to the third: the label's candidates.
struct DistinctValue {
    std::string text;
    std::optional<double> number;
    long line = 0;
};

struct ColumnState {
    std::vector<DistinctValue> distinct; // at most 3
    long firstTextLine = 0;              // 0: no text field so far
    std::string firstText;
};

class CsvReader {
public:
    CsvReader(const std::string &path, const CsvReadOptions &options, CsvRowBlockSink sink = {})
        : m_path(path), m_options(options), m_sink(std::move(sink))
    {
    }
    /// A regression's table: the chosen column is a numeric response, each value checked by
    /// `response`'s rule on its own line, instead of a label with two values.
    CsvReader(const std::string &path, const CsvReadOptions &options, ResponseColumn &response)
        : m_path(path), m_options(options), m_response(&response), m_role("response")
    {
    }

    GlmData readRegression(std::istream &in, std::vector<CsvColumnSummary> *summaries)
    {
        readLines(in);
        if (summaries)
            *summaries = columnSummaries();
        requireRows();
        const std::size_t column = responseColumn();
        requireNumericFeatures(column);
        GlmData data;
        const auto d = static_cast<Eigen::Index>(m_fieldCount - 1);
        data.features.resize(m_rows, d);
        for (Eigen::Index r = 0; r < m_rows; ++r) {
            const double *cells = m_cells.data() + static_cast<std::size_t>(r) * m_fieldCount;
            Eigen::Index j = 0;
            for (std::size_t k = 0; k < m_fieldCount; ++k)
                if (k != column)
                    data.features(r, j++) = static_cast<float>(cells[k]);
        }
        data.response = m_response->take();
        for (std::size_t k = 0; k < m_names.size(); ++k)
            if (k != column)
                data.featureNames.push_back(m_names[k]);
        data.description = std::filesystem::path(m_path).filename().string() + ": " + std::to_string(m_rows)
                           + " rows, " + std::to_string(m_fieldCount - 1) + " features, response "
                           + columnLabel(column) + tableNotes();
        return data;
    }

    ClassificationData read(std::istream &in, std::vector<CsvColumnSummary> *summaries)
    {
        readLines(in);
        if (summaries)
            *summaries = columnSummaries();
        return finish();
    }

    // Every line, checked as read() checks it. With a sink, the parsed rows go to it in blocks
    // and none is kept, so a file of any size takes the memory of one block.
    void readLines(std::istream &in)
    {
        std::string line;
        long lineNumber = 0;
        while (std::getline(in, line)) {
            ++lineNumber;
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            const std::string_view text = trimmed(line);
            if (text.empty() || text.front() == '#')
                continue;
            if (m_delimiter == 0)
                m_delimiter = m_options.delimiter != 0 ? m_options.delimiter : detectDelimiter(text);
            if (!splitDelimitedLine(line, m_delimiter, m_fields))
                fail(lineNumber, "a double quote is never closed on this line");
            handleLine(lineNumber);
            if (m_sink && m_cells.size() >= kBlockCells)
                handOver();
        }
        if (in.bad())
            throw std::runtime_error(m_path + ": read error");
        if (m_pendingLine != 0)
            decideHeader(nullptr);
        if (m_sink)
            handOver();
    }

    // The label column and its coding, after the checks finish() makes: the label column holds
    // exactly two values and every other column numbers only.
    CsvLabelCoding labelCoding() const
    {
        requireRows();
        CsvLabelCoding coding;
        coding.column = labelColumn();
        checkLabelColumn(coding.column);
        requireNumericFeatures(coding.column);
        const std::vector<DistinctValue> &values = m_columns[coding.column].distinct;
        coding.secondNumber = values[1].number;
        const bool bothNumbers = values[0].number && values[1].number;
        coding.swap = bothNumbers ? *values[1].number < *values[0].number : values[1].text < values[0].text;
        coding.fields = m_fieldCount;
        coding.rows = m_rows;
        coding.dropped = m_dropped;
        coding.zero = values[coding.swap ? 1 : 0].text;
        coding.one = values[coding.swap ? 0 : 1].text;
        for (std::size_t k = 0; k < m_names.size(); ++k)
            if (k != coding.column)
                coding.featureNames.push_back(m_names[k]);
        coding.description = std::filesystem::path(m_path).filename().string() + ": " + std::to_string(m_rows)
                             + " rows, " + std::to_string(m_fieldCount - 1) + " features, label "
                             + columnLabel(coding.column) + "; label 0 = " + inQuotes(coding.zero) + ", label 1 = "
                             + inQuotes(coding.one) + tableNotes();
        return coding;
    }

private:
    void requireRows() const
    {
        if (m_rows == 0)
            failFile(m_dropped > 0 ? "no data rows: every one of the " + std::to_string(m_dropped)
                                         + " rows has a missing value"
                                   : std::string("no data rows"));
    }

    // Every column but the label's (or the response's) holds numbers only.
    void requireNumericFeatures(std::size_t label) const
    {
        for (std::size_t k = 0; k < m_fieldCount; ++k)
            if (k != label && m_columns[k].firstTextLine != 0)
                fail(m_columns[k].firstTextLine,
                     columnLabel(k) + ": non-numeric field " + inQuotes(m_columns[k].firstText)
                         + (!m_response && m_columns[k].distinct.size() == 2 && m_options.labelColumn.empty()
                                    && std::none_of(m_columns[k].distinct.begin(), m_columns[k].distinct.end(),
                                                    [](const DistinctValue &v) { return v.number.has_value(); })
                                ? " (if this column is the label, say so with --label-column " + std::to_string(k + 1) + ")"
                                : std::string()));
    }

    // "; fields separated by tab; 3 rows with a missing value dropped (the first on line 9)".
    std::string tableNotes() const
    {
        std::string notes;
        if (m_delimiter != ',')
            notes += "; fields separated by " + delimiterName(m_delimiter);
        if (m_dropped > 0)
            notes += "; " + std::to_string(m_dropped) + " rows with a missing value dropped (the first on line "
                     + std::to_string(m_firstDroppedLine) + ")";
        return notes;
    }

    // The response's column, found (and checked to exist) once the header is known.
    std::size_t responseColumn() const
    {
        if (!m_responseIndex)
            m_responseIndex = labelColumn();
        return *m_responseIndex;
    }

    [[noreturn]] void fail(long line, const std::string &what) const
    {
        throw std::runtime_error(m_path + ": line " + std::to_string(line) + ": " + what);
    }
    [[noreturn]] void failFile(const std::string &what) const { throw std::runtime_error(m_path + ": " + what); }

    std::string columnName(std::size_t k) const
    {
        return m_names.empty() ? "column " + std::to_string(k + 1) : m_names[k];
    }
    // "column 3 ('Glucose')" with a header, "column 3" without.
    std::string columnLabel(std::size_t k) const
    {
        return "column " + std::to_string(k + 1) + (m_names.empty() ? "" : " (" + inQuotes(m_names[k]) + ")");
    }

    void handleLine(long line)
    {
        if (m_fieldCount == 0) {
            m_fieldCount = m_fields.size();
            if (m_fieldCount < 2)
                fail(line, "only one field; need a label column and at least one feature column (the fields "
                           "are separated by " + delimiterName(m_delimiter) + "; --delimiter names another)");
            m_columns.resize(m_fieldCount);
            // Whether this line is a header can only be told from the next one.
            m_pending = m_fields;
            m_pendingLine = line;
            return;
        }
        if (m_pendingLine != 0)
            decideHeader(&m_fields);
        addRow(m_fields, line);
    }

    // A header names columns that hold numbers below it: a field that is text here and a
    // number on the next line. A column of words (a text label) is text on both.
    void decideHeader(const std::vector<std::string> *next)
    {
        bool header = std::any_of(m_pending.begin(), m_pending.end(),
                                  [](const std::string &f) { return equalsIgnoreCase(f, "label"); });
        for (std::size_t k = 0; k < m_pending.size() && !header; ++k) {
            const bool text = !isNumber(m_pending[k]) && !isMissingField(m_pending[k]);
            header = text && (next ? k < next->size() && isNumber((*next)[k]) : true);
        }
        const long line = m_pendingLine;
        m_pendingLine = 0;
        if (header) {
            m_names = m_pending;
            for (std::size_t k = 0; k < m_names.size(); ++k)
                if (m_names[k].empty())
                    m_names[k] = "column " + std::to_string(k + 1);
        } else {
            addRow(m_pending, line);
        }
    }

    void addRow(const std::vector<std::string> &fields, long line)
    {
        if (fields.size() != m_fieldCount)
            fail(line, "ragged row: " + std::to_string(fields.size()) + " fields, but the first line has "
                           + std::to_string(m_fieldCount));
        for (std::size_t k = 0; k < fields.size(); ++k)
            if (isMissingField(fields[k])) {
                if (m_options.dropMissing) {
                    if (m_dropped++ == 0)
                        m_firstDroppedLine = line;
                    return;
                }
                fail(line, columnLabel(k) + ": missing value " + inQuotes(fields[k])
                               + "; fill it in, or give --drop-missing to leave out the rows that have one");
            }
        for (std::size_t k = 0; k < fields.size(); ++k) {
            const std::string &field = fields[k];
            ColumnState &column = m_columns[k];
            double value = 0.0;
            const NumberStatus status = parseFieldNumber(field, value);
            if (status == NumberStatus::OutOfRange)
                fail(line, columnLabel(k) + ": value " + inQuotes(field) + " is out of range");
            if (status == NumberStatus::Ok && !std::isfinite(value))
                fail(line, columnLabel(k) + ": infinite value " + inQuotes(field) + "; features must be finite");
            if (status == NumberStatus::Ok && std::abs(value) > static_cast<double>(std::numeric_limits<float>::max()))
                fail(line, columnLabel(k) + ": value " + inQuotes(field) + " exceeds the single-precision range used for features");
            const bool text = status == NumberStatus::NotANumber;
            if (m_response && k == responseColumn()) {
                if (text)
                    fail(line, columnLabel(k) + ": the response " + inQuotes(field)
                                   + " is not a number; a regression's response column holds numbers (--response-column "
                                     "names another)");
                m_response->addLazily(value, [&] { return "line " + std::to_string(line) + ", " + columnLabel(k); });
            }
            if (text && column.firstTextLine == 0) {
                column.firstTextLine = line;
                column.firstText = field;
            }
            const std::size_t index = distinctIndex(column, field, text ? std::nullopt : std::optional<double>(value), line);
            m_cells.push_back(text ? static_cast<double>(index) : value);
            m_textCells.push_back(text);
        }
        ++m_rows;
    }

    static std::size_t distinctIndex(ColumnState &column, const std::string &field, std::optional<double> number,
                                     long line)
    {
        for (std::size_t k = 0; k < column.distinct.size(); ++k) {
            const DistinctValue &seen = column.distinct[k];
            if ((number && seen.number) ? *number == *seen.number : (!number && !seen.number && field == seen.text))
                return k;
        }
        if (column.distinct.size() < 3)
            column.distinct.push_back({field, number, line});
        return column.distinct.size() - 1; // the third and later values all read as "the third"
    }

    std::vector<CsvColumnSummary> columnSummaries() const
    {
        std::vector<CsvColumnSummary> summaries(m_fieldCount);
        for (std::size_t k = 0; k < m_fieldCount; ++k) {
            summaries[k].name = columnName(k);
            for (const DistinctValue &value : m_columns[k].distinct)
                summaries[k].values.push_back(value.text);
            summaries[k].numeric = m_columns[k].firstTextLine == 0;
        }
        return summaries;
    }

    // "9 ('Outcome'), 12 ('smoker')", or "none".
    std::string binaryColumns() const
    {
        std::string list;
        for (std::size_t k = 0; k < m_fieldCount; ++k)
            if (m_columns[k].distinct.size() == 2)
                list += (list.empty() ? "" : ", ") + std::to_string(k + 1)
                        + (m_names.empty() ? "" : " (" + inQuotes(m_names[k]) + ")");
        return list.empty() ? "none" : list;
    }

    std::size_t labelColumn() const
    {
        const std::string &wanted = m_options.labelColumn;
        const auto count = static_cast<long long>(m_fieldCount);
        if (wanted.empty()) {
            static constexpr std::string_view kResponseNames[] = {"response", "y"};
            static constexpr std::string_view kLabelNames[] = {"label"};
            for (const std::string_view name : m_response ? std::span<const std::string_view>(kResponseNames)
                                                          : std::span<const std::string_view>(kLabelNames))
                for (std::size_t k = 0; k < m_names.size(); ++k)
                    if (equalsIgnoreCase(m_names[k], name))
                        return k;
            return 0;
        }
        long long number = 0;
        const auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), number);
        if (error == std::errc() && end == wanted.data() + wanted.size()) {
            if (number == 0 || number > count || number < -count)
                failFile(m_role + " column " + wanted + " does not exist: the file has " + std::to_string(count)
                         + " columns, numbered 1 to " + std::to_string(count) + " (or -1 for the last)");
            return static_cast<std::size_t>(number > 0 ? number - 1 : count + number);
        }
        if (m_names.empty())
            failFile(m_role + " column " + inQuotes(wanted) + ": the file has no header row to find it in; give the "
                     "column's number instead (1 = first, -1 = last)");
        for (std::size_t k = 0; k < m_names.size(); ++k)
            if (m_names[k] == wanted)
                return k;
        std::optional<std::size_t> found;
        for (std::size_t k = 0; k < m_names.size(); ++k)
            if (equalsIgnoreCase(m_names[k], wanted)) {
                if (found)
                    failFile(m_role + " column " + inQuotes(wanted) + " matches " + inQuotes(m_names[*found]) + " and "
                             + inQuotes(m_names[k]) + " up to case; give the exact name");
                found = k;
            }
        if (found)
            return *found;
        std::string names;
        for (const std::string &name : m_names)
            names += (names.empty() ? "" : ", ") + inQuotes(name);
        failFile("no column is named " + inQuotes(wanted) + "; the header has " + names);
    }

    void checkLabelColumn(std::size_t label) const
    {
        const std::vector<DistinctValue> &values = m_columns[label].distinct;
        const std::string remedy = "; binary classification needs exactly two label values. Columns with two values: "
                                   + binaryColumns() + "; choose the label column (--label-column NAME or NUMBER, "
                                   "1 = first and -1 = last; in the app, the Label column box)";
        if (values.size() == 3)
            fail(values[2].line, "a third label value " + inQuotes(values[2].text) + " (line "
                                     + std::to_string(values[0].line) + " has " + inQuotes(values[0].text) + ", line "
                                     + std::to_string(values[1].line) + " has " + inQuotes(values[1].text)
                                     + ") in the label " + columnLabel(label) + remedy);
        if (values.size() == 1)
            failFile("every row has the label " + inQuotes(values[0].text) + " in the label " + columnLabel(label) + remedy);
    }

    ClassificationData finish()
    {
        const CsvLabelCoding coding = labelCoding();
        ClassificationData data;
        const auto d = static_cast<Eigen::Index>(m_fieldCount - 1);
        data.features.resize(m_rows, d);
        data.labels.resize(static_cast<std::size_t>(m_rows));
        for (Eigen::Index r = 0; r < m_rows; ++r) {
            const std::size_t base = static_cast<std::size_t>(r) * m_fieldCount;
            data.labels[static_cast<std::size_t>(r)] =
                coding.row(m_cells.data() + base, m_textCells.data() + base, data.features.row(r).data());
        }
        data.featureNames = coding.featureNames;
        data.classNames = {inQuotes(coding.zero), inQuotes(coding.one)};
        data.description = coding.description;
        return data;
    }

    std::string m_path;
    CsvReadOptions m_options;
    ResponseColumn *m_response = nullptr; // set for a regression's table
    std::string m_role = "label";         // what the chosen column is, in messages
    mutable std::optional<std::size_t> m_responseIndex;
    char m_delimiter = 0;
    std::vector<std::string> m_fields;
    std::vector<std::string> m_pending; // the first line, until the second tells if it is a header
    long m_pendingLine = 0;
    std::vector<std::string> m_names;   // header names; empty without a header
    std::size_t m_fieldCount = 0;
    std::vector<ColumnState> m_columns;
    Eigen::Index m_rows = 0;
    void handOver()
    {
        if (!m_cells.empty())
            m_sink(m_cells, m_textCells);
        m_cells.clear();
        m_textCells.clear();
    }

    static constexpr std::size_t kBlockCells = std::size_t{1} << 16;

    CsvRowBlockSink m_sink;
    std::vector<double> m_cells;        // row-major, every column (with a sink: this block's)
    std::vector<std::uint8_t> m_textCells;
    long long m_dropped = 0;
    long m_firstDroppedLine = 0;
};

} // namespace

std::uint8_t CsvLabelCoding::row(const double *cells, const std::uint8_t *text, float *features) const
{
    std::uint8_t label = 0;
    std::size_t j = 0;
    for (std::size_t k = 0; k < fields; ++k) {
        const double cell = cells[k];
        if (k != column) {
            features[j++] = static_cast<float>(cell);
            continue;
        }
        // A text cell holds its distinct index; a number is found among the two values.
        const bool second = text[k] ? cell == 1.0 : (secondNumber && cell == *secondNumber);
        label = static_cast<std::uint8_t>(second != swap);
    }
    return label;
}

void scanCsvRows(std::istream &in, const std::string &name, const CsvReadOptions &options, const CsvRowBlockSink &sink,
                 CsvLabelCoding *coding)
{
    CsvReader reader(name, options, sink ? sink : CsvRowBlockSink([](const auto &, const auto &) {}));
    reader.readLines(in);
    if (coding)
        *coding = reader.labelCoding();
}

ClassificationData readCsvDataset(const std::string &path, const CsvReadOptions &options,
                                  std::vector<CsvColumnSummary> *columns)
{
    // Inflates a gzipped table on the fly.
    return readTextFile(path, [&](std::istream &in) { return parseCsvDataset(in, path, options, columns); });
}

ClassificationData parseCsvDataset(std::istream &in, const std::string &name, const CsvReadOptions &options,
                                   std::vector<CsvColumnSummary> *columns)
{
    return CsvReader(name, options).read(in, columns);
}

GlmData parseCsvRegression(std::istream &in, const std::string &name, const CsvReadOptions &options,
                           ResponseColumn &response, std::vector<CsvColumnSummary> *columns)
{
    return CsvReader(name, options, response).readRegression(in, columns);
}

} // namespace core
