#pragma once
// The correction distribution X_corr most acceptance suites test the minibatch Barker test
// with: σ = 1, NNLS, on a 2,000-point grid, solved once per test process and shared.
#include <memory>

#include "core/correction/correction_distribution.h"

namespace teststats {

inline std::shared_ptr<const core::CorrectionDistribution> solvedCorrection()
{
    static const auto solved = [] {
        core::CorrectionParams params;
        params.grid = 2000;
        return std::make_shared<const core::CorrectionDistribution>(core::CorrectionDistribution::solve(params));
    }();
    return solved;
}

} // namespace teststats
