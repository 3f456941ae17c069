#include "ui/charts/proposal_ellipse.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>

namespace ui {
namespace {

// The step of the segment row `lastRow − 1` was drawn in.
double stepAt(const core::ChainResult &result, std::int64_t lastRow)
{
    double step = result.segments.empty() ? 0.0 : result.segments.front().step;
    for (const core::ChainSegment &segment : result.segments)
        if (segment.start < lastRow)
            step = segment.step;
    return step;
}

// Entry (i, j) of a learned covariance stored whole (d×d) or as its diagonal (d×1).
double entry(const core::LearnedProposal &learned, int i, int j)
{
    if (learned.fullCovariance)
        return learned.covariance(i, j);
    return i == j ? learned.covariance(i, 0) : 0.0;
}

} // namespace

std::optional<ProposalSpread> proposalSpread(core::ProposalKind kind, const core::ChainResult &result,
                                             std::int64_t lastRow, int x, int y)
{
    if (result.samples.cols() < 2 || lastRow <= 0)
        return std::nullopt;
    ProposalSpread spread;
    spread.centre = core::usesGradient(kind) ? ProposalSpread::Centre::AlongGradient : ProposalSpread::Centre::AtTheState;
    switch (kind) {
    case core::ProposalKind::RandomWalk:
    case core::ProposalKind::Langevin: {
        const double step = stepAt(result, lastRow);
        spread.xx = spread.yy = step * step;
        return spread;
    }
    case core::ProposalKind::Adaptive:
    case core::ProposalKind::AdaptiveLangevin: {
        // Learning: its own current scale. Frozen: the segment's step, which is the learned
        // scale unless the step was changed during the run (Proposal::withStep keeps Σ̂).
        const core::LearnedProposal *learned = nullptr;
        double scale = 0.0;
        if (result.learning) {
            learned = &*result.learning;
            scale = learned->scale;
            spread.learning = true;
        } else if (result.adaptation) {
            learned = &*result.adaptation;
            scale = stepAt(result, lastRow);
        }
        if (!learned || learned->covariance.rows() <= std::max(x, y))
            return std::nullopt;
        const double s2 = scale * scale;
        spread.xx = s2 * entry(*learned, x, x);
        spread.xy = s2 * entry(*learned, x, y);
        spread.yy = s2 * entry(*learned, y, y);
        return spread;
    }
    case core::ProposalKind::LaplaceLangevin:
    case core::ProposalKind::LaplaceCrankNicolson:
    case core::ProposalKind::LaplaceHamiltonian: {
        // scale²·M with the Laplace covariance M = L Lᵀ, its plotted block from L's two rows:
        // the noise of a Langevin or Crank–Nicolson step, or the first position update
        // ε·L·p of a trajectory (p ~ N(0, I)).
        const core::LearnedProposal *learned =
            result.learning ? &*result.learning : result.adaptation ? &*result.adaptation : nullptr;
        if (!learned || !learned->preconditionerFactor || learned->preconditionerFactor->rows() <= std::max(x, y))
            return std::nullopt;
        const double scale = result.learning ? learned->scale : stepAt(result, lastRow);
        spread.learning = result.learning.has_value();
        spread.centre = kind == core::ProposalKind::LaplaceHamiltonian     ? ProposalSpread::Centre::LeapfrogStep
                        : kind == core::ProposalKind::LaplaceCrankNicolson ? ProposalSpread::Centre::TowardMode
                                                                           : ProposalSpread::Centre::AlongGradient;
        const Eigen::MatrixXd &factor = *learned->preconditionerFactor;
        const double s2 = scale * scale;
        spread.xx = s2 * factor.row(x).squaredNorm();
        spread.xy = s2 * factor.row(x).dot(factor.row(y));
        spread.yy = s2 * factor.row(y).squaredNorm();
        return spread;
    }
    }
    return std::nullopt;
}

QVector<QPointF> ellipsePoints(QPointF centre, const ProposalSpread &spread, double sds, int segments)
{
    // The Cholesky factor of [[xx, xy], [xy, yy]].
    if (!(spread.xx > 0.0) || !std::isfinite(spread.xx) || !std::isfinite(spread.xy) || !std::isfinite(spread.yy))
        return {};
    const double l11 = std::sqrt(spread.xx);
    const double l21 = spread.xy / l11;
    const double rest = spread.yy - l21 * l21;
    if (rest < -1e-12 * std::max(spread.yy, spread.xx))
        return {};
    const double l22 = std::sqrt(std::max(rest, 0.0));
    QVector<QPointF> points;
    points.reserve(segments + 1);
    for (int k = 0; k <= segments; ++k) {
        const double phi = 2.0 * std::numbers::pi * (k % segments) / segments;
        const double u = std::cos(phi), v = std::sin(phi);
        points.append(centre + sds * QPointF(l11 * u, l21 * u + l22 * v));
    }
    return points;
}

namespace {

// Liang–Barsky: the part [t0, t1] ⊆ [0, 1] of the segment a + t (b − a) inside `window`;
// false when none is.
bool clipSegment(QPointF a, QPointF b, const QRectF &window, double &t0, double &t1)
{
    t0 = 0.0;
    t1 = 1.0;
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - window.left(), window.right() - a.x(), a.y() - window.top(), window.bottom() - a.y()};
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0)
                return false; // parallel to this edge and outside it
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0.0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
    }
    return t0 <= t1;
}

} // namespace

