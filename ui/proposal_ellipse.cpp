#include "ui/proposal_ellipse.h"

#include <algorithm>
#include <cmath>
#include <numbers>

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
    spread.drifts = core::usesGradient(kind);
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
    case core::ProposalKind::LaplaceHamiltonian:
        return std::nullopt;
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

ProposalEllipseSeries::ProposalEllipseSeries(QColor colour) : m_series(new QLineSeries)
{
    m_series->setPen(QPen(colour, 1.5));
    m_series->setName(QCoreApplication::translate("ui::ProposalEllipseSeries", "Proposal, %1 sd").arg(kProposalEllipseSds));
}

void ProposalEllipseSeries::place(QPointF centre, bool visible, QLegend *legend)
{
    m_series->replace(visible && m_spread ? ellipsePoints(centre, *m_spread) : QList<QPointF>{});
    if (m_spread) {
        const QString sds = QString::number(kProposalEllipseSds);
        const char *name = m_spread->learning ? "Proposal, %1 sd (learning in the burn-in)"
                           : m_spread->drifts ? "Proposal noise, %1 sd (its centre moves along the gradient)"
                                              : "Proposal, %1 sd";
        m_series->setName(QCoreApplication::translate("ui::ProposalEllipseSeries", name).arg(sds));
    }
    for (QLegendMarker *marker : legend->markers(m_series))
        marker->setVisible(m_spread.has_value());
}

void ProposalEllipseSeries::clear()
{
    m_spread.reset();
    m_series->clear();
}

} // namespace ui
