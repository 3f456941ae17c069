#include "ui/pages/diagnostics_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <QHeaderView>
#include <QScrollBar>

#include "core/experiment/reports/mixing_check.h"
#include "ui/charts/chart_style.h"

namespace ui {
namespace {

QTableWidgetItem *makeCell(const QString &text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
{
    auto *cell = new QTableWidgetItem(text);
    cell->setTextAlignment(alignment);
    cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return cell;
}

QString number(double value, int decimals)
{
    return std::isfinite(value) ? QStringLiteral("%L1").arg(value, 0, 'f', decimals) : QStringLiteral("—");
}

QString count(qint64 value)
{
    return QStringLiteral("%L1").arg(value);
}

// "950", "406,100", "34.4 M", "2.15 G": exact below ten million, three digits above.
QString compactCount(qint64 value)
{
    const auto v = static_cast<double>(value);
    if (value >= 1'000'000'000)
        return QStringLiteral("%L1 G").arg(v / 1e9, 0, 'f', 2);
    if (value >= 10'000'000)
        return QStringLiteral("%L1 M").arg(v / 1e6, 0, 'f', 1);
    return count(value);
}

// R-hat and min ESS of a chain that has not mixed (red) or not converged (amber): colours
// that read on light and dark themes (mixing_check.h).
const QColor kNotMixedColour(0xd3, 0x2f, 0x2f);
const QColor kNotConvergedColour(0xe0, 0x8a, 0x00);

// The method column's widest: a compare's labels and a retuned chain's "(T = …, step …)" are
// elided past it, so that the figures keep the width at 1280 pixels.
constexpr int kMaxMethodWidth = 230;

// The speed figures per effective sample, after the columns the header names.
enum SpeedColumn {
    EssMinColumn = DiagnosticsTable::ColumnCount,
    EssMedianColumn,
    PointsPerEssColumn,
    PooledEssColumn,
    PooledEssPerSecondColumn,
    AllColumnCount
};

/// The method's cell: its label, and for a chain retuned during the run the final segment's T
/// and step, since its statistics are that segment's.
QTableWidgetItem *methodCell(const RunOutcome &outcome, const ChainReport &report)
{
    // A chain retuned during the run (or started after a change) targets another posterior
    // than the run's settings say: its row says which, since its statistics are the final
    // segment's.
    QString methodText = QString::fromStdString(report.methodLabel());
    const auto &segments = report.result ? report.result->segments : std::vector<core::ChainSegment>{};
    const core::RunConfig settings = outcome.request.channelConfig(report.channel);
    const bool retuned = report.result && report.result->retuned(settings.temperature, settings.step);
    // A burn-in that learned the step retunes the chain once: one segment at the target.
    if (retuned && report.result->targetSegmentCount() > 1)
        methodText = DiagnosticsTable::tr("%1 (T = %L2, step %L3; %4 segments)")
                         .arg(methodText)
                         .arg(segments.back().temperature, 0, 'g', 6)
                         .arg(segments.back().step, 0, 'g', 4)
                         .arg(report.result->targetSegmentCount());
    else if (retuned)
        methodText = DiagnosticsTable::tr("%1 (T = %L2, step %L3)")
                         .arg(methodText)
                         .arg(segments.back().temperature, 0, 'g', 6)
                         .arg(segments.back().step, 0, 'g', 4);
    auto *method = makeCell(methodText, Qt::AlignLeft | Qt::AlignVCenter);
    if (retuned)
        method->setToolTip(DiagnosticsTable::tr("T or the step changed during the run: ESS, R-hat and TV describe the final "
                              "segment, from iteration %L1.")
                               .arg(segments.back().start));
    return method;
}

/// The data-used cell, compact ("2.15 G (2,150 N)") so that every column fits a 1024-pixel
/// window; the exact counts are in the tooltip.
QTableWidgetItem *dataUsedCell(const core::ChainSummary &s, qint64 nData)
{
    const qint64 used = s.dataPointsUsed() + s.fullScanPoints;
    auto *data = makeCell(nData > 0 ? DiagnosticsTable::tr("%1 (%L2 N)")
                                          .arg(compactCount(used))
                                          .arg(static_cast<double>(used) / static_cast<double>(nData), 0, 'f',
                                               used >= 100 * nData ? 0 : 1)
                                    : compactCount(used));
    data->setToolTip(DiagnosticsTable::tr("%L1 points: %L2 in minibatches, %L3 in full-data passes")
                         .arg(used)
                         .arg(s.dataPointsUsed())
                         .arg(s.fullScanPoints));
    return data;
}

/// Colours the mixing cells of a chain that has not mixed or converged, and says why.
void markMixing(const ChainReport &report, std::initializer_list<QTableWidgetItem *> cells)
{
    if (const core::MixingVerdict mixing = core::checkMixing(report); !mixing.figures.empty()) {
        const bool notMixed = mixing.level == core::Mixing::NotMixed;
        const QString why = notMixed ? DiagnosticsTable::tr("Not mixed: %1. The figures describe where the chain went, not the "
                                          "posterior: run longer, or choose a proposal that mixes on this data.")
                                     : DiagnosticsTable::tr("Not converged: %1. The chain moves, but its estimates carry more "
                                          "error than their ESS says: run longer.");
        for (QTableWidgetItem *cell : cells) {
            cell->setForeground(notMixed ? kNotMixedColour : kNotConvergedColour);
            QFont font = cell->font();
            font.setBold(notMixed);
            cell->setFont(font);
            cell->setToolTip(why.arg(QString::fromStdString(mixing.figures))
                             + DiagnosticsTable::tr(" (Vehtari et al. 2021 ask for split R-hat ≤ 1.01 and a bulk ESS of at least "
                                  "100 a chain.)"));
        }
    }
}

} // namespace

DiagnosticsTable::DiagnosticsTable(QWidget *parent) : QTableWidget(0, AllColumnCount, parent)
{
    struct Header {
        int column;
        const char *title;
        const char *toolTip;
    };
    // QT_TR_NOOP marks the texts for translation; tr() below translates them.
    const Header headers[] = {
        {MethodColumn, QT_TR_NOOP("Method"), QT_TR_NOOP("Acceptance test of this chain.")},
        {ChainColumn, QT_TR_NOOP("Chain (seed)"),
         QT_TR_NOOP("Chain number within the method, and its seed: chain k uses seed + k − 1.")},
        {AcceptanceColumn, QT_TR_NOOP("Accept."),
         QT_TR_NOOP("Share of proposals accepted over this chain's iterations after the burn-in: the run "
                    "summary's acceptance_rate.")},
        {MeanBatchColumn, QT_TR_NOOP("Mean b"),
         QT_TR_NOOP("Mean number of data points one acceptance test read over this chain's iterations after the "
                    "burn-in (Seita et al. Table 1): the run summary's mean_batch, over the same tests as the "
                    "histogram and the status strip.")},
        {SdBatchColumn, QT_TR_NOOP("SD b"), QT_TR_NOOP("Standard deviation of the points one test read.")},
        {MaxBatchColumn, QT_TR_NOOP("Max b"), QT_TR_NOOP("Most points any single test read.")},
        {DataUsedColumn, QT_TR_NOOP("Data used"),
         QT_TR_NOOP("Data points this chain's tests read after the burn-in: minibatches plus any extra full-data "
                    "passes (MHSubLhd's range bound, AustereMH(nc)'s μ_std). Gradient reads of the proposal and "
                    "the burn-in's reads are not counted here; the status strip's total counts them.")},
        {EssTheta1Column, QT_TR_NOOP("ESS θ₁"),
         QT_TR_NOOP("Rank-normalised bulk effective sample size of θ₁ (Vehtari et al. 2021) over this chain.")},
        {EssTheta2Column, QT_TR_NOOP("ESS θ₂"),
         QT_TR_NOOP("Rank-normalised bulk effective sample size of θ₂ over this chain.")},
        {EssPerSecondColumn, QT_TR_NOOP("ESS / s"),
         QT_TR_NOOP("The smaller of the two bulk ESS divided by the chain's whole wall-clock time, burn-in included "
                    "and pauses left out. The ESS counts the final segment only (after any burn-in, or the last "
                    "change of T or the step), but the chain took all of that time to get it.")},
        {RhatColumn, QT_TR_NOOP("Split R̂"),
         QT_TR_NOOP("Rank-normalised split R-hat over all chains of this method (one chain: its two halves), "
                    "the larger of the bulk and the folded value (Vehtari et al. 2021), worst θ component. "
                    "Above 1.01 signals that the chains disagree.")},
        {PosteriorTvColumn, QT_TR_NOOP("TV"),
         QT_TR_NOOP("Total variation between the samples and the exact tempered posterior on 0.1 × 0.1 cells "
                    "(Seita et al. Sec. 6.1); complete runs only.")},
        {EssMinColumn, QT_TR_NOOP("Min ESS"), QT_TR_NOOP("The smallest bulk ESS over every θ coordinate (all the weights of a classifier, not only "
                    "the two plotted): the one ESS / s uses.")},
        {EssMedianColumn, QT_TR_NOOP("Median ESS"),
         QT_TR_NOOP("Median bulk ESS over every θ coordinate.")},
        {PointsPerEssColumn, QT_TR_NOOP("Points / ESS"),
         QT_TR_NOOP("Data points the chain read (minibatches and full-data passes, burn-in included) per effective "
                    "sample (min ESS): the cost of one effective sample in data, whatever the machine.")},
        {PooledEssColumn, QT_TR_NOOP("Pooled ESS"),
         QT_TR_NOOP("Several chains per method: the smallest multi-chain bulk ESS over every θ coordinate, "
                    "all of this method's chains together (Vehtari et al. 2021), each cut to the shortest chain.")},
        {PooledEssPerSecondColumn, QT_TR_NOOP("Pooled ESS / s"),
         QT_TR_NOOP("Pooled ESS divided by the time the method's chains took: the longest chain's wall time when "
                    "they ran at once, their total when they ran one after the other.")},
    };
    for (const Header &header : headers) {
        auto *cell = new QTableWidgetItem(tr(header.title));
        cell->setToolTip(tr(header.toolTip));
        setHorizontalHeaderItem(header.column, cell);
    }
    verticalHeader()->hide();
    // Whether the chain mixed, and what an effective sample cost, are read first: split R̂, the
    // smallest ESS, ESS per second and data points per ESS stand beside the chain, then the
    // pooled figures (the run's, with several chains), and only then the batch columns, so
    // that the first ones are in view at 1280 pixels even beside an eight-method compare.
    int next = ChainColumn + 1;
    for (const int column : {int(RhatColumn), int(EssMinColumn), int(EssPerSecondColumn), int(PointsPerEssColumn),
                             int(PooledEssColumn), int(PooledEssPerSecondColumn)})
        horizontalHeader()->moveSection(horizontalHeader()->visualIndex(column), next++);
    // Figures are never cut: their columns fit their contents. The method's label may be long
    // (a retuned chain names its final T and step): its column is capped and elides the label,
    // whose whole text is in the tooltip.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(MethodColumn, QHeaderView::Interactive);
    horizontalHeader()->setStretchLastSection(false);
    setTextElideMode(Qt::ElideRight);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    buildFrozenMethodColumn();
}

void DiagnosticsTable::buildFrozenMethodColumn()
{
    // A second view over the same model, showing the method column alone, laid over the
    // table's first column: scrolling sideways moves the figures under it, never the method
    // away, so a compare row can still be told from another.
    m_frozen = new QTableView(this);
    m_frozen->setModel(model());
    m_frozen->setSelectionModel(selectionModel());
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->verticalHeader()->hide();
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(verticalScrollMode());
    m_frozen->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_frozen->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_frozen->setAlternatingRowColors(true);
    m_frozen->setTextElideMode(Qt::ElideRight);
    m_frozen->setFrameShape(QFrame::NoFrame);
    for (int column = 0; column < columnCount(); ++column)
        m_frozen->setColumnHidden(column, column != MethodColumn);
    viewport()->stackUnder(m_frozen);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section, int, int size) {
        if (section == MethodColumn) {
            m_frozen->setColumnWidth(MethodColumn, size);
            placeFrozenColumn();
        }
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int section, int, int size) { m_frozen->setRowHeight(section, size); });
    // Sideways positions in pixels, stopped at column starts (stopAtColumn): by whole items the
    // scroll would put each next column at the left edge, under the method column.
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    connect(horizontalScrollBar(), &QAbstractSlider::actionTriggered, this, &DiagnosticsTable::stopAtColumn);
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(), &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(), &QAbstractSlider::setValue);
    placeFrozenColumn();
}

