#include "ui/main_window.h"

#include <algorithm>
#include <exception>

#include <QCloseEvent>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QTimer>
#include <QUrl>
#include <QHBoxLayout>
#include <QIcon>
#include <QMenuBar>
#include <QToolBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include "core/experiment/settings/presets.h"
#include "ui/app_identity.h"
#include "ui/panel/compare_box.h"
#include "ui/run/continuous_controls.h"
#include "ui/run/run_buttons.h"
#include "ui/panel/control_panel.h"
#include "ui/charts/correction_chart.h"
#include "ui/files/data_files.h"
#include "ui/panel/dataset_box.h"
#include "ui/files/file_actions.h"
#include "ui/charts/posterior_chart.h"
#include "ui/charts/posterior_preview.h"
#include "ui/panel/presets.h"
#include "ui/pages/results_view.h"
#include "ui/run/run_status_strip.h"
#include "ui/files/session.h"
#include "ui/panel/setting_help.h"
#include "ui/run/stale_banner.h"
#include "ui/pages/tradeoffs_page.h"
#include "ui/charts/trace_chart.h"

namespace ui {

// The form and its run buttons on the left, the charts under their banner on the right, the
// status strip below.
void MainWindow::buildLayout()
{
    m_controls = new ControlPanel;
    // The panel scrolls rather than forcing the window taller than small screens.
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("formScroll"));
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_results = new ResultsView;

    auto *panel = new QWidget;
    auto *left = new QVBoxLayout(panel);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(scroll, 1);
    left->addWidget(m_controls->runButtons()); // in view however far the form scrolls
    // The charts, under the banner that says when they no longer match the settings.
    auto *charts = new QWidget;
    auto *right = new QVBoxLayout(charts);
    right->setContentsMargins(0, 0, 0, 0);
    m_banner = new StaleBanner;
    right->addWidget(m_banner);
    right->addWidget(m_results, 1);
    // The panel and the charts share the width as the user drags the handle between them.
    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("panelSplitter"));
    m_splitter->addWidget(panel);
    m_splitter->addWidget(charts);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setCollapsible(1, false);
    auto *central = new QWidget;
    auto *rows = new QVBoxLayout(central);
    rows->addWidget(m_splitter, 1);
    m_strip = new RunStatusStrip;
    rows->addWidget(m_strip);
    setCentralWidget(central);
    fitToScreen(scroll->verticalScrollBar()->sizeHint().width());
    // The form's minimum grows with what it shows (a file's name in the dataset box, "Samples
    // shown" in continuous mode): the panel follows, so its boxes never scroll sideways.
    m_controls->installEventFilter(this);
}

