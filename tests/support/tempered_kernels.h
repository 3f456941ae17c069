#pragma once
// The approximate acceptance kernels the tempered chain suites run by name, as each suite's rows
// name them: "minibatch" (the Barker test with the solved correction, default settings),
// "austere-c" (AustereMH, ε = 0.001), "austere-nc" (AustereMH choosing each step between two
// designs: one batch of 200, ε = 0.001 or 0.05, within a bound of 0.005) and "sublhd"
// (MHSubLhd; its range from the model's bound when `modelBound`, as on control variates).
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/acceptance/austere_adaptive_test.h"
#include "core/acceptance/austere_designer.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/acceptance/sequential_tests.h"
#include "tests/support/solved_correction.h"

namespace teststats {

/// A number of each kernel's own, so that its chains get seeds no other kernel's share.
inline std::uint64_t kernelNumber(const std::string &kernel)
{
    const std::vector<std::string> kernels{"minibatch", "austere-c", "austere-nc", "sublhd"};
    return static_cast<std::uint64_t>(std::find(kernels.begin(), kernels.end(), kernel) - kernels.begin());
}

/// The kernel named `kernel` for a population of `rows` (AustereMH(nc)'s designs are for one N;
/// each population's designer runs its dynamic programs once and is kept).
inline std::unique_ptr<core::AcceptanceTest> makeTemperedKernel(const std::string &kernel, core::DataIndex rows,
                                                                bool modelBound = false)
{
    if (kernel == "minibatch")
        return std::make_unique<core::MinibatchBarkerTest>(solvedCorrection(), core::MinibatchSettings{});
    if (kernel == "austere-c") {
        core::AustereSettings settings;
        settings.epsilon = 0.001;
        return std::make_unique<core::AustereTest>(settings);
    }
    if (kernel == "austere-nc") {
        static std::map<core::DataIndex, std::shared_ptr<const core::AustereDesigner>> designers;
        auto &designer = designers[rows];
        if (!designer)
            designer = std::make_shared<const core::AustereDesigner>(rows, std::vector<std::int64_t>{200},
                                                                     std::vector<double>{0.001, 0.05});
        return std::make_unique<core::AustereAdaptiveTest>(designer, 0.005);
    }
    if (kernel == "sublhd") {
        core::SubLhdSettings settings;
        settings.useModelBound = modelBound;
        return std::make_unique<core::SubLhdTest>(settings);
    }
    throw std::invalid_argument("no tempered kernel named '" + kernel + "'");
}

} // namespace teststats
