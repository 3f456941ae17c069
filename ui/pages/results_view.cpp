#include "ui/pages/results_view.h"

#include <QScrollArea>

#include "ui/pages/compare_page.h"
#include "ui/pages/posterior_page.h"
#include "ui/pages/run_chart_pages.h"
#include "ui/pages/tradeoffs_page.h"

namespace ui {
namespace {

template <class Page> std::unique_ptr<ChartPage> makePage()
{
    return std::make_unique<Page>();
}

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

const std::vector<ChartPageRow> &chartPageRows()
{
    static const std::vector<ChartPageRow> rows = {
        {"posterior", makePage<PosteriorPage>},     {"sizes", makePage<SizesPage>},
        {"correction", makePage<CorrectionPage>},   {"traces", makePage<TracesPage>},
        {"diagnostics", makePage<DiagnosticsPage>}, {"accuracy", makePage<AccuracyPage>},
        {"tradeoffs", makePage<TradeoffsPage>},
    };
    return rows;
}

QStringList ResultsView::tabKeys()
{
    QStringList keys;
    for (const ChartPageRow &row : chartPageRows())
        keys.append(QString::fromLatin1(row.key));
    return keys;
}

int ResultsView::tabIndex(const QString &key)
{
    return static_cast<int>(tabKeys().indexOf(key));
}

ResultsView::ResultsView(QWidget *parent) : QTabWidget(parent)
{
    for (const ChartPageRow &row : chartPageRows()) {
        std::unique_ptr<ChartPage> page = row.make();
        const int tab = addTab(page->scrolls() ? scrolling(page->widget()) : page->widget(), page->tabTitle());
        setTabToolTip(tab, page->toolTip());
        m_pages.push_back(std::move(page));
    }
    m_posterior = page<PosteriorPage>();
}

// A page that is itself a widget (the trade-offs) is deleted here, which takes it out of its
// tab; the other pages' widgets go with the tabs.
ResultsView::~ResultsView() = default;

bool ResultsView::showTab(const QString &key)
{
    const int tab = tabIndex(key);
    if (tab < 0)
        return false;
    setCurrentIndex(tab);
    return true;
}

int ResultsView::posteriorChartCount() const
{
    return static_cast<int>(comparePage()->charts().size());
}

PosteriorChart *ResultsView::posteriorChart(int methodIndex) const
{
    return comparePage()->charts().value(methodIndex);
}

ComparePage *ResultsView::comparePage() const
{
    return m_posterior->comparePage();
}

BatchSizeHistogram *ResultsView::histogram() const
{
    return page<SizesPage>()->histogram();
}

CorrectionChart *ResultsView::correctionChart() const
{
    return page<CorrectionPage>()->chart();
}

TraceChart *ResultsView::traceChart() const
{
    return page<TracesPage>()->traces();
}

BrightPointsChart *ResultsView::brightPointsChart() const
{
    return page<TracesPage>()->brightPoints();
}

DiagnosticsTable *ResultsView::diagnosticsTable() const
{
    return page<DiagnosticsPage>()->table();
}

AccuracyChart *ResultsView::accuracyChart() const
{
    return page<AccuracyPage>()->chart();
}

TradeoffsPage *ResultsView::tradeoffsPage() const
{
    return page<TradeoffsPage>();
}

void ResultsView::beginRun(const RunRequest &request)
{
    m_layout = makeRunLayout(request);
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->beginRun(m_layout, m_pin);
}

void ResultsView::applySnapshot(const RunSnapshot &snapshot)
{
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->applySnapshot(snapshot, m_layout);
}

void ResultsView::setComponentNames(const QStringList &names)
{
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->setComponentNames(names);
}

void ResultsView::previewForm(const RunRequest &form)
{
    const RunRequest &shown = m_layout.request;
    if (form.config.dataset == shown.config.dataset && form.methods == shown.methods
        && form.controlVariates == shown.controlVariates && form.chains == shown.chains)
        return;
    beginRun(form);
    if (m_layout.exactPosterior)
        m_posterior->showLastImage(); // the mixture gets its heat map back
}

void ResultsView::setPosteriorImage(const PosteriorImage &image)
{
    m_posterior->setPosteriorImage(image);
}

void ResultsView::flushAll()
{
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->flush();
}

void ResultsView::pinPosteriorSamples()
{
    flushAll(); // pin what is queued too, not only what was drawn last
    m_pin = {};
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->pinInto(m_pin);
    showPin();
}

void ResultsView::clearPin()
{
    m_pin = {};
    showPin();
}

void ResultsView::showPin()
{
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->showPin(m_pin);
}

void ResultsView::flushVisible()
{
    if (currentIndex() >= 0 && currentIndex() < static_cast<int>(m_pages.size()))
        m_pages[static_cast<std::size_t>(currentIndex())]->flush();
}

void ResultsView::finishRun(const RunOutcome &outcome)
{
    flushAll();
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        p->finishRun(outcome);
}

qsizetype ResultsView::plottedSampleCount() const
{
    qsizetype total = 0;
    for (const PosteriorChart *chart : comparePage()->charts())
        total += chart->plottedSampleCount();
    return total;
}

QList<NamedChart> ResultsView::exportableCharts() const
{
    QList<NamedChart> charts;
    for (const std::unique_ptr<ChartPage> &p : m_pages)
        charts.append(p->exportViews());
    return charts;
}

} // namespace ui
