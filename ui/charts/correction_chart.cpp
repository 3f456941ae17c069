#include "ui/charts/correction_chart.h"

#include <cmath>
#include <exception>

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/experiment/settings/run_config.h"
#include "ui/charts/chart_style.h"
#include "ui/run/queued_hand_off.h"

namespace ui {
namespace {

constexpr int kProgressSteps = 1000;
constexpr int kProgressPollMs = 50;

QLineSeries *curve(const QString &name, const QPen &pen)
{
    auto *series = new QLineSeries;
    series->setName(name);
    series->setPen(pen);
    return series;
}

QString solverLabel(core::CorrectionSolver solver)
{
    return solver == core::CorrectionSolver::Nnls ? QStringLiteral("NNLS") : QStringLiteral("ridge");
}

} // namespace

CorrectionChart::CorrectionChart(QWidget *parent) : QWidget(parent)
{
    qRegisterMetaType<ui::CorrectionPlot>();
    buildDensityChart();
    buildErrorChart();

    m_summary = new QLabel(tr("No correction table yet."));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busyLabel = new QLabel(tr("Solving…"));
    m_busy = new QProgressBar;
    m_busy->setRange(0, kProgressSteps);
    m_busy->setFixedWidth(160);
    m_busy->setToolTip(tr("Solving the correction table on a background thread; the window stays usable."));
    m_busy->hide();
    m_busyLabel->hide();

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_densityView);
    splitter->addWidget(m_errorView);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_summary, 1);
    statusRow->addWidget(m_busyLabel);
    statusRow->addWidget(m_busy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter, 1);
    layout->addLayout(statusRow);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &CorrectionChart::startSolve);
    m_progressPoll.setInterval(kProgressPollMs);
    connect(&m_progressPoll, &QTimer::timeout, this, [this] {
        if (m_progress)
            m_busy->setValue(m_progress->load());
    });
    connect(m_errorView->chart(), &QChart::plotAreaChanged, this, &CorrectionChart::placeLinfLabel);
}

CorrectionChart::~CorrectionChart()
{
    m_stop.request_stop();
    for (auto *watcher : m_watchers)
        watcher->waitForFinished();
}

