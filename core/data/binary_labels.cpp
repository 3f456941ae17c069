#include "core/data/binary_labels.h"

#include <cmath>
#include <stdexcept>

#include "core/data/delimited_text.h"
#include "core/io/number_format.h"

namespace core {
namespace {

std::string shown(double value)
{
    return inQuotes(formatRoundTrip(value));
}

} // namespace

void BinaryLabelCoder::add(double value, const std::string &where)
{
    if (!std::isfinite(value))
        throw std::runtime_error(m_path + ": " + where + ": label " + shown(value) + " is not a finite number");
    for (std::size_t k = 0; k < m_values.size(); ++k)
        if (m_values[k] == value) {
            if (m_keepRows)
                m_index.push_back(static_cast<std::uint8_t>(k));
            return;
        }
    if (m_values.size() == 2)
        throw std::runtime_error(m_path + ": " + where + ": a third label value " + shown(value) + " (" + m_seenAt[0]
                                 + " has " + shown(m_values[0]) + ", " + m_seenAt[1] + " has " + shown(m_values[1])
                                 + "); binary classification needs exactly two label values");
    m_values.push_back(value);
    m_seenAt.push_back(where);
    if (m_keepRows)
        m_index.push_back(static_cast<std::uint8_t>(m_values.size() - 1));
}

void BinaryLabelCoder::requireTwoValues() const
{
    if (m_values.size() < 2)
        throw std::runtime_error(m_path + ": "
                                 + (m_values.empty() ? std::string("no labels")
                                                     : "every row has the label " + shown(m_values[0]))
                                 + "; binary classification needs exactly two label values");
}

std::uint8_t BinaryLabelCoder::label(double value) const
{
    requireTwoValues();
    const bool swap = m_values[1] < m_values[0];
    if (value == m_values[0] || value == m_values[1])
        return static_cast<std::uint8_t>((value == m_values[1]) != swap);
    throw std::invalid_argument(m_path + ": label " + shown(value) + " was not among the two values seen");
}

std::vector<std::uint8_t> BinaryLabelCoder::takeLabels()
{
    requireTwoValues();
    if (m_values[1] < m_values[0])
        for (std::uint8_t &index : m_index)
            index ^= 1;
    return std::exchange(m_index, {});
}

std::pair<std::string, std::string> BinaryLabelCoder::classNames() const
{
    const bool swap = m_values.size() == 2 && m_values[1] < m_values[0];
    return {shown(m_values[swap ? 1 : 0]), shown(m_values[swap ? 0 : 1])};
}

} // namespace core
