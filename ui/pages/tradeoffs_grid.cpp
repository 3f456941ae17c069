#include "ui/pages/tradeoffs_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include <QChart>
#include <QGridLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include "ui/charts/chart_style.h"
#include "ui/run/stale_banner.h"

namespace ui {
namespace {

// The ring round a point drawn from a chain that has not mixed: red, whatever the theme.
const QColor kUnconvergedRing(198, 40, 40);

bool hasNotMixed(const core::SweepRow &row)
{
    return row.mixing.level == core::Mixing::NotConverged || row.mixing.level == core::Mixing::NotMixed;
}

enum class FidelityMeasure { PosteriorTv, TestAccuracy, ReferenceShift };

double figureOf(const core::SweepRow &row, int figure, FidelityMeasure fidelity)
{
    switch (figure) {
    case TradeoffsGrid::MeanBatch: return row.meanBatch;
    case TradeoffsGrid::Acceptance: return row.acceptanceRate;
    case TradeoffsGrid::CorrectionError: return row.correctionLinf;
    case TradeoffsGrid::Fidelity:
        return fidelity == FidelityMeasure::ReferenceShift ? row.referenceShift
               : fidelity == FidelityMeasure::TestAccuracy ? row.testAccuracy
                                                            : row.posteriorTv;
    case TradeoffsGrid::EssPerSecond: return row.essPerSecond;
    case TradeoffsGrid::DataPerEss: return row.dataPointsPerEss;
    default: return std::nan("");
    }
}

QAbstractAxis *makeAxis(bool logarithmic, const QString &title)
{
    QAbstractAxis *axis = nullptr;
    if (logarithmic) {
        auto *log = new QLogValueAxis;
        log->setBase(10.0);
        log->setLabelFormat(QStringLiteral("%.3g"));
        log->setMinorTickCount(8);
        axis = log;
    } else {
        auto *linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%.4g"));
        linear->setTickCount(5);
        axis = linear;
    }
    axis->setTitleText(title);
    QFont font = axis->labelsFont();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    axis->setLabelsFont(font);
    axis->setTitleFont(font);
    return axis;
}

// Powers of ten in [low, high].
int decadeMarks(double low, double high)
{
    return static_cast<int>(std::floor(std::log10(high) + 1e-9) - std::ceil(std::log10(low) - 1e-9)) + 1;
}

void setAxisRange(QAbstractAxis *axis, double low, double high, bool logarithmic)
{
    if (auto *log = qobject_cast<QLogValueAxis *>(axis); log && logarithmic) {
        // QLogValueAxis labels only powers of ten: widen the range, on the side that costs
        // less, until it holds two of them, so that the axis has labels to read. The margin,
        // a share of the span, keeps the end markers inside the frame.
        const double margin = std::max(1.4, std::pow(high / low, 0.1));
        low /= margin;
        high *= margin;
        if (decadeMarks(low, high) < 2) {
            const double lowDecade = std::pow(10.0, std::floor(std::log10(low)));
            const double highDecade = std::pow(10.0, std::ceil(std::log10(high)));
            const bool lowSuffices = decadeMarks(lowDecade, high) >= 2, highSuffices = decadeMarks(low, highDecade) >= 2;
            if (lowSuffices && (!highSuffices || low / lowDecade <= highDecade / high))
                low = lowDecade;
            else if (highSuffices)
                high = highDecade;
            else
                low = lowDecade, high = highDecade;
        }
        log->setRange(low, high);
        return;
    }
    const double pad = high > low ? 0.05 * (high - low) : std::max(0.05 * std::abs(high), 0.01);
    // Figures that cannot be negative keep their axis at or above zero.
    const double floor = low >= 0.0 ? 0.0 : -std::numeric_limits<double>::infinity();
    axis->setRange(std::max(low - pad, floor), high + pad);
    if (auto *linear = qobject_cast<QValueAxis *>(axis))
        linear->applyNiceNumbers();
}

// A cell of the grid: no legend of its own on screen (the grid shows one for all), but one in
// an exported file, which stands alone.
class TradeoffsChartView : public ThemedChartView {
public:
    explicit TradeoffsChartView(QChart *chart) : ThemedChartView(chart)
    {
        // The chart's own size, not the view's: an export renders it at the file's size.
        connect(chart, &QGraphicsWidget::geometryChanged, this, [this] { fitTitle(); });
    }
    void setExportLayout(bool exporting) override { chart()->legend()->setVisible(exporting); }
    /// The chart's title, on two lines wherever one would be cut at the view's width (the cells
    /// are narrow: a third of the page).
    void setTitle(const QString &title)
    {
        m_title = title;
        fitTitle();
    }
    const QString &wholeTitle() const { return m_title; }

private:
    void fitTitle()
    {
        // The chart's margins and the title's own padding on either side.
        const QMargins margins = chart()->margins();
        chart()->setTitle(
            fittedTitle(m_title, chart()->titleFont(), chart()->size().width() - margins.left() - margins.right() - 24));
    }
    QString m_title;
};

/// The mean of the trials' figures at one setting value and its standard error (NaN from one trial).
std::pair<double, double> meanAndStandardError(const std::vector<double> &values)
{
    double sum = 0.0;
    for (double v : values)
        sum += v;
    const double mean = sum / static_cast<double>(values.size());
    double halfWidth = std::nan("");
    if (values.size() > 1) {
        double squares = 0.0;
        for (double v : values)
            squares += (v - mean) * (v - mean);
        const double n = static_cast<double>(values.size());
        halfWidth = std::sqrt(squares / (n - 1.0) / n);
    }
    return {mean, halfWidth};
}

} // namespace

TradeoffsGrid::TradeoffsGrid(QWidget *parent) : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(2);
    m_legend = new QLabel;
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true); // the ring's entry can take a second line on a narrow page
    m_grid->addWidget(m_legend, 0, 0, 1, 3);
    for (int figure = 0; figure < FigureCount; ++figure) {
        auto *chart = new QChart;
        chart->setMargins(QMargins(2, 2, 2, 2));
        chart->legend()->setVisible(false);
        chart->legend()->setAlignment(Qt::AlignBottom);
        m_panels[static_cast<std::size_t>(figure)].chart = chart;
        auto *view = new TradeoffsChartView(chart);
        view->setMinimumSize(220, 180);
        m_views[static_cast<std::size_t>(figure)] = view;
        m_grid->addWidget(view, 1 + figure / 3, figure % 3);
        m_grid->setRowStretch(1 + figure / 3, 1);
    }
    reset(QStringLiteral("sigma"), 0.4, 1.7, false, {core::methodName(core::TestMethod::Minibatch)}, false);
}

