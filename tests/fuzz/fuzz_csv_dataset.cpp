// A user's CSV classification data (core/data/csv_dataset.h): every input either parses into a
// consistent data set or is rejected with std::runtime_error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/csv_dataset.h"

// The first byte picks the reader's options, so that every path is reached: the label column
// (none, a number from the front or the back, or a name), the delimiter and dropping rows.
core::CsvReadOptions optionsFrom(std::uint8_t byte)
{
    core::CsvReadOptions options;
    static const char *const kColumns[] = {"", "1", "2", "-1", "-2", "label", "b", "0"};
    options.labelColumn = kColumns[byte & 7u];
    static const char kDelimiters[] = {0, ',', ';', '\t'};
    options.delimiter = kDelimiters[(byte >> 3) & 3u];
    options.dropMissing = (byte >> 5) & 1u;
    return options;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const core::CsvReadOptions options = optionsFrom(data[0]);
    std::istringstream in(std::string(reinterpret_cast<const char *>(data + 1), size - 1), std::ios::binary);
    try {
        std::vector<core::CsvColumnSummary> columns;
        const core::ClassificationData parsed = core::parseCsvDataset(in, "fuzz.csv", options, &columns);
        // The feature names, when there are any, are one per feature column.
        if (!parsed.featureNames.empty() && parsed.featureNames.size() != static_cast<std::size_t>(parsed.featureCount()))
            std::abort();
        if (columns.size() != static_cast<std::size_t>(parsed.featureCount()) + 1)
            std::abort();
        // What the reader promises: rows and labels agree, labels are 0/1, features finite.
        if (parsed.features.rows() != static_cast<Eigen::Index>(parsed.labels.size()) || parsed.features.cols() < 1)
            std::abort();
        for (const auto label : parsed.labels)
            if (label > 1)
                std::abort();
        if (!parsed.features.allFinite())
            std::abort();
    } catch (const std::runtime_error &) {
    }
    return 0;
}