// The form's, the strip's, the banner's and the preview's signals to the window's slots.
void MainWindow::connectControls()
{
    connect(m_controls->runButtons(), &RunButtons::runRequested, this, &MainWindow::startRunFromControls);
    connect(m_controls->runButtons(), &RunButtons::stopRequested, this, &MainWindow::stopRun);
    connect(m_controls->runButtons(), &RunButtons::pauseToggled, this, [this](bool paused) {
        if (paused && m_runs->pause()) {
            m_strip->setPaused(true);
            showStatus(tr("Paused: Step (Ctrl+T) runs one iteration, Resume (Ctrl+P) goes on."));
        } else if (!paused && m_runs->resume()) {
            m_strip->setPaused(false);
            showStatus(tr("Running."));
        }
    });
    connect(m_controls->runButtons(), &RunButtons::stepRequested, m_runs, &RunController::step);
    connect(m_controls->runButtons(), &RunButtons::resetRequested, this, &MainWindow::resetRun);
    connect(m_controls, &ControlPanel::liveTemperatureChanged, this, &MainWindow::applyLiveTemperature);
    connect(m_controls, &ControlPanel::liveStepChanged, this, &MainWindow::applyLiveStep);
    connect(m_controls, &ControlPanel::restartSettingChanged, this, &MainWindow::scheduleRestart);
    connect(m_controls, &ControlPanel::correctionChanged, m_results->correctionChart(), &CorrectionChart::setParams);
    connect(m_controls, &ControlPanel::settingsChanged, this, &MainWindow::compareShownWithForm);
    connect(m_strip, &RunStatusStrip::revertTemperatureRequested, this, [this](double temperature) {
        m_controls->temperatureBox()->setValue(temperature); // a live change like any other
    });
    connect(m_strip, &RunStatusStrip::stopRequested, this, &MainWindow::stopRun);
    connect(m_controls, &ControlPanel::inputRefused, this, [this](const QString &problem) {
        if (!problem.isEmpty())
            showStatus(tr("Not applied: %1").arg(problem));
        compareShownWithForm(); // auto-run waits for the box, or goes on once it is fixed
    });
    connect(m_banner, &StaleBanner::runRequested, this, &MainWindow::startRunFromControls);
    m_preview = new PosteriorPreview(this);
    connect(m_preview, &PosteriorPreview::imageReady, this, [this](const PosteriorImage &image) {
        if (!m_runs->isActive())
            m_results->setPosteriorImage(image);
    });
    m_autoRunDelay = new QTimer(this);
    m_autoRunDelay->setSingleShot(true);
    m_autoRunDelay->setInterval(kAutoRunDelayMs);
    connect(m_autoRunDelay, &QTimer::timeout, this, &MainWindow::onAutoRunDue);
}

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    registerRunMetaTypes();
    setWindowTitle(tr("Minibatch MH Explorer"));
    setWindowIcon(applicationIcon());

    buildLayout();

    m_runs = new RunController(this);
    connectRunController();
    connectControls();
    m_results->correctionChart()->setParams(m_controls->correctionParams());
    m_results->tradeoffsPage()->setForm(m_controls);
    connect(m_results->tradeoffsPage(), &TradeoffsPage::statusMessage, this, &MainWindow::showStatus);

    connect(m_controls->datasetBox(), &DatasetBox::checked, this, [this](bool ok, const QString &message) {
        if (ok)
            showStatus(tr("Data checked: %1").arg(message));
        else
            reportError(tr("Data"), message);
    });
    setAcceptDrops(true);

    m_files = new FileActions(this);
    buildRunMenu();
    wrapToolTips(this);
    onStateChanged(m_runs->state()); // also asks for the posterior of the form's settings
    showStatus(tr("Ready. Choose settings and press Run (Ctrl+R)."));
}

MainWindow::~MainWindow()
{
    shutDownWorker();
}