QString TradeoffsGrid::figureStem(int figure)
{
    static const char *const stems[] = {"mean-batch", "acceptance", "correction-linf", "fidelity", "ess-per-second",
                                        "data-per-ess"};
    return QString::fromLatin1(stems[figure]);
}

TradeoffsGrid::FigureText TradeoffsGrid::figureText(int figure) const
{
    switch (figure) {
    case MeanBatch: return {tr("Mean minibatch size"), tr("points read per test")};
    case Acceptance: return {tr("Acceptance rate"), tr("share accepted")};
    case CorrectionError: return {tr("Correction L∞ CDF error"), tr("max CDF error")};
    case Fidelity:
        if (m_fidelityIsShift)
            return {tr("Mean shift from the full-data method"), tr("median |Δmean| / reference sd")};
        return m_logreg ? FigureText{tr("Test accuracy"), tr("share classified right")}
                        : FigureText{tr("Posterior TV"), tr("TV distance")};
    case EssPerSecond:
        return {m_pooledSpeed ? tr("ESS per second, trials pooled") : tr("ESS per second"), tr("min bulk ESS / s")};
    default:
        return {m_pooledSpeed ? tr("Data points per ESS, trials pooled") : tr("Data points per effective sample"),
                tr("points read per ESS")};
    }
}

QString TradeoffsGrid::figureTitle(int figure) const
{
    return figureText(figure).title;
}

QString TradeoffsGrid::chartTitle(int figure) const
{
    return static_cast<const TradeoffsChartView *>(m_views[static_cast<std::size_t>(figure)])->wholeTitle();
}

bool TradeoffsGrid::logY(int figure) const
{
    // On a log-spaced axis (the scaling view, N from 10⁴ to 10⁷) the methods' ESS per second
    // spans four or five decades: on a linear axis every slow method lay on the floor.
    // A mean shift spans decades too: an SGHMC chain a hundred sds off beside an exact one at 0.01.
    return figure == MeanBatch || figure == CorrectionError || figure == DataPerEss || (figure == EssPerSecond && m_logX)
           || (figure == Fidelity && m_fidelityIsShift);
}

