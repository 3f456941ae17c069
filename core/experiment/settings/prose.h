#pragma once
/// Lists in messages and help: "a, b or c".
#include <string>
#include <string_view>
#include <vector>

namespace core {

/// The items joined with ", " and `conjunction` before the last: "gmm, logreg or tall-logreg".
std::string joinAsProse(const std::vector<std::string_view> &items, std::string_view conjunction = "or");

/// The `name` of every row of a registry table that `which` keeps (every row without it), as
/// prose.
template <typename Row>
std::string joinNamesAsProse(const std::vector<Row> &table, std::string_view conjunction, bool (*which)(const Row &))
{
    std::vector<std::string_view> names;
    for (const Row &row : table)
        if (!which || which(row))
            names.push_back(row.name);
    return joinAsProse(names, conjunction);
}

} // namespace core