void MainWindow::buildRunMenu()
{
    QMenu *menu = menuBar()->addMenu(tr("&Run"));
    // The panel's buttons own Ctrl+R and Esc; the menu only names them.
    QAction *run = menu->addAction(tr("Run\tCtrl+R"), this, &MainWindow::startRunFromControls);
    QAction *stop = menu->addAction(tr("Stop\tEsc"), this, &MainWindow::stopRun);
    // Pause and Step act through the panel's buttons, which own Ctrl+P and Ctrl+T and show
    // the pause state.
    QAction *pause = menu->addAction(tr("Pause\tCtrl+P"), this, [this] { m_controls->runButtons()->button(RunButtons::Pause)->click(); });
    pause->setObjectName(QStringLiteral("pauseAction"));
    pause->setCheckable(true);
    QAction *step = menu->addAction(tr("Step\tCtrl+T"), this, [this] { m_controls->runButtons()->button(RunButtons::Step)->click(); });
    step->setObjectName(QStringLiteral("stepAction"));
    menu->addAction(tr("Reset\tCtrl+Shift+R"), this, &MainWindow::resetRun);
    menu->addSeparator();
    QAction *pin = menu->addAction(tr("Pin the shown samples"), this, [this] {
        m_results->pinPosteriorSamples();
        showStatus(tr("Pinned %1: its samples stay as a faint layer under the next runs' (Run ▸ Clear the pin).")
                       .arg(shownRunLabel().isEmpty() ? tr("the shown samples") : shownRunLabel()));
    });
    pin->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    menu->addAction(tr("Clear the pin"), this, [this] { m_results->clearPin(); });
    menu->addSeparator();
    m_autoRunAction = menu->addAction(tr("&Auto-run after changes"));
    m_autoRunAction->setCheckable(true);
    m_autoRunAction->setChecked(m_autoRun);
    m_autoRunAction->setToolTip(tr("Once a run is shown, every change of the settings starts a new run after a short "
                                   "pause in the editing"));
    connect(m_autoRunAction, &QAction::toggled, this, &MainWindow::setAutoRun);
    QToolBar *toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName(QStringLiteral("runToolBar"));
    toolbar->setMovable(false);
    toolbar->addAction(m_autoRunAction);
    m_continuous = new ContinuousControls(this);
    menu->addAction(m_continuous->untilStoppedAction());
    toolbar->addSeparator();
    toolbar->addAction(m_continuous->untilStoppedAction());
    toolbar->addWidget(m_continuous);
    connect(m_continuous, &ContinuousControls::untilStoppedToggled, this, &MainWindow::setUntilStopped);
    connect(m_continuous, &ContinuousControls::paceChanged, this, [this](double pace) { worker()->setPace(pace); });
    connect(menu, &QMenu::aboutToShow, this, [this, run, stop, pause, step] {
        run->setEnabled(!isRunning());
        stop->setEnabled(isRunning());
        pause->setEnabled(m_controls->runButtons()->button(RunButtons::Pause)->isEnabled());
        pause->setChecked(m_controls->runButtons()->button(RunButtons::Pause)->isChecked());
        step->setEnabled(m_controls->runButtons()->button(RunButtons::Step)->isEnabled());
    });
    menu->addSeparator();
    QAction *defaults = menu->addAction(tr("Restore &defaults"), this, &MainWindow::restoreDefaults);
    defaults->setObjectName(QStringLiteral("restoreDefaultsAction"));
    defaults->setStatusTip(tr("Set every setting to its default (the settings table's, as the command line has them)."));
    menu->addSeparator();
    QMenu *presets = menu->addMenu(tr("&Presets"));
    for (const QString &name : presetNames()) {
        QAction *action = presets->addAction(name, this, [this, name] {
            if (const auto request = presetRequest(name)) {
                m_controls->setRequest(*request);
                scheduleRestart(tr("the preset (%1)").arg(name)); // only if a run is going
            }
        });
        action->setToolTip(presetDescription(name));
        action->setStatusTip(presetDescription(name));
    }
}

PosteriorChart *MainWindow::chart() const
{
    return m_results->posteriorChart(0);
}

qsizetype MainWindow::plottedSampleCount() const
{
    return m_results->plottedSampleCount();
}

Session MainWindow::session() const
{
    Session session;
    m_controls->fillSession(session);
    session.exportSize = m_exportSize;
    session.tab = ResultsView::tabKeys().value(m_results->currentIndex());
    return session;
}

void MainWindow::applySession(const Session &session)
{
    m_controls->applySession(session);
    m_exportSize = session.exportSize;
    // A tab this version does not have (a newer session's) leaves the current one shown.
    if (const int tab = ResultsView::tabIndex(session.tab); tab >= 0)
        m_results->setCurrentIndex(tab);
}

void MainWindow::restoreLastSession(const Session &session)
{
    applySession(session);
    QString note = tr("Restored the last session's settings — Run ▸ Restore defaults starts afresh.");
    if (!session.droppedData.isEmpty())
        note += tr(" %1 was not restored: it failed to load (%2). The last data that loaded (or the installed images, "
                   "when none had) are selected instead.")
                    .arg(session.droppedData, session.droppedReason);
    m_strip->showNotice(note);
    showStatus(note);
}

