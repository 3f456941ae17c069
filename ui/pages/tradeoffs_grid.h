#pragma once
// The charts of the Trade-offs tab: small multiples of what a sweep of one setting trades for
// what (core/experiment/sweep/sweep.h), each against the setting: the mean minibatch size, the
// acceptance rate, the correction's L∞ CDF error, the posterior's fidelity (TV to the exact
// mixture posterior, or test accuracy for logistic regression), ESS per second and data points
// read per effective sample. One line per method, the mean over trials, except that with several
// trials the two speed figures are those of the trials pooled (one multi-chain ESS over the wait
// for all of them, as the diagnostics table reports chains); a dashed vertical line
// marks the form's value of the setting. Clicking a point of a line reports its setting value.
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include "core/experiment/sweep/sweep.h"

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QGridLayout;
class QLabel;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace ui {

class ThemedChartView;

class TradeoffsGrid : public QWidget {
    Q_OBJECT
public:
    /// The figures plotted, one chart each, in grid order.
    enum Figure { MeanBatch, Acceptance, CorrectionError, Fidelity, EssPerSecond, DataPerEss, FigureCount };

    explicit TradeoffsGrid(QWidget *parent = nullptr);

    /// Empty charts for a sweep of `settingKey` over [from, to] (log x when `logSpacing`), one
    /// line per method entry as tables label it ("minibatch", "minibatch+taylor2"); `logreg`
    /// plots test accuracy instead of posterior TV.
    void reset(const QString &settingKey, double from, double to, bool logSpacing,
               const std::vector<std::string> &methodLabels, bool logreg);
    /// Marks every chart as drawn for settings the form no longer shows (`note` says which, in
    /// each chart's tooltip), or clears the mark with an empty note: the titles, also in
    /// exported files, end in "— earlier settings".
    void setStaleNote(const QString &note);
    bool isStale() const { return !m_staleNote.isEmpty(); }
    /// Redraws every chart from `rows` (any order, any number of points so far); where `pooled`
    /// has a method's trials pooled at a point, its ESS per second and data per ESS are drawn
    /// from those.
    void showRows(const std::vector<core::SweepRow> &rows, const std::vector<core::SweepPooled> &pooled = {});
    /// Moves the vertical marker to the form's value of the setting (NaN hides it).
    void setMarker(double value);

    ThemedChartView *view(int figure) const { return m_views[static_cast<std::size_t>(figure)]; }
    /// Points on `method`'s line of `figure` (NaN figures and, on log axes, non-positive ones are left out).
    int pointCount(int figure, int methodIndex) const;
    /// The half-width of the error bar on `method`'s line of `figure` at `x`: one standard error
    /// of the mean over the trials there (NaN with one trial, for pooled figures, or where the
    /// line has no point).
    double barAt(int figure, int methodIndex, double x) const;
    /// Points of `figure` ringed as drawn from a chain that has not mixed (split R-hat above
    /// 1.01 or a bulk ESS under 100, SweepRow::mixing): the speed figures only, where a
    /// wandering chain's ESS, counted on ranks, would read as the cheapest. 0 on other figures.
    int unconvergedMarkCount(int figure) const;
    /// The y of the point of `method`'s line of `figure` at setting value `x`, or NaN.
    double valueAt(int figure, int methodIndex, double x) const;
    /// The file-name stem part and title of a figure ("mean-batch", "Mean minibatch size").
    static QString figureStem(int figure);
    QString figureTitle(int figure) const;
    /// The title a figure's chart shows, whole: with its "— earlier settings" mark, before it is
    /// broken onto two lines to fit the chart's width.
    QString chartTitle(int figure) const;

signals:
    /// A point of a line was clicked: its setting value.
    void pointClicked(double value);

private:
    struct Panel {
        QChart *chart = nullptr;
        QAbstractAxis *x = nullptr;
        QAbstractAxis *y = nullptr;
        QList<QLineSeries *> lines; // one per method entry
        QList<QLineSeries *> whiskers; // error bars: mean ± one standard error over the trials
        std::vector<std::map<double, double>> halfWidths; // per entry: setting value → bar half-width
        QLineSeries *marker = nullptr;
        QScatterSeries *unconverged = nullptr; // rings round points of unmixed chains (speed figures)
        double yLow = 0.0, yHigh = 1.0;
        bool empty = false; // rows arrived, none with this figure
    };
    void buildPanel(int figure);
    void retitle(Panel &panel, int figure);
    void updateMarker(Panel &panel);
    /// One method's figures at each setting value, a list of its trials' at each.
    std::map<double, std::vector<double>> trialsOf(const std::vector<core::SweepRow> &rows, int figure,
                                                   const std::string &method) const;
    /// One method's pooled speed figure at each value, where the figure is pooled.
    std::map<double, double> pooledLineOf(const std::vector<core::SweepPooled> &pooled, int figure,
                                          const std::string &method) const;
    /// The error bars of one method's line, from bottom to top.
    void drawWhiskers(Panel &panel, int method, const std::vector<std::pair<QPointF, QPointF>> &bars);
    /// A figure's chart title and its y axis's title (what it measures, in its unit).
    struct FigureText {
        QString title, unit;
    };
    FigureText figureText(int figure) const;
    bool logY(int figure) const;
    static bool ringsUnconverged(int figure) { return figure == EssPerSecond || figure == DataPerEss; }

    std::array<ThemedChartView *, FigureCount> m_views{};
    std::array<Panel, FigureCount> m_panels{};
    QGridLayout *m_grid = nullptr;
    QLabel *m_legend = nullptr; // the methods' colours, for every chart
    QString m_legendText;       // its entries before rows arrive (the ring's entry comes with them)
    QString m_setting;
    std::vector<std::string> m_methods; // the entries' labels
    QString m_staleNote;
    bool m_logX = false;
    bool m_logreg = false;
    /// Logistic regression with mh or barker among the methods: the fidelity chart shows each
    /// method's mean shift from that full-data reference (SweepRow::referenceShift), the bias
    /// an approximate method trades for speed, rather than test accuracy.
    bool m_fidelityIsShift = false;
    bool m_pooledSpeed = false; // the speed figures come from pooled trials
    double m_from = 0.0, m_to = 1.0;
    double m_marker = 0.0;
};

} // namespace ui
