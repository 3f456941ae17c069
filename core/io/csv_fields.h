#pragma once
/// Splitting one line of comma-separated text into its fields, for every CSV reader (sample
/// files in core/io/samples_csv_reader, data sets in core/data/csv_dataset). The readers agree
/// on the splitting and differ only in how a field is trimmed, which each passes in.
#include <string_view>
#include <vector>

namespace core {

/// The fields of `line`, each one `trim(text between two commas)`. Every comma separates (there
/// is no quoting), so a line with k commas has k + 1 fields; an empty line has one empty field.
/// The views point into `line`. `trim` maps a std::string_view to a part of it.
template <typename Trim>
std::vector<std::string_view> splitCsvFields(std::string_view line, Trim trim)
{
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos)
            return fields;
        start = comma + 1;
    }
}

} // namespace core