void DiagnosticsTable::placeFrozenColumn()
{
    if (!m_frozen)
        return;
    m_frozen->setColumnWidth(MethodColumn, columnWidth(MethodColumn));
    m_frozen->setGeometry(frameWidth(), frameWidth(), columnWidth(MethodColumn),
                          viewport()->height() + horizontalHeader()->height());
}

std::vector<int> DiagnosticsTable::columnStops() const
{
    std::vector<int> stops;
    const int frozenWidth = columnWidth(MethodColumn);
    for (int visual = 1; visual < columnCount(); ++visual) {
        const int column = horizontalHeader()->logicalIndex(visual);
        if (column != MethodColumn && !isColumnHidden(column) && columnWidth(column) > 0)
            stops.push_back(horizontalHeader()->sectionPosition(column) - frozenWidth);
    }
    return stops;
}

int DiagnosticsTable::columnStop(int position, int direction) const
{
    const std::vector<int> stops = columnStops();
    if (stops.empty())
        return position;
    int stop = stops.front();
    if (direction > 0) {
        stop = stops.back();
        for (int candidate : stops)
            if (candidate >= position) {
                stop = candidate;
                break;
            }
    } else if (direction < 0) {
        for (int candidate : stops)
            if (candidate <= position)
                stop = candidate;
    } else {
        for (int candidate : stops)
            if (std::abs(candidate - position) < std::abs(stop - position))
                stop = candidate;
    }
    return std::min(stop, horizontalScrollBar()->maximum());
}

