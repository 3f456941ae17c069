#include "ui/run/run_status_strip.h"

#include <algorithm>
#include <cmath>

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include "core/acceptance/batch_prediction.h"
#include "core/experiment/service/run_observer.h"
#include "core/experiment/settings/method_registry.h"

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

// One figure per compared method over all its chains' iterations after the burn-in, as the
// summary's pooled entry has it (RunOutcome::methodTests). The Diagnostics table shows each
// chain's own.
template <typename Figure>
QString overMethodChains(const RunOutcome &outcome, Figure figure, int decimals)
{
    QStringList parts;
    for (const ChainReport &report : outcome.chains)
        if (report.chainIndex == 0) {
            const auto method = static_cast<std::size_t>(outcome.request.methodIndexOf(report.channel));
            parts.append(QStringLiteral("%L1").arg(figure(outcome.methodTests(method)), 0, 'f', decimals));
        }
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
    m_revert = new QPushButton;
    m_stopHere = new QPushButton(tr("Stop here"));
    m_stopHere->setToolTip(tr("End the run now: the samples drawn so far are kept, summarised and can be exported."));
    for (QPushButton *button : {m_revert, m_stopHere})
        button->hide();
    connect(m_revert, &QPushButton::clicked, this, [this] {
        hideOffer();
        emit revertTemperatureRequested(m_revertTo);
    });
    connect(m_stopHere, &QPushButton::clicked, this, [this] {
        hideOffer();
        emit stopRequested();
    });
    m_prediction = new QLabel;
    m_prediction->setWordWrap(true);
    m_prediction->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_prediction->hide();
    auto *offer = new QHBoxLayout;
    offer->setContentsMargins(0, 0, 0, 0);
    offer->addWidget(m_prediction, 1);
    offer->addWidget(m_revert);
    offer->addWidget(m_stopHere);
    strip->addWidget(m_notice, 2, 0, 1, 5);
    strip->addLayout(offer, 3, 0, 1, 5);
    strip->setColumnStretch(4, 1);
    resetLabels();
}

void RunStatusStrip::hideOffer()
{
    m_revert->hide();
    m_stopHere->hide();
    m_prediction->clear();
    m_prediction->hide();
}

QString RunStatusStrip::prediction() const
{
    return m_prediction->text();
}

QString RunStatusStrip::predictTemperatureChange(double from, double to, const RunRequest &request, double pace)
{
    hideOffer();
    // The corrected minibatch test's batch follows T by the law of batch_prediction.h; other
    // methods' batches follow T by other laws: no figure is made up for them.
    const core::RunConfig &config = request.config;
    if (config.method != core::TestMethod::Minibatch || m_latest.completed <= 0 || !(from > 0.0) || !(to > 0.0))
        return {};
    const double now = m_latest.segmentIterations > 0 ? m_latest.segmentMeanBatch : m_latest.meanBatch;
    const double n = static_cast<double>(std::max<qint64>(m_latest.dataSize, 1));
    core::BatchPredictionInputs inputs;
    inputs.meanBatch = now;
    inputs.fromTemperature = from;
    inputs.toTemperature = to;
    inputs.population = n;
    inputs.firstBatch = static_cast<double>(config.minibatch.initialBatch);
    inputs.batchGrowth = static_cast<double>(config.minibatch.batchGrowth);
    inputs.dimension = m_latest.dimension;
    inputs.finitePopulationCorrection = config.minibatch.finitePopulationCorrection;
    // Learned scales are rescaled by √(T′/T) and re-learned (ChainSegment::relearning); every
    // other proposal, and the methods without one, keep their step.
    inputs.stepFollowsTemperature = core::learnsStepInBurnIn(config);
    const double predicted = core::predictedMeanBatch(inputs);
    // Reading points is the test's cost: the time an iteration takes scales with its batch.
    const double speed = m_latest.iterationsPerSecond * now / std::max(predicted, 1.0);
    const qint64 left = m_latest.total > 0 ? std::max<qint64>(m_latest.total - m_latest.completed, 0) : 0;
    QString text = tr("T %L1 → %L2: each test is predicted to read about %L3 of the %L4 points (now %L5)")
                       .arg(from, 0, 'g', 6)
                       .arg(to, 0, 'g', 6)
                       .arg(predicted, 0, 'f', 0)
                       .arg(n, 0, 'f', 0)
                       .arg(now, 0, 'f', 0);
    if (pace > 0.0)
        text += tr("; the speed limit holds the run at %L1 it/s, so the new speed is measured below").arg(pace, 0, 'f', 0);
    else if (speed > 0.0)
        text += tr(", about %L1 it/s").arg(speed, 0, 'f', speed < 10.0 ? 1 : 0);
    if (pace <= 0.0 && left > 0 && speed > 0.0)
        text += tr(": the %L1 iterations left would take about %2").arg(left).arg(formatDuration(static_cast<double>(left) / speed));
    text += QLatin1Char('.');
    if (predicted >= 0.25 * n) {
        text += tr(" A test that reads this much of the data saves little over full-data MH.");
        m_revertTo = from;
        m_revert->setText(tr("Back to T = %L1").arg(from, 0, 'g', 6));
        m_revert->show();
        m_stopHere->show();
    }
    // A row of its own: the segment notices that follow (re-learning, its end) must not hide it.
    m_predicted = text;
    m_changeMarkPending = true;
    m_changeAt = m_latest.completed;
    m_prediction->setText(text);
    m_prediction->show();
    return text;
}

