#pragma once
/// How a run's posterior agrees with a reference sample of the same posterior (a long chain of
/// the exact, full-data kernel, say), parameter by parameter: the mean's shift in reference
/// standard deviations and in Monte Carlo standard errors, and the ratio of the standard
/// deviations. An approximate acceptance test (Seita et al., "Minibatch Acceptance Test", Sec. 3)
/// or a proposal that mixes too slowly shows as shifted means or shrunken sds; Monte Carlo error
/// alone keeps |shift| / MCSE below 3 for all but about 0.3 % of the parameters.
#include <cstddef>
#include <vector>

#include "core/diagnostics/posterior_summary.h"

namespace core {

struct ParameterAgreement {
    double meanShiftInSd = 0.0;   ///< (mean − mean_ref) / sd_ref
    double meanShiftInMcse = 0.0; ///< (mean − mean_ref) / √(MCSE² + MCSE_ref²)
    double sdRatio = 1.0;         ///< sd / sd_ref
};

/// A reference sd of 0 (a constant parameter) gives an infinite shift and ratio unless the
/// run's parameter is the same constant.
ParameterAgreement compareWithReference(const ParameterSummary &run, const ParameterSummary &reference);

struct AgreementSummary {
    std::size_t parameters = 0;
    double shiftTolerance = 0.2;        ///< |mean shift| in reference sds counted as agreeing
    double sdRatioTolerance = 0.1;      ///< |sd ratio − 1| counted as agreeing
    double medianAbsShift = 0.0, maxAbsShift = 0.0;
    std::size_t worstShift = 0;         ///< index of the largest |shift|
    std::size_t withinShift = 0;
    double medianSdRatio = 1.0, minSdRatio = 1.0, maxSdRatio = 1.0;
    std::size_t worstSdRatio = 0;       ///< index of the ratio farthest from 1 (in log scale)
    std::size_t withinSdRatio = 0;
    std::size_t beyondThreeMcse = 0;    ///< |shift| above 3 Monte Carlo standard errors
};

/// The median and worst of `parameters` (at least one; throws std::invalid_argument otherwise).
AgreementSummary summarizeAgreement(const std::vector<ParameterAgreement> &parameters, double shiftTolerance = 0.2,
                                    double sdRatioTolerance = 0.1);

} // namespace core