int DiagnosticsTable::neighbourStop(int position, int direction) const
{
    const std::vector<int> stops = columnStops();
    int stop = direction > 0 ? horizontalScrollBar()->maximum() : 0;
    if (direction > 0) {
        for (int candidate : stops)
            if (candidate > position) {
                stop = candidate;
                break;
            }
    } else {
        for (int candidate : stops)
            if (candidate < position)
                stop = candidate;
    }
    return std::clamp(stop, 0, horizontalScrollBar()->maximum());
}

void DiagnosticsTable::stopAtColumn(int action)
{
    // The slider's position already moved by the action; its value follows once this returns
    // (QAbstractSlider::actionTriggered), so the scroll lands on the stop without a detour.
    QScrollBar *bar = horizontalScrollBar();
    if (action == QAbstractSlider::SliderSingleStepAdd || action == QAbstractSlider::SliderSingleStepSub) {
        // An arrow moves one column from where the view is, however narrow: the slider's own
        // step (about a default column's width) skipped the narrow columns (SD b after Mean b).
        bar->setSliderPosition(neighbourStop(bar->value(), action == QAbstractSlider::SliderSingleStepAdd ? 1 : -1));
        return;
    }
    const int direction = action == QAbstractSlider::SliderSingleStepAdd || action == QAbstractSlider::SliderPageStepAdd
                              ? 1
                          : action == QAbstractSlider::SliderSingleStepSub || action == QAbstractSlider::SliderPageStepSub
                              ? -1
                              : 0;
    bar->setSliderPosition(columnStop(bar->sliderPosition(), direction));
}