void CorrectionChart::buildDensityChart()
{
    auto *chart = new QChart;
    chart->setTitle(tr("Correction distribution C_σ"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_logistic = curve(tr("logistic (target)"), QPen(seriesColour(1), 3.0));
    m_convolved = curve(tr("X_norm + X_corr"), QPen(seriesColour(0), 1.6, Qt::DashLine));
    m_gaussian = curve(tr("X_norm ~ N(0, σ²)"), QPen(seriesColour(2), 1.6));
    m_correction = curve(tr("C_σ"), QPen(seriesColour(3), 1.4));
    m_densityX = valueAxis(tr("x"), QStringLiteral("%.0f"), -kCorrectionPlotRange, kCorrectionPlotRange, 9);
    m_densityY = valueAxis(tr("density"), QStringLiteral("%.2f"));
    m_massY = valueAxis(tr("atom probability"), QStringLiteral("%.2f"));
    chart->addAxis(m_densityX, Qt::AlignBottom);
    chart->addAxis(m_densityY, Qt::AlignLeft);
    chart->addAxis(m_massY, Qt::AlignRight);
    // C_σ first, so the smooth curves are drawn over its stems.
    for (QLineSeries *series : {m_correction, m_gaussian, m_logistic, m_convolved}) {
        chart->addSeries(series);
        series->attachAxis(m_densityX);
        series->attachAxis(series == m_correction ? m_massY : m_densityY);
    }
    m_densityView = new ThemedChartView(chart);
    // Readable at the minimum; on a smaller screen the tab scrolls (ResultsView).
    m_densityView->setMinimumSize(420, 240);
    m_densityView->restyle();
}

void CorrectionChart::buildErrorChart()
{
    auto *chart = new QChart;
    chart->setTitle(tr("CDF error |Φ_σ * C_σ − S| (log scale)"));
    chart->legend()->hide();
    m_error = curve(tr("|F − S|"), QPen(seriesColour(0), 1.4));
    m_linfLine = curve(tr("L∞"), QPen(seriesColour(1), 1.4, Qt::DashLine));
    m_errorX = valueAxis(tr("x"), QStringLiteral("%.0f"), -kCorrectionPlotRange, kCorrectionPlotRange, 9);
    m_errorY = new QLogValueAxis;
    m_errorY->setBase(10.0);
    m_errorY->setLabelFormat(QStringLiteral("%.0e"));
    m_errorY->setTitleText(tr("|error|")); // the chart title gives the formula; a longer one is cut on a short chart
    m_errorY->setRange(1e-10, 1e-5);
    chart->addAxis(m_errorX, Qt::AlignBottom);
    chart->addAxis(m_errorY, Qt::AlignLeft);
    for (QLineSeries *series : {m_error, m_linfLine}) {
        chart->addSeries(series);
        series->attachAxis(m_errorX);
        series->attachAxis(m_errorY);
    }
    m_linfLabel = new QGraphicsSimpleTextItem(chart);
    m_linfLabel->setZValue(10.0);
    m_linfLabel->setBrush(seriesColour(1));
    m_errorView = new ThemedChartView(chart);
    m_errorView->setMinimumSize(420, 170);
    m_errorView->restyle();
}

void CorrectionChart::setParams(const core::CorrectionParams &params)
{
    m_wanted = params;
    m_hasWanted = true;
    if (const CorrectionPlot *cached = m_cache.find(params); cached && !(m_hasPlot && m_plot.params == params)) {
        // Drawn at once; a solve in progress for other parameters is no longer wanted.
        m_debounce.stop();
        if (m_solvingActive) {
            m_stop.request_stop();
            m_solves.invalidate();
            m_solvingActive = false;
            setBusy(false);
        }
        showPlot(*cached);
        return;
    }
    const bool shown = m_hasPlot && m_plot.params == params && !m_solvingActive;
    const bool solving = m_solvingActive && m_solving == params;
    if (shown || solving) {
        m_debounce.stop();
        return;
    }
    m_debounce.start();
}

void CorrectionChart::solveNow()
{
    if (m_debounce.isActive())
        startSolve();
}

bool CorrectionChart::isBusy() const
{
    return m_solvingActive || m_debounce.isActive();
}

double CorrectionChart::shownLinf() const
{
    return m_hasPlot ? m_plot.linf : std::nan("");
}

QString CorrectionChart::summaryText() const
{
    return m_summary->text();
}

QString CorrectionChart::linfLabelText() const
{
    return m_linfLabel->text();
}

void CorrectionChart::setBusy(bool busy)
{
    m_busy->setVisible(busy);
    m_busyLabel->setVisible(busy);
    m_busy->setValue(0);
    if (busy)
        m_progressPoll.start();
    else
        m_progressPoll.stop();
    emit busyChanged(busy);
}

void CorrectionChart::startSolve()
{
    m_debounce.stop();
    if (!m_hasWanted)
        return;
    if (m_solvingActive && m_solving == m_wanted)
        return;
    if (!m_solvingActive && m_hasPlot && m_plot.params == m_wanted)
        return;
    m_cache.stopPrewarm(); // the table asked for gets the cores
    // Superseded: the old solve sees its stop token within a few milliseconds and its result
    // is ignored (the latest solve wins).
    m_stop.request_stop();
    m_stop = std::stop_source();
    const LatestJob::Ticket ticket = m_solves.begin();
    m_solving = m_wanted;
    m_solvingActive = true;
    m_progress = std::make_shared<std::atomic<int>>(0);

    const core::CorrectionParams params = m_wanted;
    const std::stop_token stop = m_stop.get_token();
    const auto progress = m_progress;
    auto *watcher = new QFutureWatcher<CorrectionSolveResult>(this);
    m_watchers.append(watcher);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, ticket, watcher] { onSolveFinished(ticket, watcher); });
    watcher->setFuture(runOnPool([params, stop, progress] {
        CorrectionSolveResult result;
        try {
            result.plot = computeCorrectionPlot(
                params, [progress](double f) { progress->store(static_cast<int>(f * kProgressSteps)); }, stop);
        } catch (const core::Cancelled &) {
            result.cancelled = true;
        } catch (const std::exception &error) {
            result.error = QString::fromStdString(error.what());
        }
        return result;
    }));
    m_busyLabel->setText(tr("Solving σ = %1 (%2)…").arg(params.sigma).arg(solverLabel(params.solver)));
    setBusy(true);
    emit solveStarted(params);
}

