#include "ui/pages/run_chart_pages.h"

#include <algorithm>

#include <QLabel>
#include <QVBoxLayout>

#include "core/experiment/settings/run_config.h"
#include "ui/charts/accuracy_chart.h"
#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/bright_points_chart.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/correction_chart.h"
#include "ui/charts/trace_chart.h"
#include "ui/pages/diagnostics_table.h"

namespace ui {
namespace {

// The iterations of a snapshot's batch sizes after the burn-in: the scope of the chain
// summaries, the status strip and the Diagnostics table, so that the histogram's mean is theirs.
QVector<qint64> sizesAfterBurnIn(const RunSnapshot &snapshot, qint64 burnIn)
{
    const qsizetype skip = std::clamp<qint64>(burnIn - snapshot.first, 0, snapshot.newBatchSizes.size());
    return skip > 0 ? snapshot.newBatchSizes.mid(skip) : snapshot.newBatchSizes;
}

} // namespace

// --- Minibatch sizes -------------------------------------------------------------------------

SizesPage::SizesPage()
    : ChartPage(new BatchSizeHistogram, tr("Minibatch si&zes"),
                tr("How many data points each test read, log–log (Seita et al. Figures 2 and 4).")),
      m_histogram(static_cast<BatchSizeHistogram *>(widget()))
{
    const core::RunConfig defaults;
    m_histogram->reset({QString::fromStdString(core::methodName(defaults.method))}, defaults.nData);
}

void SizesPage::beginRun(const RunLayout &layout, const PinnedRun &pin)
{
    showPin(pin); // first, so that the run's series are drawn over it
    m_histogram->reset(layout.methods, layout.dataSize);
    if (layout.window > 0)
        m_histogram->setWindow(layout.window * layout.request.chains);
}

void SizesPage::applySnapshot(const RunSnapshot &snapshot, const RunLayout &layout)
{
    m_histogram->appendBatchSizes(layout.methodOf(snapshot.channel),
                                  sizesAfterBurnIn(snapshot, layout.burnInOf(snapshot.channel)));
    if (snapshot.dataSize > 0)
        m_histogram->setDataSize(snapshot.dataSize);
}

void SizesPage::flush()
{
    m_histogram->flush();
}

void SizesPage::pinInto(PinnedRun &pin) const
{
    pin.sizes = m_histogram->pinnableCounts();
}

void SizesPage::showPin(const PinnedRun &pin)
{
    m_histogram->setPinnedCounts(pin.sizes);
}

QList<NamedChart> SizesPage::exportViews() const
{
    return {{QStringLiteral("minibatch-sizes"), tr("Minibatch-size histogram"), m_histogram}};
}

// --- Correction distribution -----------------------------------------------------------------

CorrectionPage::CorrectionPage()
    : ChartPage(new CorrectionChart, tr("&Correction C_σ"),
                tr("The correction distribution for the σ, λ and solver in the panel (Sec. 4).")),
      m_chart(static_cast<CorrectionChart *>(widget()))
{
}

QList<NamedChart> CorrectionPage::exportViews() const
{
    return {{QStringLiteral("correction-density"), tr("Correction density"), m_chart->densityView()},
            {QStringLiteral("correction-cdf-error"), tr("Correction CDF error"), m_chart->errorView()}};
}

// --- Traces and bright points ----------------------------------------------------------------

TracesPage::TracesPage()
    : ChartPage(new QWidget, tr("&Traces"), tr("θ₁ and θ₂ against the iteration, per chain.")),
      m_traces(new TraceChart), m_bright(new BrightPointsChart)
{
    auto *layout = new QVBoxLayout(widget());
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_traces, 2);
    layout->addWidget(m_bright, 1); // shown when a run has FlyMC chains
    m_traces->reset({tr("chain 1")}, {seriesColour(0)}, core::RunConfig{}.samples);
}

