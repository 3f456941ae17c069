#include "ui/pages/results_view.h"

#include <algorithm>

#include <QChart>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/charts/accuracy_chart.h"
#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/bright_points_chart.h"
#include "ui/charts/chart_style.h"
#include "ui/pages/compare_page.h"
#include "ui/charts/correction_chart.h"
#include "ui/pages/diagnostics_table.h"
#include "ui/charts/posterior_chart.h"
#include "ui/charts/trace_chart.h"
#include "ui/pages/tradeoffs_grid.h"
#include "ui/pages/tradeoffs_page.h"

namespace ui {
namespace {

QString methodLabel(core::TestMethod method)
{
    return QString::fromStdString(core::methodName(method));
}

// Entry `index` of the request as tables name it ("minibatch+taylor2").
QString entryLabel(const RunRequest &request, std::size_t index)
{
    return QString::fromStdString(request.methodLabel(index));
}

} // namespace

QColor channelColour(int methodIndex, int chainIndex)
{
    const QColor colour = seriesColour(methodIndex);
    switch (chainIndex % 4) {
    case 1: return colour.lighter(145);
    case 2: return colour.darker(145);
    case 3: return colour.lighter(190);
    default: return colour;
    }
}

namespace {

// A chart page inside a scroll area: on a small screen (1366 × 768 at QT_SCALE_FACTOR 1.5
// leaves 910 × 512) the page scrolls at its charts' minimum sizes instead of squashing them or
// making the window taller than the screen.
QWidget *scrolling(QWidget *page)
{
    auto *area = new QScrollArea;
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

QStringList ResultsView::tabKeys()
{
    return {QStringLiteral("posterior"),   QStringLiteral("sizes"),    QStringLiteral("correction"),
            QStringLiteral("traces"),      QStringLiteral("diagnostics"), QStringLiteral("accuracy"),
            QStringLiteral("tradeoffs")};
}

int ResultsView::tabIndex(const QString &key)
{
    return static_cast<int>(tabKeys().indexOf(key));
}

ResultsView::ResultsView(QWidget *parent) : QTabWidget(parent)
{
    m_comparePage = new ComparePage;
    m_histogram = new BatchSizeHistogram;
    m_correction = new CorrectionChart;
    m_traces = new TraceChart;
    m_table = new DiagnosticsTable;
    addTab(scrolling(m_comparePage), tr("&Posterior"));
    addTab(scrolling(m_histogram), tr("Minibatch si&zes"));
    addTab(scrolling(m_correction), tr("&Correction C_σ"));
    // FlyMC's bright points under the traces, shown when a run has FlyMC chains.
    m_bright = new BrightPointsChart;
    auto *traces = new QWidget;
    auto *tracesLayout = new QVBoxLayout(traces);
    tracesLayout->setContentsMargins(0, 0, 0, 0);
    tracesLayout->addWidget(m_traces, 2);
    tracesLayout->addWidget(m_bright, 1);
    addTab(scrolling(traces), tr("&Traces"));
    auto *diagnostics = new QWidget;
    auto *diagnosticsLayout = new QVBoxLayout(diagnostics);
    diagnosticsLayout->setContentsMargins(0, 0, 0, 0);
    diagnosticsLayout->addWidget(m_table, 1);
    auto *note = new QLabel(tr("One row per chain, filled when a run ends. b is the number of data points one "
                               "test read; data used counts minibatches and full-data passes, also in multiples of "
                               "N. ESS is the rank-normalised bulk effective sample size; split R̂ (Vehtari et al. "
                               "2021) compares the halves of every chain of a method, and with Chains set to 2 "
                               "or more the chains with each other. TV is the total variation to the "
                               "exact posterior (Seita et al. Sec. 6.1). Hover over a header for details."));
    note->setWordWrap(true);
    note->setContentsMargins(4, 4, 4, 4);
    diagnosticsLayout->addWidget(note);
    addTab(diagnostics, tr("&Diagnostics"));
    m_accuracy = new AccuracyChart;
    addTab(scrolling(m_accuracy), tr("Accurac&y"));
    m_tradeoffs = new TradeoffsPage;
    addTab(scrolling(m_tradeoffs), tr("Trade-offs")); // every letter is some other control's Alt key
    setTabToolTip(PosteriorTab, tr("Samples over the exact tempered posterior; comparing methods, one chart per "
                                   "method and their minibatch sizes side by side."));
    setTabToolTip(HistogramTab, tr("How many data points each test read, log–log (Seita et al. Figures 2 and 4)."));
    setTabToolTip(CorrectionTab, tr("The correction distribution for the σ, λ and solver in the panel (Sec. 4)."));
    setTabToolTip(TraceTab, tr("θ₁ and θ₂ against the iteration, per chain."));
    setTabToolTip(DiagnosticsTab, tr("Per-chain acceptance, minibatch sizes, ESS and R-hat after a run."));
    setTabToolTip(AccuracyTab, tr("Logistic regression: test accuracy and log-likelihood against the data read "
                                  "(Seita et al. Sec. 6.2, Figure 3)."));
    setTabToolTip(TradeoffsTab, tr("Sweep one setting over a range with the form's methods: minibatch size, "
                                   "correction error, fidelity and speed against it (Seita et al. Sec. 4–5)."));
    m_comparePage->setUp({tr("Posterior samples over the true tempered log-posterior")}, {}, 0);
    m_histogram->reset({methodLabel(core::RunConfig{}.method)}, core::RunConfig{}.nData);
    m_traces->reset({tr("chain 1")}, {seriesColour(0)}, core::RunConfig{}.samples);
}

int ResultsView::posteriorChartCount() const
{
    return static_cast<int>(m_comparePage->charts().size());
}

PosteriorChart *ResultsView::posteriorChart(int methodIndex) const
{
    return m_comparePage->charts().value(methodIndex);
}

void ResultsView::beginRun(const RunRequest &request)
{
    m_request = request;
    QStringList methods, posteriorTitles, channels;
    QList<QColor> colours;
    const bool compare = request.methods.size() > 1;
    // Only the mixture has an exact posterior to draw behind the samples.
    const core::DatasetEntry *data = core::findDataset(request.config.dataset);
    const bool mixture = data && data->exactPosteriorMap;
    m_dimension = data && data->fixedDimension == 1 ? 1 : 2; // charts show two weights of a larger θ
    for (std::size_t m = 0; m < request.methods.size(); ++m) {
        const QString label = entryLabel(request, m);
        methods.append(label);
        if (compare)
            posteriorTitles.append(tr("%1: posterior samples").arg(label));
        else if (mixture)
            posteriorTitles.append(tr("Posterior samples over the true tempered log-posterior (%1)").arg(label));
        else if (m_dimension == 1)
            posteriorTitles.append(tr("Posterior samples of θ (%1)").arg(label));
        else if (core::modelOf(request.config).classifier)
            posteriorTitles.append(tr("Posterior samples of the two most discriminative weights (%1)").arg(label));
        else
            posteriorTitles.append(tr("Posterior samples of the first two coefficients (%1)").arg(label));
    }
    for (int channel = 0; channel < request.channelCount(); ++channel) {
        const int method = request.methodIndexOf(channel), chain = request.chainIndexOf(channel);
        channels.append(request.chains > 1 ? tr("%1 #%2").arg(methods[method]).arg(chain + 1) : methods[method]);
        // One method: chains in distinct hues; comparing: each method's hue, shaded per chain.
        colours.append(request.methods.size() == 1 ? seriesColour(chain) : channelColour(method, chain));
    }
    // Real data have their own N, known once loaded (the first snapshot brings it).
    const qint64 nData = data && !data->generated ? 0 : request.config.nData;
    m_comparePage->setUp(posteriorTitles, methods, nData);
    applyPins();
    const qint64 perChart = std::min<qint64>(request.config.samples, SamplerWorker::kMaxPlottedSamples) * request.chains;
    for (PosteriorChart *chart : m_comparePage->charts()) {
        chart->setExpectedSampleCount(perChart);
        if (!mixture)
            chart->setFreeAxes(m_dimension);
    }
    m_histogram->reset(methods, nData);
    m_traces->reset(channels, colours, request.config.samples);
    m_traces->setDimension(m_dimension);
    std::vector<bool> flymc;
    for (int channel = 0; channel < request.channelCount(); ++channel)
        flymc.push_back(request.methods[static_cast<std::size_t>(request.methodIndexOf(channel))]
                        == core::TestMethod::Firefly);
    m_bright->reset(channels, colours, flymc, request.untilStopped ? 0 : request.config.samples);
    if (request.untilStopped) {
        // A moving window of the latest `samples` iterations per chain.
        const qint64 window = request.config.samples;
        const qint64 stride = (window + SamplerWorker::kMaxWindowPoints - 1) / SamplerWorker::kMaxWindowPoints;
        for (PosteriorChart *chart : m_comparePage->charts())
            chart->setWindow(window / std::max<qint64>(stride, 1) * request.chains);
        m_histogram->setWindow(window * request.chains);
        if (BatchSizeHistogram *overview = m_comparePage->histogram())
            overview->setWindow(window * request.chains);
        m_traces->setWindow(window);
    }
    m_accuracy->reset(channels, colours, core::isLogisticDataset(request.config.dataset));
    m_table->clearRows();
}

void ResultsView::applySnapshot(const RunSnapshot &snapshot)
{
    const int method = m_request.methodIndexOf(snapshot.channel);
    const qint64 burnIn = m_request.untilStopped ? 0 : m_request.channelConfig(snapshot.channel).burnIn;
    // The cloud holds the draws after the burn-in, every sampleStride-th: the draws the samples
    // file, the summaries and the posterior's TV describe. During the burn-in the chart shows the
    // chain's current state and proposal only; the traces show the burn-in's path.
    if (PosteriorChart *chart = posteriorChart(method)) {
        const qint64 stride = std::max<qint64>(snapshot.sampleStride, 1);
        const auto firstDrawAtOrAfter = [stride](qint64 t) { return (t + stride - 1) / stride; };
        const qsizetype before = std::clamp<qint64>(firstDrawAtOrAfter(burnIn) - firstDrawAtOrAfter(snapshot.first), 0,
                                                    snapshot.newSamples.size());
        chart->appendSamples(before > 0 ? snapshot.newSamples.mid(before) : snapshot.newSamples, snapshot.current,
                             snapshot.proposal);
        chart->appendPath(snapshot.channel, snapshot.path);
    }
    // The histogram counts the tests after the burn-in, the scope of the chain summaries, the
    // status strip and the Diagnostics table, so that its mean is theirs.
    const qsizetype skip = std::clamp<qint64>(burnIn - snapshot.first, 0, snapshot.newBatchSizes.size());
    const QVector<qint64> kept = skip > 0 ? snapshot.newBatchSizes.mid(skip) : snapshot.newBatchSizes;
    m_histogram->appendBatchSizes(method, kept);
    if (BatchSizeHistogram *overview = m_comparePage->histogram())
        overview->appendBatchSizes(method, kept);
    m_traces->appendSamples(snapshot.channel, snapshot.newSamples, snapshot.first, snapshot.sampleStride);
    m_accuracy->appendPoints(snapshot.channel, snapshot.newClassifierPoints);
    m_bright->appendCounts(snapshot.channel, snapshot.first, snapshot.newBrightPoints, snapshot.newBatchSizes);
    if (snapshot.dataSize > 0) {
        m_histogram->setDataSize(snapshot.dataSize);
        if (BatchSizeHistogram *overview = m_comparePage->histogram())
            overview->setDataSize(snapshot.dataSize);
    }
}

void ResultsView::setComponentNames(const QStringList &names)
{
    for (PosteriorChart *chart : m_comparePage->charts())
        chart->setComponentNames(names);
    m_traces->setComponentNames(names);
}

void ResultsView::previewForm(const RunRequest &form)
{
    if (form.config.dataset == m_request.config.dataset && form.methods == m_request.methods
        && form.controlVariates == m_request.controlVariates && form.chains == m_request.chains)
        return;
    beginRun(form);
    if (const core::DatasetEntry *data = core::findDataset(form.config.dataset); data && data->exactPosteriorMap && m_lastImage)
        m_comparePage->setPosteriorImage(*m_lastImage);
}

void ResultsView::setPosteriorImage(const PosteriorImage &image)
{
    m_lastImage = image;
    m_comparePage->setPosteriorImage(image);
}

void ResultsView::flushAll()
{
    for (PosteriorChart *chart : m_comparePage->charts())
        chart->flush();
    m_histogram->flush();
    if (BatchSizeHistogram *overview = m_comparePage->histogram())
        overview->flush();
    m_traces->flush();
    m_bright->flush();
    m_accuracy->flush();
}

void ResultsView::pinPosteriorSamples()
{
    flushAll(); // pin what is queued too, not only what was drawn last
    m_pins.clear();
    for (PosteriorChart *chart : m_comparePage->charts())
        m_pins.append(chart->drawnSamples());
    m_pinnedCounts = m_histogram->pinnableCounts();
    m_pinnedTraces = m_traces->pinnableLines();
    applyPins();
}

void ResultsView::clearPin()
{
    m_pins.clear();
    m_pinnedCounts.clear();
    m_pinnedTraces.clear();
    applyPins();
    for (PosteriorChart *chart : m_comparePage->charts())
        chart->setPinnedSamples({});
}

void ResultsView::applyPins()
{
    // Each run builds new posterior charts: chart k shows the pin of the chart k that was pinned.
    const QList<PosteriorChart *> &charts = m_comparePage->charts();
    for (qsizetype k = 0; k < charts.size() && k < m_pins.size(); ++k)
        charts[k]->setPinnedSamples(m_pins[k]);
    m_histogram->setPinnedCounts(m_pinnedCounts);
    if (BatchSizeHistogram *overview = m_comparePage->histogram())
        overview->setPinnedCounts(m_pinnedCounts);
    m_traces->setPinnedLines(m_pinnedTraces);
}

void ResultsView::flushVisible()
{
    switch (currentIndex()) {
    case PosteriorTab:
        for (PosteriorChart *chart : m_comparePage->charts())
            chart->flush();
        if (BatchSizeHistogram *overview = m_comparePage->histogram())
            overview->flush();
        break;
    case HistogramTab: m_histogram->flush(); break;
    case TraceTab:
        m_traces->flush();
        m_bright->flush();
        break;
    case AccuracyTab: m_accuracy->flush(); break;
    default: break;
    }
}

void ResultsView::finishRun(const RunOutcome &outcome)
{
    flushAll();
    m_table->showOutcome(outcome);
}

qsizetype ResultsView::plottedSampleCount() const
{
    qsizetype total = 0;
    for (const PosteriorChart *chart : m_comparePage->charts())
        total += chart->plottedSampleCount();
    return total;
}

QList<NamedChart> ResultsView::exportableCharts() const
{
    QList<NamedChart> charts;
    const QList<PosteriorChart *> &posterior = m_comparePage->charts();
    for (int k = 0; k < posterior.size(); ++k) {
        const auto index = static_cast<std::size_t>(k);
        const QString method = entryLabel(m_request, index);
        charts.append({posterior.size() > 1 ? QStringLiteral("posterior-%1").arg(method) : QStringLiteral("posterior"),
                       tr("Posterior (%1)").arg(method), posterior[k]});
    }
    charts.append({QStringLiteral("minibatch-sizes"), tr("Minibatch-size histogram"), m_histogram});
    charts.append({QStringLiteral("correction-density"), tr("Correction density"), m_correction->densityView()});
    charts.append({QStringLiteral("correction-cdf-error"), tr("Correction CDF error"), m_correction->errorView()});
    charts.append({QStringLiteral("trace-theta1"), tr("Trace of θ₁"), m_traces->view(0)});
    if (m_dimension > 1)
        charts.append({QStringLiteral("trace-theta2"), tr("Trace of θ₂"), m_traces->view(1)});
    if (m_bright->isActive())
        charts.append({QStringLiteral("flymc-bright-points"), tr("FlyMC bright points"), m_bright});
    if (m_accuracy->isActive()) {
        charts.append({QStringLiteral("accuracy"), tr("Test accuracy against data read"), m_accuracy->accuracyView()});
        charts.append({QStringLiteral("test-loglik"), tr("Test log-likelihood against data read"),
                       m_accuracy->logLikelihoodView()});
    }
    if (m_tradeoffs->hasRows()) {
        const QString setting = QString::fromStdString(m_tradeoffs->outcome().settingKey);
        const TradeoffsGrid *grid = m_tradeoffs->grid();
        for (int figure = 0; figure < TradeoffsGrid::FigureCount; ++figure)
            charts.append({QStringLiteral("tradeoffs-%1-%2").arg(setting, TradeoffsGrid::figureStem(figure)),
                           tr("%1 against %2").arg(grid->figureTitle(figure), setting), grid->view(figure)});
    }
    return charts;
}

} // namespace ui
