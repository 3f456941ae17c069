#include "ui/run/run_status_strip.h"

#include <algorithm>
#include <cmath>

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>

#include "core/experiment/service/run_observer.h"

namespace ui {
namespace {

constexpr int kProgressSteps = 1000;
// Long values (one per compared method) are elided at this width rather than widening the
// window past 1280 pixels.
constexpr int kMaxStatWidth = 400;

/// A label that shows as much of its text as its width allows, elided with "…" (a QLabel
/// clips mid-word), and asks the layout for little, so that it never widens the window.
class ElidingLabel : public QLabel {
public:
    void setFullText(const QString &text)
    {
        m_full = text;
        showElided();
        updateGeometry(); // the size hint follows the text
    }
    QString fullText() const { return m_full; }
    QSize minimumSizeHint() const override { return QSize(40, QLabel::minimumSizeHint().height()); }
    QSize sizeHint() const override
    {
        return QSize(std::min(fontMetrics().horizontalAdvance(m_full) + 8, kMaxStatWidth), QLabel::sizeHint().height());
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        showElided();
    }

private:
    void showElided()
    {
        const QString shown = fontMetrics().elidedText(m_full, Qt::ElideRight, std::max(width(), 40));
        if (shown != text())
            setText(shown);
    }
    QString m_full;
};

QLabel *statLabel(const QString &toolTip)
{
    auto *label = new ElidingLabel;
    label->setToolTip(toolTip);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}


// "0.404 / 0.512": one value per compared method (first chain of each), in chart order.
template <typename Value>
QString perMethod(const RunOutcome &outcome, Value value)
{
    QStringList parts;
    for (const ChainReport &report : outcome.chains)
        if (report.chainIndex == 0)
            parts.append(value(report));
    return parts.join(QStringLiteral(" / "));
}

} // namespace

QString formatDuration(double seconds)
{
    if (!(seconds >= 0.0) || !std::isfinite(seconds))
        return QStringLiteral("—");
    const auto total = static_cast<qint64>(std::llround(seconds));
    if (total < 60)
        return RunStatusStrip::tr("%1 s").arg(total);
    if (total < 3600)
        return RunStatusStrip::tr("%1 min %2 s").arg(total / 60).arg(total % 60);
    return RunStatusStrip::tr("%1 h %2 min").arg(total / 3600).arg(total % 3600 / 60);
}

QString formatRate(double perSecond)
{
    if (perSecond >= 1e9)
        return RunStatusStrip::tr("%L1 G").arg(perSecond / 1e9, 0, 'f', 2);
    if (perSecond >= 1e6)
        return RunStatusStrip::tr("%L1 M").arg(perSecond / 1e6, 0, 'f', 2);
    return QStringLiteral("%L1").arg(perSecond, 0, 'f', 0);
}

QString formatPasses(qint64 pointsUsed, qint64 nData)
{
    const double passes = nData > 0 ? static_cast<double>(pointsUsed) / static_cast<double>(nData) : 0.0;
    const int decimals = passes >= 100.0 ? 0 : passes >= 10.0 ? 1 : 2;
    return RunStatusStrip::tr("%L1 passes").arg(passes, 0, 'f', decimals);
}

RunStatusStrip::RunStatusStrip(QWidget *parent) : QWidget(parent)
{
    m_progress = new QProgressBar;
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFixedWidth(270); // room for "1,234,567 / 2,000,000, ETA 12 min 5 s"
    m_progress->setFormat(tr("idle"));
    m_stats[Speed] = statLabel(tr("Metropolis–Hastings iterations, and data points read by the tests (minibatches plus any "
                           "full-data passes), per second of wall-clock time."));
    m_stats[Acceptance] = statLabel(tr("Share of proposals accepted so far (one value per compared method)."));
    m_stats[Batch] = statLabel(tr("Mean number of data points each acceptance test used "
                           "(Seita et al. Sec. 6.1 report it per method)."));
    m_stats[Data] = statLabel(tr("Data points the tests read in total, and how many passes over the data that is."));
    m_notice = new QLabel;
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stats[Fit] = statLabel(tr("Total variation between the samples and the exact tempered posterior on 0.1 × 0.1 "
                         "cells (Seita et al. Sec. 6.1), one value per compared method; an MCMC chain's "
                         "autocorrelation inflates it, so compare methods at equal sample counts."));
    // Two rows, so the strip never forces the window wider than the controls and charts.
    auto *strip = new QGridLayout(this);
    strip->setContentsMargins(0, 0, 0, 0);
    strip->setHorizontalSpacing(18);
    strip->setVerticalSpacing(2);
    strip->addWidget(m_progress, 0, 0);
    strip->addWidget(m_stats[Speed], 0, 1);
    strip->addWidget(m_stats[Acceptance], 0, 2);
    strip->addWidget(m_stats[Batch], 0, 3);
    strip->addWidget(m_stats[Data], 1, 0, 1, 2);
    strip->addWidget(m_stats[Fit], 1, 2, 1, 2);
    strip->addWidget(m_notice, 2, 0, 1, 5);
    strip->setColumnStretch(4, 1);
    resetLabels();
}

void RunStatusStrip::resetLabels()
{
    setStat(Speed, tr("— it/s"));
    setStat(Acceptance, tr("acceptance —"));
    setStat(Batch, tr("mean batch —"));
    setStat(Data, tr("data used —"));
    setStat(Fit, tr("posterior fit: after a complete run"));
    showNotice(QString());
    m_sampling.invalidate();
    m_pausedSince.invalidate();
    m_pausedMs = 0;
}

void RunStatusStrip::clear()
{
    resetLabels();
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_progress->setFormat(tr("idle"));
}

void RunStatusStrip::setStat(Stat which, const QString &text)
{
    static_cast<ElidingLabel *>(m_stats[which])->setFullText(text);
}

void RunStatusStrip::showNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

QString RunStatusStrip::notice() const
{
    return m_notice->text();
}

void RunStatusStrip::showSegment(int number, const core::ChainSegment &segment, bool afterBurnIn)
{
    if (afterBurnIn) {
        showNotice(tr("burn-in over at iteration %L1: T = %L2, step %L3 from here on")
                       .arg(segment.start)
                       .arg(segment.temperature, 0, 'g', 6)
                       .arg(segment.step, 0, 'g', 4));
        return;
    }
    showNotice(tr("segment %1 from iteration %L2: T = %L3, step %L4")
                   .arg(number)
                   .arg(segment.start)
                   .arg(segment.temperature, 0, 'g', 6)
                   .arg(segment.step, 0, 'g', 4));
}

void RunStatusStrip::beginRun()
{
    resetLabels();
    m_progress->setRange(0, 0); // busy until the chains report
}

void RunStatusStrip::setPaused(bool paused)
{
    if (paused && !m_pausedSince.isValid())
        m_pausedSince.start();
    else if (!paused && m_pausedSince.isValid()) {
        if (m_sampling.isValid())
            m_pausedMs += m_pausedSince.elapsed();
        m_pausedSince.invalidate();
    }
}

double RunStatusStrip::samplingSeconds() const
{
    if (!m_sampling.isValid())
        return 0.0;
    const qint64 paused = m_pausedMs + (m_pausedSince.isValid() ? m_pausedSince.elapsed() : 0);
    return static_cast<double>(std::max<qint64>(m_sampling.elapsed() - paused, 0)) / 1000.0;
}

void RunStatusStrip::failRun()
{
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_progress->setFormat(tr("failed"));
}

void RunStatusStrip::endRun()
{
    if (m_progress->maximum() == 0) {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setValue(0);
    }
}

void RunStatusStrip::showPreparation(double fraction, int stage)
{
    if (fraction < 0.0) {
        m_progress->setRange(0, 0);
        return;
    }
    QString label;
    switch (static_cast<core::RunStage>(stage)) {
    case core::RunStage::Data: label = tr("data %p%"); break;
    case core::RunStage::Correction: label = tr("correction %p%"); break;
    case core::RunStage::AustereDesign: label = tr("AustereMH design %p%"); break;
    case core::RunStage::AusterePilot: label = tr("AustereMH pilot %p%"); break;
    case core::RunStage::ControlVariates: label = tr("posterior mode %p%"); break;
    case core::RunStage::LaplaceFit: label = tr("Laplace fit %p%"); break;
    case core::RunStage::Sampling: label = tr("sampling %p%"); break;
    case core::RunStage::Diagnostics: label = tr("diagnostics %p%"); break;
    }
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFormat(label.isEmpty() ? tr("preparing %p%") : label);
    m_progress->setValue(static_cast<int>(fraction * kProgressSteps));
}

void RunStatusStrip::showSnapshot(const RunSnapshot &snapshot, const RunRequest &request, qint64 done, qint64 total)
{
    if (!m_sampling.isValid())
        m_sampling.start();
    if (snapshot.window > 0) {
        // Until stopped: no end to show, only how far the chains have come.
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("%L1 iterations").arg(done));
    } else if (total > 0) {
        m_progress->setRange(0, kProgressSteps);
        // The ETA extrapolates the pace since sampling began over all channels.
        const double elapsed = samplingSeconds();
        const QString eta = done > 0 && elapsed > 1.0
                                ? tr(", ETA %1").arg(formatDuration(elapsed * static_cast<double>(total - done) / static_cast<double>(done)))
                                : QString();
        m_progress->setFormat(tr("%L1 / %L2%3").arg(done).arg(total).arg(eta));
        m_progress->setValue(static_cast<int>(kProgressSteps * done / total));
    }
    // The strip follows the channel that reported last, named when there are several.
    const QString prefix =
        request.channelCount() > 1
            ? QStringLiteral("%1 #%2: ")
                  .arg(QString::fromStdString(request.methodLabel(static_cast<std::size_t>(request.methodIndexOf(snapshot.channel)))))
                  .arg(request.chainIndexOf(snapshot.channel) + 1)
            : QString();
    const double pointsPerSecond =
        snapshot.elapsedSeconds > 0.0 ? static_cast<double>(snapshot.dataPointsUsed) / snapshot.elapsedSeconds : 0.0;
    setStat(Speed, tr("%1%L2 it/s, %3 points/s")
                         .arg(prefix)
                         .arg(snapshot.iterationsPerSecond, 0, 'f', 0)
                         .arg(formatRate(pointsPerSecond)));
    // Until stopped, acceptance and batch describe the latest window: they follow a change.
    const QString over = snapshot.window > 0 ? tr(" (latest %L1)").arg(snapshot.window) : QString();
    setStat(Acceptance, tr("acceptance %L1%2").arg(snapshot.acceptanceRate, 0, 'f', 3).arg(over));
    setStat(Batch, tr("mean batch %L1%2").arg(snapshot.meanBatch, 0, 'f', 1).arg(over));
    setStat(Data, tr("data used %L1 (%2), full-data fallbacks %L3")
                        .arg(snapshot.dataPointsUsed)
                        .arg(formatPasses(snapshot.dataPointsUsed, snapshot.dataSize))
                        .arg(snapshot.fullDataFallbacks));
}