void CorrectionChart::onSolveFinished(LatestJob::Ticket ticket, QFutureWatcher<CorrectionSolveResult> *watcher)
{
    m_watchers.removeOne(watcher);
    watcher->deleteLater();
    if (!m_solves.isLatest(ticket))
        return; // a newer solve has replaced this one
    m_solvingActive = false;
    setBusy(false);
    const CorrectionSolveResult result = watcher->result();
    if (result.cancelled)
        return;
    if (!result.error.isEmpty()) {
        m_summary->setText(tr("Could not solve the correction table: %1").arg(result.error));
        emit solveFailed(result.error);
        return;
    }
    showPlot(result.plot);
    m_cache.insert(result.plot);
    // Parameters changed to something else while this one was finishing.
    if (m_hasWanted && !(m_wanted == m_plot.params))
        m_debounce.start();
    else
        m_cache.prewarm(result.plot.params);
}

void CorrectionChart::showPlot(const CorrectionPlot &plot)
{
    m_plot = plot;
    m_hasPlot = true;
    const core::CorrectionParams &p = plot.params;
    m_densityView->chart()->setTitle(
        tr("Correction distribution C_σ for σ = %1 (%2 solver)").arg(p.sigma).arg(solverLabel(p.solver)));
    m_logistic->replace(plot.logistic);
    m_gaussian->replace(plot.gaussian);
    m_convolved->replace(plot.convolved);
    m_correction->replace(plot.correction);

    double densityMax = 0.0;
    for (const auto *points : {&plot.logistic, &plot.gaussian, &plot.convolved})
        for (const QPointF &point : *points)
            densityMax = std::max(densityMax, point.y());
    // Stems use the right-hand axis; a dense table shares the density axis.
    const bool onMassAxis = m_correction->attachedAxes().contains(m_massY);
    if (plot.sparse != onMassAxis) {
        m_correction->detachAxis(plot.sparse ? m_densityY : m_massY);
        m_correction->attachAxis(plot.sparse ? m_massY : m_densityY);
    }
    if (plot.sparse) {
        m_correction->setName(tr("C_σ atoms (right axis)"));
        m_massY->setRange(0.0, std::max(plot.correctionMax, 1e-3) * 1.1);
        m_massY->applyNiceNumbers();
    } else {
        m_correction->setName(tr("C_σ density (mass / h)"));
        densityMax = std::max(densityMax, plot.correctionMax);
    }
    m_massY->setVisible(plot.sparse);
    m_densityY->setRange(0.0, densityMax * 1.1);
    m_densityY->applyNiceNumbers();

    m_error->replace(plot.error);
    m_errorY->setRange(plot.errorFloor, plot.errorTop);
    m_linfLine->replace(QList<QPointF>{{-kCorrectionPlotRange, plot.linf}, {kCorrectionPlotRange, plot.linf}});
    m_linfLabel->setText(tr("L∞ = %1").arg(plot.linf, 0, 'g', 3));
    placeLinfLabel();

    const double exactVariance = core::kLogisticSd * core::kLogisticSd - p.sigma * p.sigma;
    const QString lambda = p.solver == core::CorrectionSolver::Ridge ? tr("λ = %1").arg(p.lambda)
                                                                      : tr("λ not used by NNLS");
    m_summary->setText(tr("σ = %1, %2, %3 solver, grid N = %L4, V = %5: %L6 atoms with mass. Var C_σ = %7 "
                          "(exact π²/3 − σ² = %8). L∞ = %9 (paper's convention, on the solve grid: %10). %11 "
                          "The logistic and X_norm + X_corr curves coincide when the table is accurate.")
                           .arg(p.sigma)
                           .arg(lambda)
                           .arg(solverLabel(p.solver))
                           .arg(p.grid)
                           .arg(p.range)
                           .arg(plot.atoms)
                           .arg(plot.variance, 0, 'f', 3)
                           .arg(exactVariance, 0, 'f', 3)
                           .arg(plot.linf, 0, 'g', 3)
                           .arg(plot.solveGridLinf, 0, 'g', 3)
                           .arg((plot.fromCache ? tr("Loaded from the cache.")
                                                : tr("Solved in %1 s.").arg(plot.solveSeconds, 0, 'f', 2))
                                + (plot.solverConverged ? QString()
                                                        : tr(" Warning: the NNLS solve stopped at its iteration "
                                                             "limit before converging; this table is not the "
                                                             "optimum (try the ridge solver or another grid)."))));
    emit correctionShown(plot.linf);
}

void CorrectionChart::placeLinfLabel()
{
    if (!m_hasPlot)
        return;
    QChart *chart = m_errorView->chart();
    const QRectF plotArea = chart->plotArea();
    const QPointF at = chart->mapToPosition(QPointF(-kCorrectionPlotRange, m_plot.linf), m_linfLine);
    m_linfLabel->setPos(plotArea.left() + 6.0, at.y() - m_linfLabel->boundingRect().height() - 1.0);
}

} // namespace ui
