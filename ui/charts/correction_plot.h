#pragma once
// The curves of the correction chart, computed off the GUI thread from a solved table
// (Seita et al. Sec. 4, Eq. 14–15): the logistic density that X_norm + X_corr must have, the
// Gaussian N(0, σ²) of X_norm, the density of X_norm + X_corr that the table really gives,
// C_σ itself, and the CDF error |Φ_σ * C_σ − S| on a fine grid.
#include <functional>
#include <stop_token>

#include <QList>
#include <QMetaType>
#include <QPointF>

#include "core/correction/correction_distribution.h"

namespace ui {

struct CorrectionPlot {
    core::CorrectionParams params;
    double linf = 0.0;             ///< sup |F − S| of the sampled law (CorrectionDistribution::linfError)
    double solveGridLinf = 0.0;    ///< the paper's convention (Table 1 / Table 3)
    double variance = 0.0;         ///< of C_σ; exact correction: π²/3 − σ²
    double solveSeconds = 0.0;
    bool fromCache = false;
    bool solverConverged = true;   ///< false: NNLS stopped at its iteration limit
    std::size_t atoms = 0;         ///< atoms with positive mass

    QList<QPointF> logistic;       ///< S'(x), the target density of X_norm + X_corr
    QList<QPointF> gaussian;       ///< N(0, σ²) density of X_norm
    QList<QPointF> convolved;      ///< (Φ_σ * C_σ)'(x): the density the table gives X_norm + X_corr
    /// Few atoms (NNLS): C_σ is drawn as stems of probability mass per atom, because
    /// mass / h would be spikes a hundred times taller than the densities. Many atoms
    /// (ridge): as the density masses / h.
    bool sparse = false;
    QList<QPointF> correction;     ///< stems (x, 0)–(x, mass)–(x, 0)… or the density line
    double correctionMax = 0.0;    ///< largest y of `correction`
    QList<QPointF> error;          ///< (x, |F(x) − S(x)|), raised to errorFloor
    /// The log axis of the error panel: [errorFloor, errorTop], five decades ending at the
    /// power of ten above the L∞ error. Values below (the exact zeros of a symmetric table
    /// at x = 0, say) are drawn at the floor, so the curve never leaves the plot.
    double errorFloor = 0.0;
    double errorTop = 0.0;
};

/// Half-width of the x window of both panels; the logistic density at 8 is 3e-4 of its peak.
inline constexpr double kCorrectionPlotRange = 8.0;
/// Atoms with positive mass up to which C_σ is drawn as stems.
inline constexpr std::size_t kMaxStemAtoms = 400;

/// Loads the table for `params` from the disk cache or solves it (see
/// core::loadOrSolveCorrection: same progress, stop and exceptions), then evaluates the curves.
CorrectionPlot computeCorrectionPlot(const core::CorrectionParams &params,
                                     const std::function<void(double)> &progress = {}, std::stop_token stop = {});

/// The curves of an already solved table.
CorrectionPlot correctionPlotOf(const core::CorrectionDistribution &table, bool fromCache);

} // namespace ui

Q_DECLARE_METATYPE(ui::CorrectionPlot)