void RunStatusStrip::showOutcome(const RunOutcome &outcome)
{
    const qint64 requested = outcome.config().samples * outcome.request.channelCount();
    const qint64 iterations = outcome.totalIterations();
    const double wall = outcome.longestWallSeconds();
    const qint64 used = outcome.totalPointsRead();
    // Until stopped, the summaries (and the data they count) cover the window only, while the
    // wall time covers the whole run: the rate of points comes from the window's points per
    // iteration.
    const bool untilStopped = outcome.request.untilStopped;
    qint64 described = 0;
    for (const ChainReport &chain : outcome.chains)
        described += chain.summary.iterations + chain.summary.burnInIterations;
    const double pointsPerIteration = described > 0 ? static_cast<double>(used) / static_cast<double>(described) : 0.0;
    if (iterations > 0) {
        const double itPerSecond = wall > 0 ? static_cast<double>(iterations) / wall : 0.0;
        setStat(Speed, tr("%L1 it/s, %2 points/s")
                             .arg(itPerSecond, 0, 'f', 0)
                             .arg(formatRate(untilStopped ? pointsPerIteration * itPerSecond
                                                          : (wall > 0 ? static_cast<double>(used) / wall : 0.0))));
        setStat(Acceptance, tr("acceptance %1").arg(perMethod(outcome, [](const ChainReport &r) {
            return QStringLiteral("%L1").arg(r.summary.acceptanceRate, 0, 'f', 3);
        })));
        const bool single = outcome.chains.size() == 1;
        setStat(Batch, tr("mean batch %1").arg(perMethod(outcome, [single](const ChainReport &r) {
            return single ? QStringLiteral("%L1 (sd %L2)").arg(r.summary.meanBatch, 0, 'f', 1).arg(r.summary.sdBatch, 0, 'f', 1)
                          : QStringLiteral("%L1").arg(r.summary.meanBatch, 0, 'f', 0);
        })));
        setStat(Data, (untilStopped ? tr("data used in the window %L1 (%2), full-data fallbacks %L3")
                                      : tr("data used %L1 (%2), full-data fallbacks %L3"))
                            .arg(used)
                            .arg(formatPasses(used, outcome.dataSize))
                            .arg(outcome.totalFullDataFallbacks()));
    }
    m_progress->setRange(0, kProgressSteps);
    if (untilStopped) {
        m_progress->setFormat(tr("%L1 iterations (latest %L2 shown)").arg(iterations).arg(outcome.config().samples));
        m_progress->setValue(kProgressSteps);
    } else {
        m_progress->setFormat(tr("%L1 / %L2 samples").arg(iterations).arg(requested));
        m_progress->setValue(requested > 0 ? static_cast<int>(kProgressSteps * iterations / requested) : 0);
    }
    if (!outcome.chains.empty() && outcome.chains.front().hasPosteriorMetrics) {
        setStat(Fit, tr("posterior TV %1").arg(perMethod(outcome, [](const ChainReport &r) {
            return QStringLiteral("%L1").arg(r.posterior.totalVariation, 0, 'f', 3);
        })));
    } else if (!outcome.chains.empty() && std::isfinite(outcome.chains.front().testAccuracy)) {
        setStat(Fit, tr("test accuracy %1").arg(perMethod(outcome, [](const ChainReport &r) {
            return QStringLiteral("%L1").arg(r.testAccuracy, 0, 'f', 3);
        })));
    } else if (outcome.config().dataset != "gmm") {
        setStat(Fit, tr("posterior fit: mixture only"));
    } else {
        setStat(Fit, tr("posterior fit: run incomplete"));
    }
}

} // namespace ui