void MainWindow::restoreDefaults()
{
    Session defaults;
    defaults.tab = ResultsView::tabKeys().value(m_results->currentIndex());
    defaults.exportSize = m_exportSize;
    m_controls->applySession(defaults);
    m_strip->showNotice(QString());
    showStatus(tr("Every setting is back at its default."));
    scheduleRestart(tr("the default settings")); // only if a run is going
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_autosave) {
        const QString path = autosaveSessionPath();
        QDir().mkpath(QFileInfo(path).absolutePath());
        QString error;
        Session kept = session();
        // A file that failed to load would greet the next start with the same error: keep the
        // last data that loaded, and say why at that start.
        if (m_controls->datasetBox()->failedOnContents()) {
            kept.droppedData = m_controls->datasetBox()->files().displayName();
            kept.droppedReason = m_controls->datasetBox()->failedCheck();
            const std::string failed = kept.config.dataset;
            m_controls->datasetBox()->fillLastGoodData(kept.config);
            // Other data than the file's (generated data chosen before it): the form the file
            // brought (its preset's T, step, proposal, …) is not theirs; theirs is what picking
            // them shows.
            if (kept.config.dataset != failed)
                kept.config = core::withPreset(kept.config, kept.config.preset, m_controls->request().methods);
        }
        if (!saveSession(kept, path, &error))
            qWarning("%s", qPrintable(error));
    }
    // Only the final posterior comparison (about a second) cannot be interrupted; the window
    // disappears at once while the worker finishes it.
    hide();
    shutDownWorker();
    event->accept();
}

void MainWindow::shutDownWorker()
{
    m_runs->shutDown();
}

void MainWindow::setShowErrorDialogs(bool show)
{
    m_showErrorDialogs = show;
    m_controls->datasetBox()->setInteractive(show);
}

namespace {

QStringList localFiles(const QMimeData *mime)
{
    QStringList paths;
    if (mime && mime->hasUrls())
        for (const QUrl &url : mime->urls())
            if (url.isLocalFile())
                paths.append(url.toLocalFile());
    return paths;
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QStringList paths = localFiles(event->mimeData());
    if (!paths.isEmpty() && std::all_of(paths.begin(), paths.end(), looksLikeDataFile))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList paths = localFiles(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    selectDataFiles(paths);
}

bool MainWindow::selectDataFiles(const QStringList &paths)
{
    QString problem;
    const DataFileChoice choice = sortDataFiles(paths, &problem);
    if (choice.isEmpty()) {
        reportError(tr("Data"), problem);
        return false;
    }
    DatasetBox *box = m_controls->datasetBox();
    box->selectFiles(choice);
    if (problem.isEmpty()) {
        showStatus(tr("Checking %1…").arg(choice.displayName()));
        return true;
    }
    if (m_showErrorDialogs && !choice.images.isEmpty() && choice.labels.isEmpty()) {
        // After the drop has returned: a dialog inside a drop handler would hold the drag.
        QTimer::singleShot(0, this, [this, choice] {
            const QString labels = QFileDialog::getOpenFileName(
                this, tr("Choose the label file for %1").arg(QFileInfo(choice.images).fileName()),
                QFileInfo(choice.images).absolutePath(), tr("IDX label files (*.gz *.idx *ubyte);;All files (*)"));
            if (!labels.isEmpty())
                m_controls->datasetBox()->selectFiles({QString(), choice.images, labels, QString()});
        });
        showStatus(problem);
        return false;
    }
    reportError(tr("Data"), problem);
    return false;
}

void MainWindow::reportError(const QString &title, const QString &message)
{
    m_lastError = message;
    showStatus(tr("%1: %2").arg(title, message));
    // One dialog per error: a file refused by its check and then by the run it was asked for
    // says the same thing once.
    if (m_errorDialog && m_errorDialog->isVisible() && m_errorDialog->text() == message)
        return;
    if (m_showErrorDialogs) {
        // open() rather than exec(): no nested event loop, so snapshots keep flowing.
        auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        m_errorDialog = box;
    }
}

void MainWindow::reportFailure(const QString &message)
{
    reportError(tr("Run failed"), message);
    emit runFailed(message);
}

} // namespace ui