void DiagnosticsTable::updateGeometries()
{
    QScrollBar *bar = horizontalScrollBar();
    const int before = bar->value();
    QTableWidget::updateGeometries();
    // The range ends at a column stop, past the content's end if need be, so that the last
    // columns can be reached with none cut under the frozen column; and the view stays at (or
    // returns to) a stop when the columns change width (new rows) or the table is resized.
    const std::vector<int> stops = columnStops();
    for (int stop : stops)
        if (stop >= bar->maximum()) {
            bar->setMaximum(stop);
            break;
        }
    const int stop = columnStop(before, 0);
    if (stop != bar->value())
        bar->setValue(stop);
}

void DiagnosticsTable::resizeEvent(QResizeEvent *event)
{
    QTableWidget::resizeEvent(event);
    placeFrozenColumn();
}

void DiagnosticsTable::scrollTo(const QModelIndex &index, ScrollHint hint)
{
    // Keyboard moves never scroll a cell under the frozen column, and end on a column stop.
    if (index.column() != MethodColumn) {
        QTableWidget::scrollTo(index, hint);
        horizontalScrollBar()->setValue(columnStop(horizontalScrollBar()->value(), 0));
    }
}

int DiagnosticsTable::methodColumnWidth() const
{
    return columnWidth(MethodColumn);
}

void DiagnosticsTable::clearRows()
{
    setRowCount(0);
}