void TradeoffsGrid::reset(const QString &settingKey, double from, double to, bool logSpacing,
                          const std::vector<std::string> &methods, bool logreg)
{
    m_setting = settingKey;
    m_from = std::min(from, to);
    m_to = std::max(from, to);
    m_logX = logSpacing && m_from > 0.0;
    m_methods = methods;
    m_logreg = logreg;
    m_fidelityIsShift = logreg && std::any_of(methods.begin(), methods.end(), [](const std::string &label) {
                            return label == "mh" || label == "barker";
                        });
    m_pooledSpeed = false;
    m_staleNote.clear();
    for (int figure = 0; figure < FigureCount; ++figure)
        buildPanel(figure);
    QStringList entries;
    for (std::size_t m = 0; m < methods.size(); ++m)
        entries.append(QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                           .arg(seriesColour(static_cast<int>(m)).name(),
                                QString::fromStdString(methods[m]).toHtmlEscaped()));
    entries.append(tr("<span>&#9477;</span>&nbsp;the form's %1; bars: ± one standard error over the trials")
                       .arg(settingKey.toHtmlEscaped()));
    m_legendText = entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;"));
    m_legend->setText(m_legendText);
}

void TradeoffsGrid::buildPanel(int figure)
{
    Panel &panel = m_panels[static_cast<std::size_t>(figure)];
    QChart *chart = panel.chart;
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    panel.lines.clear();
    panel.whiskers.clear(); // removeAllSeries deleted them
    panel.halfWidths.assign(m_methods.size(), {});
    static_cast<TradeoffsChartView *>(m_views[static_cast<std::size_t>(figure)])->setTitle(figureTitle(figure));
    const QString xTitle = m_setting == QLatin1String("n_data_requested")
                               ? tr("N, data points")
                               : StaleBanner::settingLabel(m_setting.toStdString());
    panel.x = makeAxis(m_logX, m_logX ? tr("%1 (log scale)").arg(xTitle) : xTitle);
    const QString unit = figureText(figure).unit;
    panel.y = makeAxis(logY(figure), logY(figure) ? tr("%1 (log scale)").arg(unit) : unit);
    chart->addAxis(panel.x, Qt::AlignBottom);
    chart->addAxis(panel.y, Qt::AlignLeft);
    setAxisRange(panel.x, m_from, m_to > m_from ? m_to : m_from + 1.0, m_logX);
    panel.yLow = logY(figure) ? 1.0 : 0.0;
    panel.yHigh = logY(figure) ? 10.0 : 1.0;
    panel.y->setRange(panel.yLow, panel.yHigh);
    for (std::size_t m = 0; m < m_methods.size(); ++m) {
        QLineSeries *line = addLine(chart, QString::fromStdString(m_methods[m]),
                                    QPen(seriesColour(static_cast<int>(m)), 2.0), panel.x, panel.y);
        line->setPointsVisible(true);
        line->setMarkerSize(5.0);
        connect(line, &QXYSeries::clicked, this, [this](const QPointF &point) { emit pointClicked(point.x()); });
        panel.lines.append(line);
    }
    panel.marker = new QLineSeries;
    panel.marker->setName(tr("form"));
    QPen dashed(palette().color(QPalette::WindowText));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(1.0);
    panel.marker->setPen(dashed);
    chart->addSeries(panel.marker);
    panel.marker->attachAxis(panel.x);
    panel.marker->attachAxis(panel.y);
    for (QLegendMarker *marker : chart->legend()->markers(panel.marker))
        marker->setVisible(false);
    panel.unconverged = nullptr;
    if (ringsUnconverged(figure)) {
        panel.unconverged = new QScatterSeries;
        panel.unconverged->setName(tr("chain not mixed"));
        panel.unconverged->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        panel.unconverged->setMarkerSize(14.0);
        panel.unconverged->setBrush(Qt::NoBrush);
        panel.unconverged->setPen(QPen(kUnconvergedRing, 2.0));
        chart->addSeries(panel.unconverged);
        panel.unconverged->attachAxis(panel.x);
        panel.unconverged->attachAxis(panel.y);
        connect(panel.unconverged, &QXYSeries::clicked, this, [this](const QPointF &point) { emit pointClicked(point.x()); });
    }
    applyPalette(chart, palette());
    updateMarker(panel);
}

std::map<double, std::vector<double>> TradeoffsGrid::trialsOf(const std::vector<core::SweepRow> &rows, int figure,
                                                              const std::string &method) const
{
    std::map<double, std::vector<double>> trials;
    for (const core::SweepRow &row : rows) {
        const double y = figureOf(row, figure,
                                  m_fidelityIsShift ? FidelityMeasure::ReferenceShift
                                  : m_logreg        ? FidelityMeasure::TestAccuracy
                                                    : FidelityMeasure::PosteriorTv);
        if (row.methodLabel() == method && std::isfinite(y))
            trials[row.value].push_back(y);
    }
    return trials;
}

