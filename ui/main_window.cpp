#include "ui/main_window.h"

#include <algorithm>
#include <exception>

#include <QCloseEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QVBoxLayout>

#include "ui/control_panel.h"
#include "ui/posterior_chart.h"

namespace ui {
namespace {

constexpr int kProgressSteps = 1000;

// "0.25 passes", "6.07 passes", "20,000 passes": fewer decimals as the count grows, never an exponent.
QString formatPasses(qint64 pointsUsed, qint64 nData)
{
    const double passes = nData > 0 ? static_cast<double>(pointsUsed) / static_cast<double>(nData) : 0.0;
    const int decimals = passes >= 100.0 ? 0 : passes >= 10.0 ? 1 : 2;
    return MainWindow::tr("%L1 passes").arg(passes, 0, 'f', decimals);
}

QLabel *statLabel(const QString &toolTip)
{
    auto *label = new QLabel;
    label->setToolTip(toolTip);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    registerRunMetaTypes();
    setWindowTitle(tr("Minibatch MH Explorer"));

    m_controls = new ControlPanel;
    m_controls->setFixedWidth(m_controls->sizeHint().width() + 20);
    m_chart = new PosteriorChart;

    auto *central = new QWidget;
    auto *columns = new QHBoxLayout;
    columns->addWidget(m_controls);
    columns->addWidget(m_chart, 1);
    auto *rows = new QVBoxLayout(central);
    rows->addLayout(columns, 1);
    buildStatusStrip();
    // Two rows, so the strip never forces the window wider than the controls and chart.
    auto *strip = new QGridLayout;
    strip->setHorizontalSpacing(18);
    strip->setVerticalSpacing(2);
    strip->addWidget(m_progress, 0, 0);
    strip->addWidget(m_speedLabel, 0, 1);
    strip->addWidget(m_acceptanceLabel, 0, 2);
    strip->addWidget(m_batchLabel, 0, 3);
    strip->addWidget(m_dataLabel, 1, 0, 1, 2);
    strip->addWidget(m_fitLabel, 1, 2, 1, 2);
    strip->setColumnStretch(4, 1);
    rows->addLayout(strip);
    setCentralWidget(central);
    resize(1180, 760);

    // The worker has no parent so that it can move to the thread; it is deleted by
    // shutDownWorker() once the thread has ended.
    m_worker = new SamplerWorker;
    m_worker->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("sampler"));
    connect(this, &MainWindow::runRequested, m_worker, &SamplerWorker::start);
    connect(m_worker, &SamplerWorker::statusMessage, this, &MainWindow::showStatus);
    connect(m_worker, &SamplerWorker::preparationProgress, this, &MainWindow::onPreparationProgress);
    connect(m_worker, &SamplerWorker::posteriorImageReady, m_chart, &PosteriorChart::setPosteriorImage);
    connect(m_worker, &SamplerWorker::snapshot, this, &MainWindow::onSnapshot);
    connect(m_worker, &SamplerWorker::finished, this, &MainWindow::onFinished);
    connect(m_worker, &SamplerWorker::runFailed, this, &MainWindow::onRunFailed);
    m_thread.start();

    connect(m_controls, &ControlPanel::runRequested, this, &MainWindow::startRunFromControls);
    connect(m_controls, &ControlPanel::stopRequested, this, &MainWindow::stopRun);
    setRunning(false);
    showStatus(tr("Ready. Choose settings and press Run (Ctrl+R)."));
}

MainWindow::~MainWindow()
{
    shutDownWorker();
}

void MainWindow::buildStatusStrip()
{
    m_progress = new QProgressBar;
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("idle"));
    m_progress->setFixedWidth(200);
    m_speedLabel = statLabel(tr("Metropolis–Hastings iterations per second of wall-clock time."));
    m_acceptanceLabel = statLabel(tr("Share of proposals accepted so far."));
    m_batchLabel = statLabel(tr("Mean number of data points each acceptance test used "
                                "(Seita et al. Sec. 6.1 report it per method)."));
    m_dataLabel = statLabel(tr("Data points the tests read in total, and how many passes over the data that is."));
    m_fitLabel = statLabel(tr("Total variation and Pearson χ² between the samples and the exact tempered posterior "
                              "on 0.1 × 0.1 cells (Seita et al. Sec. 6.1); an MCMC chain's autocorrelation "
                              "inflates both, so compare methods at equal sample counts."));
    m_speedLabel->setText(tr("— it/s"));
    m_acceptanceLabel->setText(tr("acceptance —"));
    m_batchLabel->setText(tr("mean batch —"));
    m_dataLabel->setText(tr("data used —"));
    m_fitLabel->setText(tr("posterior fit: after a complete run"));
}

bool MainWindow::startRunFromControls()
{
    return startRun(m_controls->config());
}

bool MainWindow::startRun(const core::RunConfig &config)
{
    if (!m_worker) {
        reportFailure(tr("The sampler has shut down."));
        return false;
    }
    if (m_running) {
        showStatus(tr("A run is already in progress."));
        return false;
    }
    try {
        core::validate(config);
    } catch (const std::exception &error) {
        reportFailure(QString::fromStdString(error.what()));
        return false;
    }
    m_controls->setConfig(config); // a run started from code shows its settings too
    m_chart->clear();
    m_chart->setExpectedSampleCount(std::min<qint64>(config.samples, SamplerWorker::kMaxPlottedSamples));
    m_lastError.clear();
    m_lastOutcome.reset();
    m_nData = config.nData;
    m_speedLabel->setText(tr("— it/s"));
    m_acceptanceLabel->setText(tr("acceptance —"));
    m_batchLabel->setText(tr("mean batch —"));
    m_dataLabel->setText(tr("data used —"));
    m_fitLabel->setText(tr("posterior fit: after a complete run"));
    setRunning(true);
    m_worker->discardStopRequests();
    emit runRequested(config);
    return true;
}

