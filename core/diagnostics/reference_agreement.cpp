#include "core/diagnostics/reference_agreement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace core {
namespace {

// A shift measured against a spread of 0: none when nothing moved, otherwise infinite.
double ratio(double difference, double scale)
{
    if (scale > 0.0)
        return difference / scale;
    return difference == 0.0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), difference);
}

double median(std::vector<double> values)
{
    const std::size_t half = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
    const double upper = values[half];
    if (values.size() % 2 == 1)
        return upper;
    return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half)));
}

} // namespace

ParameterAgreement compareWithReference(const ParameterSummary &run, const ParameterSummary &reference)
{
    ParameterAgreement agreement;
    const double shift = run.mean - reference.mean;
    agreement.meanShiftInSd = ratio(shift, reference.sd);
    agreement.meanShiftInMcse = ratio(shift, std::hypot(run.mcseMean, reference.mcseMean));
    agreement.sdRatio = reference.sd > 0.0 ? run.sd / reference.sd : (run.sd == 0.0 ? 1.0 : std::numeric_limits<double>::infinity());
    return agreement;
}

AgreementSummary summarizeAgreement(const std::vector<ParameterAgreement> &parameters, double shiftTolerance,
                                    double sdRatioTolerance)
{
    if (parameters.empty())
        throw std::invalid_argument("no parameters to compare with the reference");
    AgreementSummary summary;
    summary.parameters = parameters.size();
    summary.shiftTolerance = shiftTolerance;
    summary.sdRatioTolerance = sdRatioTolerance;
    std::vector<double> shifts, ratios;
    shifts.reserve(parameters.size());
    ratios.reserve(parameters.size());
    summary.minSdRatio = summary.maxSdRatio = parameters.front().sdRatio;
    double worstLogRatio = -1.0;
    for (std::size_t k = 0; k < parameters.size(); ++k) {
        const ParameterAgreement &p = parameters[k];
        const double shift = std::abs(p.meanShiftInSd);
        shifts.push_back(shift);
        ratios.push_back(p.sdRatio);
        if (shift > summary.maxAbsShift || k == 0) {
            summary.maxAbsShift = shift;
            summary.worstShift = k;
        }
        summary.minSdRatio = std::min(summary.minSdRatio, p.sdRatio);
        summary.maxSdRatio = std::max(summary.maxSdRatio, p.sdRatio);
        const double logRatio = std::abs(std::log(p.sdRatio));
        if (logRatio > worstLogRatio) {
            worstLogRatio = logRatio;
            summary.worstSdRatio = k;
        }
        summary.withinShift += shift <= shiftTolerance ? 1 : 0;
        summary.withinSdRatio += std::abs(p.sdRatio - 1.0) <= sdRatioTolerance ? 1 : 0;
        summary.beyondThreeMcse += std::abs(p.meanShiftInMcse) > 3.0 ? 1 : 0;
    }
    summary.medianAbsShift = median(shifts);
    summary.medianSdRatio = median(ratios);
    return summary;
}

} // namespace core
