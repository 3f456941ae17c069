#pragma once
/// Two numeric label values → labels 0 and 1, for the formats whose labels are numbers (LIBSVM's
/// ±1 or 0/1, a NumPy label array): the smaller value becomes 0, as for a CSV file
/// (csv_dataset.h), and a third value is an error that names where the first two were seen.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace core {

class BinaryLabelCoder {
public:
    /// `where` names the record in errors ("line 12", "element 7").
    /// `keepRows` false: only the two values are kept, not a label per row (a file converted by
    /// a stream, whose rows are coded with label() on a second pass).
    explicit BinaryLabelCoder(std::string path, bool keepRows = true) : m_path(std::move(path)), m_keepRows(keepRows) {}

    /// Records the label of the next row. Throws std::runtime_error for a non-finite value or a
    /// third distinct value.
    void add(double value, const std::string &where);
    /// The same with the record named only when a message needs it: `where()` is called for a
    /// new or wrong value alone, so a file of 10⁸ rows builds no 10⁸ strings.
    template <typename Where>
    void addLazily(double value, Where where)
    {
        if (std::isfinite(value))
            for (std::size_t k = 0; k < m_values.size(); ++k)
                if (m_values[k] == value) {
                    if (m_keepRows)
                        m_index.push_back(static_cast<std::uint8_t>(k));
                    return;
                }
        add(value, std::string(where()));
    }
    /// Rows to come, so that the per-row index is allocated once.
    void reserve(std::size_t rows) { m_index.reserve(rows); }
    /// Throws std::runtime_error unless two values were seen.
    void requireTwoValues() const;
    /// The labels in row order, 0 for the smaller value, made in place of the per-row record,
    /// which it empties: one byte a row at the peak instead of two (2.2 GB, not 4.4, for an array
    /// of 2.2·10⁹ rows). Throws std::runtime_error when only one value was seen.
    std::vector<std::uint8_t> takeLabels();
    /// The label (0 for the smaller value) of a value seen before; throws std::runtime_error when
    /// fewer than two values were seen, and std::invalid_argument for a value never seen.
    std::uint8_t label(double value) const;
    /// The two values as written ("'-1'", "'1'"), smaller first.
    std::pair<std::string, std::string> classNames() const;

private:
    std::string m_path;
    bool m_keepRows = true;
    std::vector<double> m_values;       // at most two
    std::vector<std::string> m_seenAt;  // where each was first seen
    std::vector<std::uint8_t> m_index;  // per row, the index into m_values
};

} // namespace core
