#include "ui/charts/correction_plot.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/correction/correction_cache.h"

namespace ui {
namespace {

constexpr int kDensityPoints = 801;
constexpr int kErrorPoints = 1601;

double logisticDensity(double x)
{
    const double e = std::exp(-std::abs(x));
    return e / ((1.0 + e) * (1.0 + e));
}

double normalDensity(double x, double sigma)
{
    return std::exp(-0.5 * (x / sigma) * (x / sigma)) / (sigma * std::sqrt(2.0 * std::numbers::pi));
}

} // namespace

CorrectionPlot correctionPlotOf(const core::CorrectionDistribution &table, bool fromCache)
{
    CorrectionPlot plot;
    plot.params = table.params();
    plot.linf = table.linfError();
    plot.solveGridLinf = table.solveGridLinfError();
    plot.variance = table.variance();
    plot.solveSeconds = table.solveSeconds();
    plot.fromCache = fromCache;
    plot.solverConverged = table.solverConverged();
    plot.atoms = table.positiveAtoms();
    const double sigma = plot.params.sigma;
    const auto &support = table.support();
    const auto &masses = table.masses();

    // Only the positive atoms matter for the convolution; NNLS has about fifty.
    std::vector<std::pair<double, double>> atoms;
    for (std::size_t j = 0; j < support.size(); ++j)
        if (masses[j] > 0.0)
            atoms.emplace_back(support[j], masses[j]);

    const double step = 2.0 * kCorrectionPlotRange / (kDensityPoints - 1);
    for (int k = 0; k < kDensityPoints; ++k) {
        const double x = -kCorrectionPlotRange + k * step;
        plot.logistic.append(QPointF(x, logisticDensity(x)));
        plot.gaussian.append(QPointF(x, normalDensity(x, sigma)));
        double density = 0.0;
        for (const auto &[y, mass] : atoms)
            if (std::abs(x - y) < 10.0 * sigma)
                density += mass * normalDensity(x - y, sigma);
        plot.convolved.append(QPointF(x, density));
    }

    plot.sparse = atoms.size() <= kMaxStemAtoms;
    if (plot.sparse) {
        for (const auto &[y, mass] : atoms) {
            if (std::abs(y) > kCorrectionPlotRange)
                continue;
            // Down-up-down per atom: one series draws every stem, and the flat parts lie on
            // the x axis.
            plot.correction.append(QPointF(y, 0.0));
            plot.correction.append(QPointF(y, mass));
            plot.correction.append(QPointF(y, 0.0));
            plot.correctionMax = std::max(plot.correctionMax, mass);
        }
    } else {
        const double h = table.spacing();
        for (std::size_t j = 0; j < support.size(); ++j) {
            if (std::abs(support[j]) > kCorrectionPlotRange)
                continue;
            plot.correction.append(QPointF(support[j], masses[j] / h));
            plot.correctionMax = std::max(plot.correctionMax, masses[j] / h);
        }
    }

    plot.errorTop = std::pow(10.0, std::ceil(std::log10(std::max(plot.linf, 1e-300) * 1.5)));
    plot.errorFloor = plot.errorTop * 1e-5;
    const double errorStep = 2.0 * kCorrectionPlotRange / (kErrorPoints - 1);
    for (int k = 0; k < kErrorPoints; ++k) {
        const double x = -kCorrectionPlotRange + k * errorStep;
        plot.error.append(QPointF(x, std::max(std::abs(table.cdfError(x)), plot.errorFloor)));
    }
    return plot;
}

CorrectionPlot computeCorrectionPlot(const core::CorrectionParams &params, const std::function<void(double)> &progress,
                                     std::stop_token stop)
{
    bool fromCache = false;
    const core::CorrectionDistribution table = core::loadOrSolveCorrection(params, progress, stop, &fromCache);
    if (stop.stop_requested())
        throw core::Cancelled();
    return correctionPlotOf(table, fromCache);
}

} // namespace ui
