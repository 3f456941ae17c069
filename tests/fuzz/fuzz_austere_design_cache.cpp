// AustereMH design cache files (core/acceptance/austere_design_cache.h). The population size the
// parser checks against is the one the input's sizes line names when it is small (the seed uses
// N = 50), so that mutations get past that check.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/acceptance/austere_design_cache.h"

namespace {

constexpr std::int64_t kDefaultPopulation = 50, kLargestPopulation = 1000;

std::int64_t populationNamed(const std::string &text)
{
    const std::size_t at = text.find("\nN ");
    if (at == std::string::npos)
        return kDefaultPopulation;
    const long long n = std::strtoll(text.c_str() + at + 3, nullptr, 10);
    return n >= 2 && n <= kLargestPopulation ? n : kDefaultPopulation;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    std::istringstream in(text);
    try {
        const core::AustereDesigner designer = core::parseAustereDesignCacheFile(in, populationNamed(text), "fuzz-design.txt");
        // A grid that loads must answer design questions with probabilities.
        for (const auto &table : designer.tables()) {
            const double error = table.acceptanceError(0.3, 1.5, 0.0);
            const double fraction = table.expectedDataFraction(-0.2, 0.7, 0.1);
            if (!std::isfinite(error) || !(fraction >= 0.0 && fraction <= 1.0))
                std::abort();
        }
    } catch (const std::runtime_error &) {
    }
    return 0;
}
