#include "ui/charts/chart_style.h"

#include <array>
#include <cstdlib>

#include <QAbstractAxis>
#include <QChart>
#include <QEvent>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>

namespace ui {

QString fittedTitle(const QString &title, const QFont &font, qreal width)
{
    const QFontMetricsF metrics(font);
    if (metrics.horizontalAdvance(title) <= width)
        return title;
    qsizetype cut = title.lastIndexOf(QStringLiteral(" — "));
    const auto fits = [&](qsizetype at) {
        return at > 0 && metrics.horizontalAdvance(title.left(at)) <= width
               && metrics.horizontalAdvance(title.mid(at + 1)) <= width;
    };
    if (!fits(cut)) { // the space nearest the middle
        cut = -1;
        for (qsizetype at = 0; at < title.size(); ++at)
            if (title[at] == QLatin1Char(' ') && (cut < 0 || std::abs(at - title.size() / 2) < std::abs(cut - title.size() / 2)))
                cut = at;
    }
    if (cut <= 0)
        return title; // one word: nothing to break
    return title.left(cut).toHtmlEscaped() + QStringLiteral("<br>") + title.mid(cut + 1).toHtmlEscaped();
}

QColor seriesColour(int index)
{
    // Hues of medium lightness: distinct from each other and from both a white
    // and a near-black background.
    // Eight, one per method a compare run can hold (compare_box.h).
    static const std::array<QColor, 8> colours = {QColor(0x1f, 0x77, 0xb4), QColor(0xe6, 0x55, 0x0d),
                                                  QColor(0x2c, 0xa0, 0x2c), QColor(0xa3, 0x4d, 0xc2),
                                                  QColor(0x8c, 0x6d, 0x31), QColor(0xd6, 0x27, 0x72),
                                                  QColor(0x17, 0x9c, 0xb0), QColor(0x7a, 0x7a, 0x7a)};
    return colours[static_cast<std::size_t>(index) % colours.size()];
}

QColor withAlpha(QColor colour, int alpha)
{
    colour.setAlpha(alpha);
    return colour;
}

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

void applyPalette(QAbstractAxis *axis, const QPalette &palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    axis->setLabelsColor(text);
    axis->setTitleBrush(text);
    axis->setLinePenColor(withAlpha(text, 150));
    // Faint grid lines: the data, not the grid, should stand out.
    axis->setGridLineColor(withAlpha(text, 40));
    axis->setMinorGridLineColor(withAlpha(text, 18));
}

void applyPalette(QChart *chart, const QPalette &palette)
{
    chart->setBackgroundBrush(palette.color(QPalette::Window));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setPlotAreaBackgroundBrush(palette.color(QPalette::Base));
    chart->setPlotAreaBackgroundPen(QPen(withAlpha(palette.color(QPalette::WindowText), 60)));
    chart->setTitleBrush(palette.color(QPalette::WindowText));
    chart->legend()->setLabelColor(palette.color(QPalette::WindowText));
    chart->legend()->setBackgroundVisible(false);
    for (QAbstractAxis *axis : chart->axes())
        applyPalette(axis, palette);
}

ThemedChartView::ThemedChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    // Partial updates leave stray pixels where an antialiased series was removed or moved (its
    // pen reaches past the rectangle repainted): the Trade-offs page's error bars, redrawn at
    // every sweep point, left specks beside the lines. The charts are small enough to repaint
    // whole.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    chart->setAnimationOptions(QChart::NoAnimation);
    // The view's own frame and background would show around the chart in a dark theme.
    setFrameShape(QFrame::NoFrame);
    setBackgroundBrush(palette().color(QPalette::Window));
}

void ThemedChartView::restyle()
{
    setBackgroundBrush(palette().color(QPalette::Window));
    applyPalette(chart(), palette());
}

void ThemedChartView::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        restyle();
}

QValueAxis *valueAxis(const QString &title, const QString &labelFormat)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(labelFormat);
    return axis;
}

QValueAxis *valueAxis(const QString &title, const QString &labelFormat, double min, double max, int ticks)
{
    QValueAxis *axis = valueAxis(title, labelFormat);
    axis->setRange(min, max);
    axis->setTickCount(ticks);
    return axis;
}

QLineSeries *addLine(QChart *chart, const QString &name, const QPen &pen, QAbstractAxis *x, QAbstractAxis *y)
{
    auto *line = new QLineSeries;
    line->setName(name);
    line->setPen(pen);
    chart->addSeries(line); // before attaching: a series takes only its chart's axes
    line->attachAxis(x);
    line->attachAxis(y);
    return line;
}

} // namespace ui