std::map<double, double> TradeoffsGrid::pooledLineOf(const std::vector<core::SweepPooled> &pooled, int figure,
                                                     const std::string &method) const
{
    std::map<double, double> line;
    if (m_pooledSpeed && (figure == EssPerSecond || figure == DataPerEss))
        for (const core::SweepPooled &point : pooled) {
            const double y = figure == EssPerSecond ? point.figures.essPerSecond : point.figures.dataPointsPerEss;
            if (point.figures.methodLabel() == method && std::isfinite(y))
                line[point.value] = y;
        }
    return line;
}

void TradeoffsGrid::drawWhiskers(Panel &panel, int method, const std::vector<std::pair<QPointF, QPointF>> &bars)
{
    for (const auto &[bottom, top] : bars) {
        auto *bar = new QLineSeries;
        QPen pen(seriesColour(method));
        pen.setWidthF(1.5);
        bar->setPen(pen);
        panel.chart->addSeries(bar);
        bar->attachAxis(panel.x);
        bar->attachAxis(panel.y);
        bar->replace(QList<QPointF>{bottom, top});
        for (QLegendMarker *marker : panel.chart->legend()->markers(bar))
            marker->setVisible(false);
        panel.whiskers.append(bar);
    }
}

void TradeoffsGrid::showRows(const std::vector<core::SweepRow> &rows, const std::vector<core::SweepPooled> &pooled)
{
    m_pooledSpeed = !pooled.empty();
    for (int figure = 0; figure < FigureCount; ++figure) {
        Panel &panel = m_panels[static_cast<std::size_t>(figure)];
        const bool logarithmic = logY(figure);
        double low = std::numeric_limits<double>::infinity(), high = -low;
        for (QLineSeries *bar : panel.whiskers) {
            panel.chart->removeSeries(bar);
            delete bar;
        }
        panel.whiskers.clear();
        std::vector<std::pair<QPointF, QPointF>> bars; // one method's error bars at a time
        QList<QPointF> rings;
        for (std::size_t m = 0; m < m_methods.size(); ++m) {
            // Mean over the trials at each value, in the order of the setting; the speed
            // figures of pooled trials as they are.
            // The trials' values at each setting value, in its order.
            const std::map<double, std::vector<double>> trials = trialsOf(rows, figure, m_methods[m]);
            const std::map<double, double> pooledLine = pooledLineOf(pooled, figure, m_methods[m]);
            QList<QPointF> points;
            std::map<double, double> &halfWidths = panel.halfWidths[m];
            halfWidths.clear();
            const auto add = [&](double x, double y, double halfWidth) {
                if ((logarithmic && !(y > 0.0)) || (m_logX && !(x > 0.0)))
                    return;
                points.append(QPointF(x, y));
                low = std::min(low, y);
                high = std::max(high, y);
                if (!(halfWidth > 0.0))
                    return;
                // On a log axis the bar stops above zero.
                const double bottom = logarithmic ? std::max(y - halfWidth, y / 10.0) : y - halfWidth;
                halfWidths[x] = halfWidth;
                bars.push_back({QPointF(x, bottom), QPointF(x, y + halfWidth)});
                low = std::min(low, bottom);
                high = std::max(high, y + halfWidth);
            };
            if (!pooledLine.empty()) {
                // A pooled ESS is one estimate from all the trials; its bar is the spread of the
                // trials' own figures (their standard error), so that a swing between values
                // that lies within the trials' noise reads as noise, not as a trade-off.
                for (const auto &[x, y] : pooledLine) {
                    const auto found = trials.find(x);
                    add(x, y, found != trials.end() ? meanAndStandardError(found->second).second : std::nan(""));
                }
            } else {
                for (const auto &[x, values] : trials) {
                    const auto [mean, halfWidth] = meanAndStandardError(values);
                    add(x, mean, halfWidth);
                }
            }
            if (panel.unconverged) {
                // A point is ringed when any of its trials has not mixed.
                std::set<double> unmixedAt;
                for (const core::SweepRow &row : rows)
                    if (row.methodLabel() == m_methods[m] && hasNotMixed(row))
                        unmixedAt.insert(row.value);
                for (const QPointF &point : points)
                    if (unmixedAt.count(point.x()))
                        rings.append(point);
            }
            QLineSeries *line = panel.lines[static_cast<qsizetype>(m)];
            line->replace(points);
            drawWhiskers(panel, static_cast<int>(m), bars);
            bars.clear();
            // A method without this figure (no correction table) gets no line and no legend entry.
            const bool shown = !points.isEmpty() || rows.empty();
            line->setVisible(shown);
            for (QLegendMarker *marker : panel.chart->legend()->markers(line))
                marker->setVisible(shown);
        }
        if (panel.unconverged) {
            panel.unconverged->replace(rings);
            for (QLegendMarker *marker : panel.chart->legend()->markers(panel.unconverged))
                marker->setVisible(!rings.isEmpty());
        }
        if (std::isfinite(low)) {
            setAxisRange(panel.y, low, high, logarithmic);
            if (auto *linear = qobject_cast<QValueAxis *>(panel.y)) {
                panel.yLow = linear->min();
                panel.yHigh = linear->max();
            } else if (auto *log = qobject_cast<QLogValueAxis *>(panel.y)) {
                panel.yLow = log->min();
                panel.yHigh = log->max();
            }
        }
        panel.empty = !rows.empty() && !std::isfinite(low);
        retitle(panel, figure);
        updateMarker(panel);
    }
    const bool anyUnmixed = std::any_of(rows.begin(), rows.end(), hasNotMixed);
    m_legend->setText(anyUnmixed ? m_legendText
                                       + tr("&nbsp;&nbsp;&nbsp;&nbsp;<span style=\"color:%1\">&#9711;</span>&nbsp;chain not "
                                            "mixed (split R-hat &gt; 1.01 or ESS &lt; 100): its ESS overstates")
                                             .arg(kUnconvergedRing.name())
                                 : m_legendText);
    m_legend->setToolTip(anyUnmixed ? tr("A ringed point's chain broke Vehtari et al.'s rule (split R-hat at most 1.01, "
                                         "a bulk ESS of at least 100). The ESS is counted on ranks, so a chain that "
                                         "wandered off can show a large ESS: its speed describes the chain's path, "
                                         "not the posterior.")
                                    : QString());
}

