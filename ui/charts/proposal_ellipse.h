#pragma once
// The proposal's reach, drawn around the chain's current state on the posterior chart: the
// contour at two standard deviations of its Gaussian noise in the plotted plane. Against the
// posterior it shows the step's trade-off at a glance (a small ellipse: high acceptance but
// slow travel; a large one: most candidates land in low density and are rejected), and an
// adaptive proposal's ellipse turning into the posterior's shape during its burn-in.
#include <cstdint>
#include <optional>

#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QVector>

#include "core/chain/chain_runner.h"
#include "core/experiment/settings/run_config.h"
#include "ui/run/run_messages.h"

QT_BEGIN_NAMESPACE
class QLegend;
class QLineSeries;
QT_END_NAMESPACE

namespace ui {

/// Standard deviations at which the ellipse is drawn: 86 % of a 2-D Gaussian's draws fall
/// inside (1 − e^{−2}).
inline constexpr double kProposalEllipseSds = 2.0;

/// The spread of `kind`'s proposal from the state after row `lastRow − 1` of `result`, in the
/// plane of components (x, y): the step of the segment that row belongs to, and for the
/// adaptive kinds the covariance learned so far (ChainResult::learning) or as frozen
/// (ChainResult::adaptation, which a later lap of a chain carries from its first report); for
/// the Laplace kinds scale²·M, M the Laplace covariance (LearnedProposal::preconditionerFactor).
/// Empty for a one-dimensional θ, or a learning proposal before its first report.
std::optional<ProposalSpread> proposalSpread(core::ProposalKind kind, const core::ChainResult &result,
                                             std::int64_t lastRow, int x, int y);

/// `segments` + 1 points on {centre + sds·L·(cos φ, sin φ)}, LLᵀ the spread's covariance (the
/// first point repeated, so that a line series closes it). Empty when the covariance is not
/// finite or not positive semi-definite.
QVector<QPointF> ellipsePoints(QPointF centre, const ProposalSpread &spread, double sds = kProposalEllipseSds,
                               int segments = 64);

/// The pieces of the closed polyline `points` inside `window`, each cut where it crosses the
/// window's edge: none when all of it is outside, one (the whole curve) when all is inside.
/// Points outside a chart's axes must not reach its series: the screen clips them, an SVG
/// export does not.
QVector<QVector<QPointF>> clippedArcs(const QVector<QPointF> &points, const QRectF &window);

/// The ellipse on a chart: up to four arcs (what an ellipse keeps inside a rectangle), each a
/// series, and a legend entry on the first that says what it shows and is hidden while there
/// is nothing to show.
class ProposalEllipseSeries {
public:
    static constexpr int kArcs = 4;
    /// Makes the series (the chart they are added to owns them), drawn in `colour`.
    explicit ProposalEllipseSeries(QColor colour);
    const QList<QLineSeries *> &series() const { return m_arcs; }
    void setSpread(const std::optional<ProposalSpread> &spread) { m_spread = spread; }
    bool hasSpread() const { return m_spread.has_value(); }
    /// Draws the part inside `window` of the ellipse around `centre` (nothing when not
    /// `visible` or without a spread) and names, shows or hides its entry in `legend`.
    void place(QPointF centre, bool visible, const QRectF &window, QLegend *legend);
    /// The whole ellipse last placed, before clipping (empty when none is drawn).
    const QVector<QPointF> &points() const { return m_points; }
    /// No spread and no points (a new run).
    void clear();

private:
    QList<QLineSeries *> m_arcs;
    std::optional<ProposalSpread> m_spread;
    QVector<QPointF> m_points;
};

} // namespace ui