void RunStatusStrip::resetLabels()
{
    hideOffer();
    setStat(Speed, tr("— it/s"));
    setStat(Acceptance, tr("acceptance —"));
    setStat(Batch, tr("mean batch —"));
    setStat(Data, tr("data used —"));
    setStat(Fit, tr("posterior fit: after a complete run"));
    showNotice(QString());
    m_sampling.invalidate();
    m_pausedSince.invalidate();
    m_pausedMs = 0;
    m_paceMarkSeconds = 0.0;
    m_paceMarkDone = 0;
    m_recentPace = 0.0;
    m_changeMarkSeconds = 0.0;
    m_changeMarkDone = m_changeAt = 0;
    m_changeMarkPending = false;
}

void RunStatusStrip::clear()
{
    resetLabels();
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_progress->setFormat(tr("idle"));
}

QString RunStatusStrip::figuresText() const
{
    QStringList texts;
    for (QLabel *label : m_stats)
        texts.append(static_cast<ElidingLabel *>(label)->fullText());
    return texts.join(QStringLiteral(" | "));
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

void RunStatusStrip::showSegment(int number, const core::ChainSegment &segment, bool afterBurnIn, StepSource stepSource)
{
    const bool afterRelearning = m_relearning;
    m_relearning = segment.relearning;
    if (segment.relearning) {
        showNotice(tr("segment %1 from iteration %L2: T = %L3; the adaptive step, rescaled by √(T′/T) to %L4, is "
                      "learned again for the new T (iterations the figures leave out)")
                       .arg(number)
                       .arg(segment.start)
                       .arg(segment.temperature, 0, 'g', 6)
                       .arg(segment.step, 0, 'g', 4));
        return;
    }
    if (afterRelearning) {
        showNotice(tr("step re-learned at iteration %L1: T = %L2, step %L3 from here on (segment %4, where the figures "
                      "start)")
                       .arg(segment.start)
                       .arg(segment.temperature, 0, 'g', 6)
                       .arg(segment.step, 0, 'g', 4)
                       .arg(number));
        return;
    }
    if (afterBurnIn) {
        // Only an adaptive proposal learns in the burn-in; a fixed one, and the methods without an
        // accept step (SGLD, SGHMC, the Zig-Zag process), keep their step throughout: the form's,
        // or the one SGLD's or SGHMC's forecast took before the chain.
        QString text;
        switch (stepSource) {
        case StepSource::Learned:
            text = tr("burn-in over at iteration %L1: T = %L2, step %L3 from here on (the step the burn-in learned, "
                      "starting from the form's)");
            break;
        case StepSource::Forecast:
            text = tr("burn-in over at iteration %L1: T = %L2, step %L3 (the one the forecast took before the chain, "
                      "not the preset's; nothing is learned in the burn-in); the figures start here");
            break;
        case StepSource::Form:
            text = tr("burn-in over at iteration %L1: T = %L2, step %L3 (the form's: nothing is learned in the "
                      "burn-in); the figures start here");
            break;
        }
        showNotice(text
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
    m_relearning = false;
    m_latest = RunSnapshot{};
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
    case core::RunStage::Forecast: label = tr("forecast %p%"); break;
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
        // The ETA extrapolates the pace of the last second or so over all channels (the pace
        // since sampling began until then), so that it follows a live change of the cost.
        const double elapsed = samplingSeconds();
        if (elapsed - m_paceMarkSeconds >= 1.0) {
            m_recentPace = static_cast<double>(done - m_paceMarkDone) / (elapsed - m_paceMarkSeconds);
            m_paceMarkSeconds = elapsed;
            m_paceMarkDone = done;
        }
        const double pace = m_recentPace > 0.0 ? m_recentPace : (elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0);
        const QString eta = done > 0 && elapsed > 1.0 && pace > 0.0
                                ? tr(", ETA %1").arg(formatDuration(static_cast<double>(total - done) / pace))
                                : QString();
        m_progress->setFormat(tr("%L1 / %L2%3").arg(done).arg(total).arg(eta));
        m_progress->setValue(static_cast<int>(kProgressSteps * done / total));
    }
    // The strip follows the channel that reported last, named when there are several; its
    // figures count every iteration of that chain so far, the burn-in included.
    const QString prefix =
        request.channelCount() > 1
            ? tr("%1 chain %2: ")
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
    // A fixed-length run adds the current segment's, where a change (or the burn-in's end) began
    // one, so that a collapse after a change is not hidden in the whole run's average.
    const QString over = snapshot.window > 0 ? tr(" (latest %L1)").arg(snapshot.window) : QString();
    const bool segmented = snapshot.window == 0 && snapshot.segmentStart > 0 && snapshot.segmentIterations > 0;
    const QString since = segmented ? tr(" since iteration %L1%2")
                                          .arg(snapshot.segmentStart)
                                          .arg(snapshot.segmentRelearning ? tr(", re-adapting the step") : QString())
                                    : QString();
    if (segmented) {
        setStat(Acceptance, tr("acceptance %L1 (after the burn-in), %L2%3")
                                .arg(snapshot.acceptanceRate, 0, 'f', 3)
                                .arg(snapshot.segmentAcceptance, 0, 'f', 3)
                                .arg(since));
        setStat(Batch, tr("mean batch %L1 (after the burn-in), %L2%3")
                           .arg(snapshot.meanBatch, 0, 'f', 1)
                           .arg(snapshot.segmentMeanBatch, 0, 'f', 1)
                           .arg(since));
    } else {
        const QString scope = snapshot.window > 0 ? over
                              : snapshot.inBurnIn ? tr(" (burn-in)")
                              : snapshot.afterBurnIn ? tr(" (after the burn-in)")
                                                     : QString();
        setStat(Acceptance, tr("acceptance %L1%2").arg(snapshot.acceptanceRate, 0, 'f', 3).arg(scope));
        setStat(Batch, tr("mean batch %L1%2").arg(snapshot.meanBatch, 0, 'f', 1).arg(scope));
    }
    // Once the segment after a predicted change has run a while (50 iterations, a second), the
    // row adds what it cost, its pace measured since the change alone.
    if (m_changeMarkPending && segmented && snapshot.segmentStart >= m_changeAt) {
        m_changeMarkPending = false;
        m_changeMarkSeconds = samplingSeconds();
        m_changeMarkDone = done;
    }
    const double sinceChange = samplingSeconds() - m_changeMarkSeconds;
    const double changedPace = !m_changeMarkPending && sinceChange >= 1.0
                                   ? static_cast<double>(done - m_changeMarkDone) / sinceChange
                                   : 0.0;
    if (!m_prediction->isHidden() && segmented && snapshot.segmentIterations >= 50 && changedPace > 0.0
        && snapshot.total > 0) {
        const qint64 left = std::max<qint64>(total - done, 0);
        m_prediction->setText(tr("%1 Measured since iteration %L2: mean batch %L3, %L4 it/s over all chains: the "
                                 "%L5 iterations left take about %6.")
                                  .arg(m_predicted)
                                  .arg(snapshot.segmentStart)
                                  .arg(snapshot.segmentMeanBatch, 0, 'f', 0)
                                  .arg(changedPace, 0, 'f', changedPace < 10.0 ? 1 : 0)
                                  .arg(left)
                                  .arg(formatDuration(static_cast<double>(left) / changedPace)));
    }
    m_latest = snapshot; // its figures; the vectors are shared until cleared, never copied
    m_latest.newSamples.clear();
    m_latest.newClassifierPoints.clear();
    m_latest.newBatchSizes.clear();
    m_latest.newBrightPoints.clear();
    m_latest.newSegments.clear();
    setStat(Data, tr("test reads so far %L1 (%2), full-data fallbacks %L3")
                        .arg(snapshot.dataPointsUsed)
                        .arg(formatPasses(snapshot.dataPointsUsed, snapshot.dataSize))
                        .arg(snapshot.fullDataFallbacks));
}

void RunStatusStrip::showOutcome(const RunOutcome &outcome)
{
    hideOffer();
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
        // The summaries' scope, said: the iterations after the burn-in, over every chain of a
        // method; during the run the strip counted every iteration of one chain.
        const bool single = outcome.chains.size() == 1;
        const int chains = outcome.request.chains;
        const QString scope = chains > 1 ? tr(" (after the burn-in, %1 chains)").arg(chains) : tr(" (after the burn-in)");
        setStat(Acceptance, tr("acceptance %1%2")
                                .arg(overMethodChains(outcome, [](const core::TestTally &t) { return t.acceptanceRate(); }, 3))
                                .arg(scope));
        setStat(Batch, single ? tr("mean batch %L1 (sd %L2)%3")
                                    .arg(outcome.chains.front().summary.meanBatch(), 0, 'f', 1)
                                    .arg(outcome.chains.front().summary.sdBatch, 0, 'f', 1)
                                    .arg(scope)
                              : tr("mean batch %1%2")
                                    .arg(overMethodChains(outcome, [](const core::TestTally &t) { return t.meanBatch(); }, 1))
                                    .arg(scope));
        // Everything the run read (tests, full-data passes, proposal gradients, the burn-in's
        // too, every chain): more than the Diagnostics table's per-chain test reads.
        setStat(Data, (untilStopped ? tr("data read in the window %L1 (%2: tests, gradients, all chains), "
                                         "full-data fallbacks %L3")
                                    : tr("data read %L1 (%2: tests, gradients and burn-in, all chains), full-data "
                                         "fallbacks %L3"))
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
    } else if (const core::DatasetEntry *data = core::findDataset(outcome.config().dataset);
               !data || !data->exactPosteriorMap) {
        setStat(Fit, tr("posterior fit: mixture only"));
    } else {
        setStat(Fit, tr("posterior fit: run incomplete"));
    }
}

} // namespace ui
