#include "ui/run_status_strip.h"

#include <algorithm>
#include <cmath>

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>

namespace ui {
namespace {

constexpr int kProgressSteps = 1000;
// Long values (one per compared method) are elided at this width rather than widening the
// window past 1280 pixels.
constexpr int kMaxStatWidth = 400;

QLabel *statLabel(const QString &toolTip)
{
    auto *label = new QLabel;
    label->setToolTip(toolTip);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

void setStat(QLabel *label, const QString &text)
{
    label->setText(label->fontMetrics().elidedText(text, Qt::ElideRight, kMaxStatWidth));
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
    m_progress->setFixedWidth(200);
    m_progress->setFormat(tr("idle"));
    m_speed = statLabel(tr("Metropolis–Hastings iterations per second of wall-clock time."));
    m_acceptance = statLabel(tr("Share of proposals accepted so far (one value per compared method)."));
    m_batch = statLabel(tr("Mean number of data points each acceptance test used "
                           "(Seita et al. Sec. 6.1 report it per method)."));
    m_data = statLabel(tr("Data points the tests read in total, and how many passes over the data that is."));
    m_fit = statLabel(tr("Total variation between the samples and the exact tempered posterior on 0.1 × 0.1 "
                         "cells (Seita et al. Sec. 6.1), one value per compared method; an MCMC chain's "
                         "autocorrelation inflates it, so compare methods at equal sample counts."));
    // Two rows, so the strip never forces the window wider than the controls and charts.
    auto *strip = new QGridLayout(this);
    strip->setContentsMargins(0, 0, 0, 0);
    strip->setHorizontalSpacing(18);
    strip->setVerticalSpacing(2);
    strip->addWidget(m_progress, 0, 0);
    strip->addWidget(m_speed, 0, 1);
    strip->addWidget(m_acceptance, 0, 2);
    strip->addWidget(m_batch, 0, 3);
    strip->addWidget(m_data, 1, 0, 1, 2);
    strip->addWidget(m_fit, 1, 2, 1, 2);
    strip->setColumnStretch(4, 1);
    resetLabels();
}

void RunStatusStrip::resetLabels()
{
    setStat(m_speed, tr("— it/s"));
    setStat(m_acceptance, tr("acceptance —"));
    setStat(m_batch, tr("mean batch —"));
    setStat(m_data, tr("data used —"));
    setStat(m_fit, tr("posterior fit: after a complete run"));
}

void RunStatusStrip::beginRun()
{
    resetLabels();
    m_progress->setRange(0, 0); // busy until the chains report
}

void RunStatusStrip::endRun()
{
    if (m_progress->maximum() == 0) {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setValue(0);
    }
}

void RunStatusStrip::showPreparation(double fraction)
{
    if (fraction < 0.0) {
        m_progress->setRange(0, 0);
        return;
    }
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFormat(tr("correction %p%"));
    m_progress->setValue(static_cast<int>(fraction * kProgressSteps));
}

void RunStatusStrip::showSnapshot(const RunSnapshot &snapshot, const RunRequest &request, qint64 done, qint64 total)
{
    if (total > 0) {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setFormat(tr("%L1 / %L2 samples").arg(done).arg(total));
        m_progress->setValue(static_cast<int>(kProgressSteps * done / total));
    }
    // The strip follows the channel that reported last, named when there are several.
    const QString prefix =
        request.channelCount() > 1
            ? QStringLiteral("%1 #%2: ")
                  .arg(QString::fromStdString(core::methodName(request.channelConfig(snapshot.channel).method)))
                  .arg(request.chainIndexOf(snapshot.channel) + 1)
            : QString();
    setStat(m_speed, tr("%1%L2 it/s").arg(prefix).arg(snapshot.iterationsPerSecond, 0, 'f', 0));
    setStat(m_acceptance, tr("acceptance %L1").arg(snapshot.acceptanceRate, 0, 'f', 3));
    setStat(m_batch, tr("mean batch %L1").arg(snapshot.meanBatch, 0, 'f', 1));
    setStat(m_data, tr("data used %L1 (%2)")
                        .arg(snapshot.dataPointsUsed)
                        .arg(formatPasses(snapshot.dataPointsUsed, snapshot.dataSize)));
}

void RunStatusStrip::showOutcome(const RunOutcome &outcome)
{
    const qint64 requested = outcome.config().samples * outcome.request.channelCount();
    const qint64 iterations = outcome.totalIterations();
    double wall = 0.0;
    qint64 used = 0;
    for (const ChainReport &report : outcome.chains) {
        wall = std::max(wall, report.summary.wallSeconds);
        used += report.summary.dataPointsUsed + report.summary.fullScanPoints;
    }
    if (iterations > 0) {
        setStat(m_speed, tr("%L1 it/s").arg(wall > 0 ? static_cast<double>(iterations) / wall : 0.0, 0, 'f', 0));
        setStat(m_acceptance, tr("acceptance %1").arg(perMethod(outcome, [](const ChainReport &r) {
            return QStringLiteral("%L1").arg(r.summary.acceptanceRate, 0, 'f', 3);
        })));
        const bool single = outcome.chains.size() == 1;
        setStat(m_batch, tr("mean batch %1").arg(perMethod(outcome, [single](const ChainReport &r) {
            return single ? QStringLiteral("%L1 (sd %L2)").arg(r.summary.meanBatch, 0, 'f', 1).arg(r.summary.sdBatch, 0, 'f', 1)
                          : QStringLiteral("%L1").arg(r.summary.meanBatch, 0, 'f', 0);
        })));
        setStat(m_data, tr("data used %L1 (%2)").arg(used).arg(formatPasses(used, outcome.dataSize)));
    }
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFormat(tr("%L1 / %L2 samples").arg(iterations).arg(requested));
    m_progress->setValue(requested > 0 ? static_cast<int>(kProgressSteps * iterations / requested) : 0);
    if (!outcome.chains.isEmpty() && outcome.chains.front().hasPosteriorMetrics) {
        setStat(m_fit, tr("posterior TV %1").arg(perMethod(outcome, [](const ChainReport &r) {
            return QStringLiteral("%L1").arg(r.posterior.totalVariation, 0, 'f', 3);
        })));
    } else if (!outcome.chains.isEmpty() && std::isfinite(outcome.chains.front().testAccuracy)) {
        setStat(m_fit, tr("test accuracy %1").arg(perMethod(outcome, [](const ChainReport &r) {
            return QStringLiteral("%L1").arg(r.testAccuracy, 0, 'f', 3);
        })));
    } else if (outcome.config().dataset != "gmm") {
        setStat(m_fit, tr("posterior fit: mixture only"));
    } else {
        setStat(m_fit, tr("posterior fit: run incomplete"));
    }
}

} // namespace ui
