#include "core/correction/alias_table.h"

#include <cmath>
#include <stdexcept>

#include "core/validation/range_checks.h"

namespace core {

AliasTable::AliasTable(const std::vector<double> &weights)
{
    const std::size_t n = weights.size();
    if (n == 0)
        throw std::invalid_argument("weights must not be empty");
    const long double total = requireNonNegativeSum("weights", weights);
    if (!(total > 0.0L))
        throw std::invalid_argument("weights must not all be zero");

    // Scaled so that the average cell holds exactly 1.
    std::vector<double> scaled(n);
    for (std::size_t i = 0; i < n; ++i)
        scaled[i] = static_cast<double>(static_cast<long double>(weights[i]) * n / total);

    m_cells.assign(n, Cell{});
    std::vector<std::size_t> small, large;
    small.reserve(n);
    large.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        (scaled[i] < 1.0 ? small : large).push_back(i);
    while (!small.empty() && !large.empty()) {
        const std::size_t s = small.back();
        small.pop_back();
        const std::size_t l = large.back();
        m_cells[s] = Cell{scaled[s], l};
        // Vose: subtract in the order that keeps the rounding error in the large cell.
        scaled[l] = (scaled[l] + scaled[s]) - 1.0;
        if (scaled[l] < 1.0) {
            large.pop_back();
            small.push_back(l);
        }
    }
    // Whatever is left over is 1 up to rounding: keep it whole, so no index is lost.
    for (const std::size_t i : large)
        m_cells[i] = Cell{1.0, i};
    std::size_t heaviest = 0;
    for (std::size_t i = 1; i < n; ++i)
        if (weights[i] > weights[heaviest])
            heaviest = i;
    for (const std::size_t i : small)
        m_cells[i] = weights[i] > 0.0 ? Cell{1.0, i} : Cell{0.0, heaviest};
}

double AliasTable::probability(std::size_t index) const
{
    const double n = static_cast<double>(m_cells.size());
    long double p = 0.0L;
    for (std::size_t i = 0; i < m_cells.size(); ++i) {
        if (i == index)
            p += m_cells[i].keep;
        if (m_cells[i].alias == index && m_cells[i].keep < 1.0)
            p += 1.0 - m_cells[i].keep;
    }
    return static_cast<double>(p / n);
}

} // namespace core
