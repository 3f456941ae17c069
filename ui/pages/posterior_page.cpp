#include "ui/pages/posterior_page.h"

#include <algorithm>

#include <QChart>

#include "core/experiment/settings/run_config.h"
#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/posterior_chart.h"
#include "ui/pages/compare_page.h"
#include "ui/run/sampler_worker.h"

namespace ui {

PosteriorPage::PosteriorPage()
    : ChartPage(new ComparePage, tr("&Posterior"),
                tr("Samples over the exact tempered posterior; comparing methods, one chart per method and their "
                   "minibatch sizes side by side.")),
      m_page(static_cast<ComparePage *>(widget()))
{
    m_page->setUp({tr("Posterior samples over the true tempered log-posterior")}, {}, 0);
}

void PosteriorPage::beginRun(const RunLayout &layout, const PinnedRun &pin)
{
    m_request = layout.request;
    const RunRequest &request = layout.request;
    const bool compare = request.methods.size() > 1;
    QStringList titles;
    for (const QString &label : layout.methods) {
        if (compare)
            titles.append(tr("%1: posterior samples").arg(label));
        else if (layout.exactPosterior)
            titles.append(tr("Posterior samples over the true tempered log-posterior (%1)").arg(label));
        else if (layout.dimension == 1)
            titles.append(tr("Posterior samples of θ (%1)").arg(label));
        else if (core::modelOf(request.config).classifier)
            titles.append(tr("Posterior samples of the two most discriminative weights (%1)").arg(label));
        else
            titles.append(tr("Posterior samples of the first two coefficients (%1)").arg(label));
    }
    m_page->setUp(titles, layout.methods, layout.dataSize);
    showPin(pin); // the new charts' own layers draw the pin under their samples
    const qint64 perChart = std::min<qint64>(request.config.samples, SamplerWorker::kMaxPlottedSamples) * request.chains;
    for (PosteriorChart *chart : m_page->charts()) {
        chart->setExpectedSampleCount(perChart);
        if (!layout.exactPosterior)
            chart->setFreeAxes(layout.dimension);
    }
    if (layout.window > 0) {
        // The chains send every stride-th draw of the window (SamplerWorker::kMaxWindowPoints).
        const qint64 stride = (layout.window + SamplerWorker::kMaxWindowPoints - 1) / SamplerWorker::kMaxWindowPoints;
        for (PosteriorChart *chart : m_page->charts())
            chart->setWindow(layout.window / std::max<qint64>(stride, 1) * request.chains);
        if (BatchSizeHistogram *overview = m_page->histogram())
            overview->setWindow(layout.window * request.chains);
    }
}

void PosteriorPage::applySnapshot(const RunSnapshot &snapshot, const RunLayout &layout)
{
    const qint64 burnIn = layout.burnInOf(snapshot.channel);
    const int method = layout.methodOf(snapshot.channel);
    // The cloud holds the draws after the burn-in, every sampleStride-th: the draws the samples
    // file, the summaries and the posterior's TV describe. During the burn-in the chart shows the
    // chain's current state and proposal only; the traces show the burn-in's path.
    if (PosteriorChart *chart = m_page->charts().value(method)) {
        const qint64 stride = std::max<qint64>(snapshot.sampleStride, 1);
        const auto firstDrawAtOrAfter = [stride](qint64 t) { return (t + stride - 1) / stride; };
        const qsizetype before = std::clamp<qint64>(firstDrawAtOrAfter(burnIn) - firstDrawAtOrAfter(snapshot.first), 0,
                                                    snapshot.newSamples.size());
        chart->appendSamples(before > 0 ? snapshot.newSamples.mid(before) : snapshot.newSamples, snapshot.current,
                             snapshot.proposal);
        chart->appendPath(snapshot.channel, snapshot.path);
    }
    if (BatchSizeHistogram *overview = m_page->histogram()) {
        // As the sizes tab: the tests after the burn-in.
        const qsizetype skip = std::clamp<qint64>(burnIn - snapshot.first, 0, snapshot.newBatchSizes.size());
        overview->appendBatchSizes(method, skip > 0 ? snapshot.newBatchSizes.mid(skip) : snapshot.newBatchSizes);
        if (snapshot.dataSize > 0)
            overview->setDataSize(snapshot.dataSize);
    }
}

void PosteriorPage::flush()
{
    for (PosteriorChart *chart : m_page->charts())
        chart->flush();
    if (BatchSizeHistogram *overview = m_page->histogram())
        overview->flush();
}

void PosteriorPage::setComponentNames(const QStringList &names)
{
    for (PosteriorChart *chart : m_page->charts())
        chart->setComponentNames(names);
}

void PosteriorPage::pinInto(PinnedRun &pin) const
{
    for (PosteriorChart *chart : m_page->charts())
        pin.posteriorSamples.append(chart->drawnSamples());
}

void PosteriorPage::showPin(const PinnedRun &pin)
{
    // Each run builds new posterior charts: chart k shows the pin of the chart k that was pinned.
    const QList<PosteriorChart *> &charts = m_page->charts();
    for (qsizetype k = 0; k < charts.size(); ++k)
        charts[k]->setPinnedSamples(pin.posteriorSamples.value(k));
    if (BatchSizeHistogram *overview = m_page->histogram())
        overview->setPinnedCounts(pin.sizes);
}

QList<NamedChart> PosteriorPage::exportViews() const
{
    QList<NamedChart> charts;
    const QList<PosteriorChart *> &posterior = m_page->charts();
    for (int k = 0; k < posterior.size(); ++k) {
        const QString method = QString::fromStdString(m_request.methodLabel(static_cast<std::size_t>(k)));
        charts.append({posterior.size() > 1 ? QStringLiteral("posterior-%1").arg(method) : QStringLiteral("posterior"),
                       tr("Posterior (%1)").arg(method), posterior[k]});
    }
    return charts;
}

void PosteriorPage::setPosteriorImage(const PosteriorImage &image)
{
    m_lastImage = image;
    m_page->setPosteriorImage(image);
}

void PosteriorPage::showLastImage()
{
    if (m_lastImage)
        m_page->setPosteriorImage(*m_lastImage);
}

} // namespace ui
