// LIBSVM/svmlight classification data (core/data/libsvm_dataset.h): every input either parses
// into a consistent data set or is rejected with std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/data/libsvm_dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    std::istringstream in(text, std::ios::binary);
    try {
        const core::ClassificationData parsed = core::parseLibsvmDataset(in, "fuzz.svm");
        if (parsed.features.rows() != static_cast<Eigen::Index>(parsed.labels.size()) || parsed.features.cols() < 1
            || parsed.features.cols() > core::kLibsvmMaxFeatures || !parsed.features.allFinite())
            std::abort();
        for (const auto label : parsed.labels)
            if (label > 1)
                std::abort();
    } catch (const std::runtime_error &) {
    }
    // The format check never throws and agrees with a successful parse of a one-line file.
    core::looksLikeLibsvmLine(text);
    return 0;
}
