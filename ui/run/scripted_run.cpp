#include "ui/run/scripted_run.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include <QDir>
#include <QPixmap>
#include <QDoubleSpinBox>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QTimer>

#include "ui/charts/chart_export.h"
#include "ui/panel/control_panel.h"
#include "ui/charts/correction_chart.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "ui/files/run_export.h"
#include "ui/files/window_picture.h"
#include "ui/pages/tradeoffs_page.h"
#include "core/experiment/reports/sweep_report.h"

namespace ui {
namespace {

void say(const QString &message)
{
    std::fprintf(stderr, "mh-explorer: %s\n", qPrintable(message));
}

} // namespace

ScriptedRun::ScriptedRun(MainWindow *window, ScriptOptions options, QObject *parent)
    : QObject(parent), m_window(window), m_options(std::move(options))
{
    connect(m_window, &MainWindow::runFinished, this, &ScriptedRun::onRunFinished);
    connect(m_window, &MainWindow::snapshotApplied, this, [this](qint64 completed) {
        if (m_halfWay || 2 * completed < m_options.request.config.samples)
            return;
        m_halfWay = true;
        if (m_options.midRunTemperature > 0.0) {
            // Straight to the chains (the box's own path waits for a pause in typing), and
            // the box shows it as if typed, without sending it a second time.
            if (!m_window->applyLiveTemperature(m_options.midRunTemperature)) {
                say(tr("the temperature change at half way was not applied"));
                m_stopped = true; // reported as a failure at the end
            }
            const QSignalBlocker quiet(m_window->controls()->temperatureBox());
            m_window->controls()->temperatureBox()->setValue(m_options.midRunTemperature);
        }
        if (!m_options.midRunScreenshotPath.isEmpty()) {
            m_midRunShot = true;
            m_window->results()->flushVisible(); // draw what has arrived, as the charts' timers would
            if (!saveScreenshot(m_options.midRunScreenshotPath))
                m_stopped = true;
        }
    });
    connect(m_window, &MainWindow::runFailed, this, [this](const QString &message) {
        say(tr("run failed: %1").arg(message));
        finish(1);
    });
}

void ScriptedRun::start()
{
    if (m_options.sweep) {
        QTimer::singleShot(0, this, &ScriptedRun::startSweep);
        return;
    }
    QTimer::singleShot(0, this, [this] {
        if (!m_window->startRequest(m_options.request)) {
            finish(1); // runFailed has already said why
            return;
        }
        if (m_options.request.untilStopped && m_options.stopAfterSeconds > 0.0)
            QTimer::singleShot(static_cast<int>(m_options.stopAfterSeconds * 1000.0), m_window, &MainWindow::stopRun);
    });
}

void ScriptedRun::onRunFinished(const ui::RunOutcome &outcome)
{
    // A run until stopped ends by its stop: that is its normal end.
    m_stopped = m_stopped || (outcome.stopped && !outcome.request.untilStopped);
    for (const ChainReport &report : outcome.chains) {
        const core::ChainSummary &s = report.summary;
        QString fit = report.hasPosteriorMetrics ? tr(", posterior TV %1").arg(report.posterior.totalVariation, 0, 'f', 4)
                                                 : QString();
        if (std::isfinite(report.testAccuracy))
            fit = tr(", test accuracy %1 (posterior mean θ: %2), %3 evaluations in %4 ms")
                      .arg(report.testAccuracy, 0, 'f', 4)
                      .arg(report.meanThetaAccuracy, 0, 'f', 4)
                      .arg(report.classifierEvaluations)
                      .arg(report.classifierSeconds * 1e3, 0, 'f', 1);
        const qint64 ran = s.iterations + report.result->firstIteration;
        if (outcome.request.untilStopped)
            fit += tr(", %L1 it/s; figures over the latest %L2").arg(s.iterationsPerSecond, 0, 'f', 0).arg(s.iterations);
        say(tr("%1 chain %2: %3 after %4 samples, acceptance %5, mean batch %6%7")
                .arg(QString::fromStdString(report.methodLabel()))
                .arg(report.chainIndex + 1)
                .arg(outcome.stopped ? tr("stopped") : tr("finished"))
                .arg(ran)
                .arg(s.acceptanceRate(), 0, 'f', 3)
                .arg(s.meanBatch(), 0, 'f', 1)
                .arg(fit));
    }
    finishWhenCorrectionReady();
}

void ScriptedRun::startSweep()
{
    m_window->results()->showTab(QStringLiteral("tradeoffs"));
    TradeoffsPage *page = m_window->results()->tradeoffsPage();
    connect(page, &TradeoffsPage::sweepFinished, this, &ScriptedRun::onSweepFinished);
    connect(page, &TradeoffsPage::sweepFailed, this, [this](const QString &message) {
        say(tr("sweep failed: %1").arg(message));
        finish(1);
    });
    connect(page, &TradeoffsPage::pointArrived, this, [](int index, int count) {
        say(tr("sweep point %1 of %2 done").arg(index + 1).arg(count));
    });
    // The sweep runs the form's entries, and the compare box holds each method once (with or
    // without proxies, or with the form's): a list such as smh,smh+taylor1 does not fit it, and
    // a sweep that dropped an entry would draw a scaling view without saying so.
    const RunRequest &asked = m_options.request;
    const RunRequest held = page->sweepRequest().base;
    if (held.methods.size() < asked.methods.size()) {
        QStringList askedLabels, heldLabels;
        for (std::size_t k = 0; k < asked.methods.size(); ++k)
            askedLabels << QString::fromStdString(asked.methodLabel(k));
        for (std::size_t k = 0; k < held.methods.size(); ++k)
            heldLabels << QString::fromStdString(held.methodLabel(k));
        say(tr("sweep refused: --methods asks for %1 entries (%2), but the compare box holds each method once and "
               "keeps %3 (%4). Sweep them with mh-explorer-cli sweep --methods, which takes any list.")
                .arg(asked.methods.size())
                .arg(askedLabels.join(QStringLiteral(", ")))
                .arg(held.methods.size())
                .arg(heldLabels.join(QStringLiteral(", "))));
        finish(1);
        return;
    }
    page->setAxis(*m_options.sweep);
    if (m_options.sweepSamples > 0)
        page->setSamplesPerPoint(m_options.sweepSamples);
    if (m_options.sweepTrials > 0)
        page->setTrials(m_options.sweepTrials);
    page->startSweep(); // a refusal comes back as sweepFailed
}

void ScriptedRun::onSweepFinished(bool stopped)
{
    m_stopped = m_stopped || stopped;
    const core::SweepOutcome &outcome = m_window->results()->tradeoffsPage()->outcome();
    std::fputs(core::sweepTableText(outcome).c_str(), stderr);
    say(tr("sweep of %1 %2: %3 points, %4 rows in %5 s")
            .arg(QString::fromStdString(outcome.settingKey), stopped ? tr("stopped") : tr("finished"))
            .arg(outcome.pointsCompleted)
            .arg(outcome.rows.size())
            .arg(outcome.wallSeconds, 0, 'f', 1));
    // One more turn of the event loop lets the last chart updates lay out.
    QTimer::singleShot(0, this, &ScriptedRun::writeOutputs);
}

void ScriptedRun::finishWhenCorrectionReady()
{
    // The correction chart solves in the background; its figure must show the final table.
    CorrectionChart *correction = m_window->results()->correctionChart();
    if (correction->isBusy()) {
        correction->solveNow();
        QTimer::singleShot(50, this, &ScriptedRun::finishWhenCorrectionReady);
        return;
    }
    // One more turn of the event loop lets the last chart updates lay out.
    QTimer::singleShot(0, this, &ScriptedRun::writeOutputs);
}

void ScriptedRun::writeOutputs()
{
    bool ok = !m_stopped;
    m_window->results()->flushAll();
    if (!m_options.exportDirectory.isEmpty()) {
        QString error;
        const QStringList written = exportCharts(m_window->results()->exportableCharts(), m_options.exportDirectory,
                                                 m_options.exportSize, &error);
        if (!error.isEmpty()) {
            say(error);
            ok = false;
        } else {
            say(tr("wrote %1 chart files to %2").arg(written.size()).arg(m_options.exportDirectory));
        }
        if (const auto outcome = m_window->lastOutcome(); outcome && !outcome->chains.empty()) {
            const QString summary = QDir(m_options.exportDirectory).filePath(QStringLiteral("summary.json"));
            try {
                writeRunSummary(*outcome, summary);
                say(tr("wrote %1").arg(summary));
            } catch (const std::exception &problem) {
                say(QString::fromStdString(problem.what()));
                ok = false;
            }
        }
    }
    if (!m_options.samplesPath.isEmpty()) {
        try {
            const auto outcome = m_window->lastOutcome();
            if (!outcome)
                throw std::runtime_error("the run has no samples to write");
            const QStringList written = writeRunSamples(*outcome, m_options.samplesPath);
            say(tr("wrote %1").arg(written.join(QStringLiteral(", "))));
        } catch (const std::exception &problem) {
            say(QString::fromStdString(problem.what()));
            ok = false;
        }
    }
    if (!m_options.screenshotPath.isEmpty() && !saveScreenshot(m_options.screenshotPath))
        ok = false;
    if (!m_options.midRunScreenshotPath.isEmpty() && !m_midRunShot) {
        say(tr("no mid-run screenshot: the run ended before a snapshot at half way"));
        ok = false;
    }
    finish(ok ? 0 : 1);
}

bool ScriptedRun::saveScreenshot(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !settledPicture(*m_window).save(&file, "PNG") || !file.commit()) {
        say(tr("cannot write screenshot '%1': %2").arg(path, file.errorString()));
        return false;
    }
    say(tr("screenshot written to %1").arg(path));
    return true;
}

void ScriptedRun::finish(int exitCode)
{
    if (m_done)
        return;
    m_done = true;
    // Later runs started by hand in the same window are not part of the script.
    disconnect(m_window, nullptr, this, nullptr);
    emit done(exitCode);
}

} // namespace ui