QVector<QVector<QPointF>> clippedArcs(const QVector<QPointF> &points, const QRectF &window)
{
    QVector<QVector<QPointF>> arcs;
    QVector<QPointF> current;
    bool startsInside = false;
    for (qsizetype i = 0; i + 1 < points.size(); ++i) {
        const QPointF a = points[i], b = points[i + 1];
        double t0 = 0.0, t1 = 1.0;
        if (!clipSegment(a, b, window, t0, t1)) {
            if (!current.isEmpty())
                arcs.append(std::exchange(current, {}));
            continue;
        }
        if (i == 0 && t0 == 0.0)
            startsInside = true;
        if (current.isEmpty() || t0 > 0.0) {
            if (!current.isEmpty())
                arcs.append(std::exchange(current, {}));
            current.append(t0 > 0.0 ? a + t0 * (b - a) : a);
        }
        current.append(t1 < 1.0 ? a + t1 * (b - a) : b); // the points themselves where not cut
        if (t1 < 1.0)
            arcs.append(std::exchange(current, {}));
    }
    if (!current.isEmpty()) {
        // The curve is closed: an arc running through its last point goes on in its first.
        if (startsInside && !arcs.isEmpty() && arcs.front().front() == points.front()) {
            current.append(arcs.front().mid(1));
            arcs.front() = std::move(current);
        } else {
            arcs.append(std::move(current));
        }
    }
    return arcs;
}

ProposalEllipseSeries::ProposalEllipseSeries(QColor colour)
{
    for (int k = 0; k < kArcs; ++k) {
        auto *arc = new QLineSeries;
        arc->setPen(QPen(colour, 1.5));
        m_arcs.append(arc);
    }
    m_arcs.front()->setName(
        QCoreApplication::translate("ui::ProposalEllipseSeries", "Proposal, %1 sd").arg(kProposalEllipseSds));
}

void ProposalEllipseSeries::place(QPointF centre, bool visible, const QRectF &window, QLegend *legend)
{
    m_points = visible && m_spread ? ellipsePoints(centre, *m_spread) : QVector<QPointF>{};
    const QVector<QVector<QPointF>> arcs = clippedArcs(m_points, window);
    for (qsizetype k = 0; k < m_arcs.size(); ++k)
        m_arcs[k]->replace(k < arcs.size() ? arcs[k] : QList<QPointF>{});
    if (m_spread) {
        const QString sds = QString::number(kProposalEllipseSds);
        using Centre = ProposalSpread::Centre;
        // Learning: in the burn-in, or again after a live change of T (ChainSegment::relearning).
        const char *name = m_spread->learning ? "Proposal, %1 sd (still learning its scale)"
                           : m_spread->centre == Centre::AlongGradient
                               ? "Proposal noise, %1 sd (its centre moves along the gradient)"
                           : m_spread->centre == Centre::TowardMode
                               ? "Proposal noise, %1 sd (its centre moves toward the Laplace mode)"
                           : m_spread->centre == Centre::LeapfrogStep
                               ? "One leapfrog step, %1 sd (a trajectory takes several)"
                               : "Proposal, %1 sd";
        m_arcs.front()->setName(QCoreApplication::translate("ui::ProposalEllipseSeries", name).arg(sds));
    }
    for (qsizetype k = 0; k < m_arcs.size(); ++k)
        for (QLegendMarker *marker : legend->markers(m_arcs[k]))
            marker->setVisible(k == 0 && m_spread.has_value());
}

void ProposalEllipseSeries::clear()
{
    m_spread.reset();
    m_points.clear();
    for (QLineSeries *arc : m_arcs)
        arc->clear();
}

} // namespace ui