void TradeoffsGrid::retitle(Panel &panel, int figure)
{
    QString title = panel.empty ? tr("%1: not measured").arg(figureTitle(figure)) : figureTitle(figure);
    // The title says only that the settings changed (it is narrow on screen); the page's
    // banner and the chart's tooltip say which.
    if (!m_staleNote.isEmpty())
        title += tr(" — earlier settings");
    m_views[static_cast<std::size_t>(figure)]->setToolTip(m_staleNote);
    static_cast<TradeoffsChartView *>(m_views[static_cast<std::size_t>(figure)])->setTitle(title);
}

void TradeoffsGrid::setStaleNote(const QString &note)
{
    if (note == m_staleNote)
        return;
    m_staleNote = note;
    for (int figure = 0; figure < FigureCount; ++figure)
        retitle(m_panels[static_cast<std::size_t>(figure)], figure);
}

void TradeoffsGrid::setMarker(double value)
{
    m_marker = value;
    for (Panel &panel : m_panels)
        updateMarker(panel);
}

void TradeoffsGrid::updateMarker(Panel &panel)
{
    if (!panel.marker)
        return;
    if (!std::isfinite(m_marker) || (m_logX && !(m_marker > 0.0))) {
        panel.marker->clear();
        return;
    }
    panel.marker->replace(QList<QPointF>{{m_marker, panel.yLow}, {m_marker, panel.yHigh}});
}

int TradeoffsGrid::unconvergedMarkCount(int figure) const
{
    const Panel &panel = m_panels[static_cast<std::size_t>(figure)];
    return panel.unconverged ? static_cast<int>(panel.unconverged->count()) : 0;
}

int TradeoffsGrid::pointCount(int figure, int methodIndex) const
{
    const Panel &panel = m_panels[static_cast<std::size_t>(figure)];
    return methodIndex < panel.lines.size() ? static_cast<int>(panel.lines[methodIndex]->count()) : 0;
}

double TradeoffsGrid::barAt(int figure, int methodIndex, double x) const
{
    const Panel &panel = m_panels[static_cast<std::size_t>(figure)];
    if (methodIndex < 0 || static_cast<std::size_t>(methodIndex) >= panel.halfWidths.size())
        return std::nan("");
    for (const auto &[value, halfWidth] : panel.halfWidths[static_cast<std::size_t>(methodIndex)])
        if (std::abs(value - x) <= 1e-9 * std::max(1.0, std::abs(x)))
            return halfWidth;
    return std::nan("");
}

double TradeoffsGrid::valueAt(int figure, int methodIndex, double x) const
{
    const Panel &panel = m_panels[static_cast<std::size_t>(figure)];
    if (methodIndex >= panel.lines.size())
        return std::nan("");
    for (const QPointF &point : panel.lines[methodIndex]->points())
        if (std::abs(point.x() - x) <= 1e-9 * std::max(1.0, std::abs(x)))
            return point.y();
    return std::nan("");
}

} // namespace ui