void DiagnosticsTable::showOutcome(const RunOutcome &outcome)
{
    setRowCount(static_cast<int>(outcome.chains.size()));
    const qint64 nData = outcome.dataSize;
    // The ESS columns describe the plotted components, named as the charts name them.
    const int essColumns[] = {EssTheta1Column, EssTheta2Column};
    for (int k = 0; k < 2; ++k) {
        const QString name = static_cast<std::size_t>(k) < outcome.componentNames.size()
                                 ? QString::fromStdString(outcome.componentNames[static_cast<std::size_t>(k)])
                                 : (k == 0 ? QStringLiteral("θ₁") : QStringLiteral("θ₂"));
        horizontalHeaderItem(essColumns[k])->setText(tr("ESS %1").arg(name));
    }
    for (int row = 0; row < static_cast<int>(outcome.chains.size()); ++row) {
        const ChainReport &report = outcome.chains[static_cast<std::size_t>(row)];
        const core::ChainSummary &s = report.summary;
        const int methodIndex = outcome.request.methodIndexOf(report.channel);
        auto *method = methodCell(outcome, report);
        method->setForeground(seriesColour(methodIndex));
        setItem(row, MethodColumn, method);
        setItem(row, ChainColumn, makeCell(tr("%1 (%2)").arg(report.chainIndex + 1).arg(report.seed)));
        setItem(row, AcceptanceColumn, makeCell(number(s.acceptanceRate(), 3)));
        setItem(row, MeanBatchColumn, makeCell(number(s.meanBatch(), 1)));
        setItem(row, SdBatchColumn, makeCell(number(s.sdBatch, 1)));
        setItem(row, MaxBatchColumn, makeCell(count(s.maxBatch)));
        auto *data = dataUsedCell(s, nData);
        setItem(row, DataUsedColumn, data);
        const auto ess = [&report](std::size_t k) { return k < report.bulkEss.size() ? report.bulkEss[k] : std::nan(""); };
        setItem(row, EssTheta1Column, makeCell(number(ess(0), 0)));
        setItem(row, EssTheta2Column, makeCell(number(ess(1), 0)));
        setItem(row, EssPerSecondColumn, makeCell(number(report.essPerSecond, 0)));
        setItem(row, RhatColumn, makeCell(number(report.splitRhat, 3)));
        setItem(row, EssMinColumn, makeCell(number(report.essBulkMin, 0)));
        markMixing(report, {item(row, RhatColumn), item(row, EssMinColumn)});
        setItem(row, PosteriorTvColumn,
                makeCell(report.hasPosteriorMetrics ? number(report.posterior.totalVariation, 3) : QStringLiteral("—")));
        setItem(row, EssMedianColumn, makeCell(number(report.essBulkMedian, 0)));
        setItem(row, PointsPerEssColumn, makeCell(number(report.dataPointsPerEss, 0)));
        // The same pooled figures on every row of the method, as split R-hat is.
        const auto pooled = static_cast<std::size_t>(methodIndex) < outcome.pooled.size()
                                ? &outcome.pooled[static_cast<std::size_t>(methodIndex)]
                                : nullptr;
        setItem(row, PooledEssColumn, makeCell(pooled ? number(pooled->essBulkMin, 0) : QStringLiteral("—")));
        auto *pooledSpeed = makeCell(pooled ? number(pooled->essPerSecond, 0) : QStringLiteral("—"));
        if (pooled)
            pooledSpeed->setToolTip(tr("%L1 chains over %L2 s; %L3 data points per pooled ESS")
                                        .arg(pooled->chains)
                                        .arg(pooled->wallSeconds, 0, 'f', 2)
                                        .arg(pooled->dataPointsPerEss, 0, 'f', 0));
        setItem(row, PooledEssPerSecondColumn, pooledSpeed);
    }
    // Columns that say nothing about this run go, so that the others fit without scrolling
    // sideways: TV without an exact posterior, θ₂'s ESS for one parameter, pooled figures for
    // one chain per method.
    bool anyTv = false, anySecond = false;
    for (const ChainReport &report : outcome.chains) {
        anyTv = anyTv || report.hasPosteriorMetrics;
        anySecond = anySecond || report.bulkEss.size() > 1;
    }
    // The method column as wide as its labels, up to a cap; longer labels are elided.
    resizeColumnToContents(MethodColumn);
    setColumnWidth(MethodColumn, std::min(columnWidth(MethodColumn), kMaxMethodWidth));
    setColumnHidden(PosteriorTvColumn, !anyTv);
    setColumnHidden(EssTheta2Column, !anySecond);
    for (const int column : {PooledEssColumn, PooledEssPerSecondColumn})
        setColumnHidden(column, outcome.request.chains < 2);
}

} // namespace ui