void MainWindow::stopRun()
{
    if (!m_running || !m_worker)
        return;
    m_worker->requestStop();
    showStatus(tr("Stopping…"));
}

qsizetype MainWindow::plottedSampleCount() const
{
    return m_chart->plottedSampleCount();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Only the final posterior comparison (about a second) cannot be interrupted; the window
    // disappears at once while the worker finishes it.
    hide();
    shutDownWorker();
    event->accept();
}

void MainWindow::shutDownWorker()
{
    if (!m_worker)
        return;
    // The chain checks the stop token every iteration and the preparation steps between
    // rows or solver steps, so the join below is short.
    m_worker->requestStop();
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
    m_worker = nullptr;
    m_running = false;
}

void MainWindow::setRunning(bool running)
{
    m_running = running;
    m_controls->setRunning(running);
    if (running) {
        m_progress->setRange(0, 0); // busy until the chain reports
    } else if (m_progress->maximum() == 0) {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setValue(0);
    }
}

void MainWindow::showStatus(const QString &message)
{
    m_statusText = message;
    statusBar()->showMessage(message);
}

void MainWindow::reportFailure(const QString &message)
{
    m_lastError = message;
    showStatus(tr("Run failed: %1").arg(message));
    if (m_showErrorDialogs) {
        // open() rather than exec(): no nested event loop, so snapshots keep flowing.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Run failed"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit runFailed(message);
}

void MainWindow::onPreparationProgress(double fraction)
{
    if (fraction < 0.0) {
        m_progress->setRange(0, 0);
        return;
    }
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFormat(tr("correction %p%"));
    m_progress->setValue(static_cast<int>(fraction * kProgressSteps));
}

void MainWindow::onSnapshot(const ui::RunSnapshot &snapshot)
{
    m_chart->appendSamples(snapshot.newSamples, snapshot.current);
    if (snapshot.total > 0) {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setFormat(tr("%L1 / %L2 samples").arg(snapshot.completed).arg(snapshot.total));
        m_progress->setValue(static_cast<int>(kProgressSteps * snapshot.completed / snapshot.total));
    }
    m_speedLabel->setText(tr("%L1 it/s").arg(snapshot.iterationsPerSecond, 0, 'f', 0));
    m_acceptanceLabel->setText(tr("acceptance %L1").arg(snapshot.acceptanceRate, 0, 'f', 3));
    m_batchLabel->setText(tr("mean batch %L1").arg(snapshot.meanBatch, 0, 'f', 1));
    m_dataLabel->setText(
        tr("data used %L1 (%2)").arg(snapshot.dataPointsUsed).arg(formatPasses(snapshot.dataPointsUsed, m_nData)));
    if (snapshot.sampleStride > 1)
        m_chart->setToolTip(tr("Long run: one sample in %1 is drawn.").arg(snapshot.sampleStride));
    emit snapshotApplied(snapshot.completed);
}

void MainWindow::onFinished(const ui::RunOutcome &outcome)
{
    m_chart->flush();
    setRunning(false);
    m_lastOutcome = outcome;
    const core::ChainSummary &s = outcome.summary;
    const auto requested = static_cast<qint64>(outcome.config.samples);
    if (s.iterations > 0) {
        m_speedLabel->setText(tr("%L1 it/s").arg(s.iterationsPerSecond, 0, 'f', 0));
        m_acceptanceLabel->setText(tr("acceptance %L1").arg(s.acceptanceRate, 0, 'f', 3));
        m_batchLabel->setText(tr("mean batch %L1 (sd %L2)").arg(s.meanBatch, 0, 'f', 1).arg(s.sdBatch, 0, 'f', 1));
        m_dataLabel->setText(
            tr("data used %L1 (%2)").arg(s.dataPointsUsed).arg(formatPasses(s.dataPointsUsed, outcome.config.nData)));
    }
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFormat(tr("%L1 / %L2 samples").arg(s.iterations).arg(requested));
    m_progress->setValue(requested > 0 ? static_cast<int>(kProgressSteps * s.iterations / requested) : 0);
    if (outcome.hasPosteriorMetrics) {
        m_fitLabel->setText(tr("posterior TV %L1, χ² %L2 (%3 cells)")
                                .arg(outcome.posterior.totalVariation, 0, 'f', 3)
                                .arg(outcome.posterior.chiSquared, 0, 'f', 1)
                                .arg(outcome.posterior.chiSquaredCells));
    } else {
        m_fitLabel->setText(tr("posterior fit: run incomplete"));
    }
    QString message = outcome.stopped
                          ? tr("Stopped after %L1 of %L2 samples.").arg(s.iterations).arg(requested)
                          : tr("Finished %L1 samples in %L2 s.").arg(s.iterations).arg(s.wallSeconds, 0, 'f', 2);
    if (outcome.usedCorrection)
        message += tr(" Correction table L∞ error %1%2.")
                       .arg(outcome.correctionLinf, 0, 'g', 2)
                       .arg(outcome.correctionFromCache ? tr(" (cached)") : QString());
    if (s.fullDataFallbacks > 0)
        message += tr(" %L1 tests fell back to the full data.").arg(s.fullDataFallbacks);
    showStatus(message);
    emit runFinished(outcome);
}

void MainWindow::onRunFailed(const QString &message)
{
    m_chart->flush();
    setRunning(false);
    reportFailure(message);
}

} // namespace ui
