#pragma once
// A pinned run: the samples of an earlier run kept as a faint layer under the current samples,
// so that the effect of one change (T 10⁴ → 10³, σ 1 → 1.5) is seen at a glance as two clouds.
// The layer is an image over the plot area, drawn once per resize or axis change, so pinning
// 10⁵ samples costs no series and nothing per repaint.
#include <QColor>
#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QVector>

namespace ui {

/// The pinned run's colour in every chart: a faint violet no method's colour uses. Dots get
/// `alpha` 110 (dense clouds stay see-through); lines need more to be seen at one pixel.
inline QColor pinnedColour(int alpha = 110) { return QColor(150, 90, 190, alpha); }

/// The pinned points drawn as small dots of `colour` on a transparent image of `size` pixels
/// that shows the θ window `window` (x = θ₁, y = θ₂ with θ₂ = max at the top); points outside
/// the window are left out.
QImage renderPinnedSamples(const QVector<QPointF> &points, const QRectF &window, QSize size, QColor colour);

} // namespace ui