void TracesPage::beginRun(const RunLayout &layout, const PinnedRun &pin)
{
    showPin(pin); // first, so that the run's lines are drawn over it
    const RunRequest &request = layout.request;
    m_dimension = layout.dimension;
    m_traces->reset(layout.channels, layout.colours, request.config.samples);
    m_traces->setDimension(layout.dimension);
    std::vector<bool> flymc;
    for (int channel = 0; channel < request.channelCount(); ++channel)
        flymc.push_back(request.methods[static_cast<std::size_t>(layout.methodOf(channel))]
                        == core::TestMethod::Firefly);
    m_bright->reset(layout.channels, layout.colours, flymc, request.untilStopped ? 0 : request.config.samples);
    if (layout.window > 0)
        m_traces->setWindow(layout.window);
}

void TracesPage::applySnapshot(const RunSnapshot &snapshot, const RunLayout &)
{
    m_traces->appendSamples(snapshot.channel, snapshot.newSamples, snapshot.first, snapshot.sampleStride);
    m_bright->appendCounts(snapshot.channel, snapshot.first, snapshot.newBrightPoints, snapshot.newBatchSizes);
}

void TracesPage::flush()
{
    m_traces->flush();
    m_bright->flush();
}

void TracesPage::setComponentNames(const QStringList &names)
{
    m_traces->setComponentNames(names);
}

void TracesPage::pinInto(PinnedRun &pin) const
{
    pin.traces = m_traces->pinnableLines();
}

void TracesPage::showPin(const PinnedRun &pin)
{
    m_traces->setPinnedLines(pin.traces);
}

QList<NamedChart> TracesPage::exportViews() const
{
    QList<NamedChart> charts{{QStringLiteral("trace-theta1"), tr("Trace of θ₁"), m_traces->view(0)}};
    if (m_dimension > 1)
        charts.append({QStringLiteral("trace-theta2"), tr("Trace of θ₂"), m_traces->view(1)});
    if (m_bright->isActive())
        charts.append({QStringLiteral("flymc-bright-points"), tr("FlyMC bright points"), m_bright});
    return charts;
}

// --- Diagnostics -----------------------------------------------------------------------------

DiagnosticsPage::DiagnosticsPage()
    : ChartPage(new QWidget, tr("&Diagnostics"), tr("Per-chain acceptance, minibatch sizes, ESS and R-hat after a run.")),
      m_table(new DiagnosticsTable)
{
    auto *layout = new QVBoxLayout(widget());
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    auto *note = new QLabel(tr("One row per chain, filled when a run ends. b is the number of data points one "
                               "test read; data used counts minibatches and full-data passes, also in multiples of "
                               "N. ESS is the rank-normalised bulk effective sample size; split R̂ (Vehtari et al. "
                               "2021) compares the halves of every chain of a method, and with Chains set to 2 "
                               "or more the chains with each other. TV is the total variation to the "
                               "exact posterior (Seita et al. Sec. 6.1). Hover over a header for details."));
    note->setWordWrap(true);
    note->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(note);
}

void DiagnosticsPage::beginRun(const RunLayout &, const PinnedRun &)
{
    m_table->clearRows();
}

void DiagnosticsPage::finishRun(const RunOutcome &outcome)
{
    m_table->showOutcome(outcome);
}

// --- Test accuracy ---------------------------------------------------------------------------

AccuracyPage::AccuracyPage()
    : ChartPage(new AccuracyChart, tr("Accurac&y"),
                tr("Logistic regression: test accuracy and log-likelihood against the data read (Seita et al. "
                   "Sec. 6.2, Figure 3).")),
      m_chart(static_cast<AccuracyChart *>(widget()))
{
}

void AccuracyPage::beginRun(const RunLayout &layout, const PinnedRun &)
{
    m_chart->reset(layout.channels, layout.colours, core::isLogisticDataset(layout.request.config.dataset));
}

void AccuracyPage::applySnapshot(const RunSnapshot &snapshot, const RunLayout &)
{
    m_chart->appendPoints(snapshot.channel, snapshot.newClassifierPoints);
}

void AccuracyPage::flush()
{
    m_chart->flush();
}

QList<NamedChart> AccuracyPage::exportViews() const
{
    if (!m_chart->isActive())
        return {};
    return {{QStringLiteral("accuracy"), tr("Test accuracy against data read"), m_chart->accuracyView()},
            {QStringLiteral("test-loglik"), tr("Test log-likelihood against data read"), m_chart->logLikelihoodView()}};
}

} // namespace ui
