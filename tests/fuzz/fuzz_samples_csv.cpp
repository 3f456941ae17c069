// A samples CSV given to `diagnose` (core/io/samples_csv_reader.h): every input either parses
// into a rectangular table whose columns are named and unique, or is rejected with
// SamplesCsvError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>

#include "core/io/samples_csv_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        const core::SamplesTable table =
            core::parseSamplesCsv(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz.csv");
        if (table.columns.empty() || table.values.size() != table.columns.size() || table.draws() == 0)
            std::abort();
        std::set<std::string_view> names;
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (table.columns[c].empty() || !names.insert(table.columns[c]).second)
                std::abort();
            if (table.values[c].size() != table.draws())
                std::abort();
        }
    } catch (const core::SamplesCsvError &) {
    }
    return 0;
}
