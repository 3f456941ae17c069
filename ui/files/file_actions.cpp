#include "ui/files/file_actions.h"

#include <exception>

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_style.h"
#include "ui/files/export_dialog.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "ui/files/run_export.h"
#include "ui/files/session.h"
#include "ui/run/queued_hand_off.h"

namespace ui {
namespace {

const QString kFolderKey = QStringLiteral("export/folder");

} // namespace

FileActions::FileActions(MainWindow *window) : QObject(window), m_window(window)
{
    buildMenu();
}

FileActions::~FileActions()
{
    // The writer only reads its own copy of the outcome, but must not outlive the process.
    if (m_samplesWatcher)
        m_samplesWatcher->waitForFinished();
}

void FileActions::buildMenu()
{
    QMenu *menu = m_window->menuBar()->addMenu(tr("&File"));
    menu->addAction(tr("&Open session…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), lastFolder(),
                                                          tr("Sessions (*.json);;All files (*)"));
        if (!path.isEmpty())
            openSession(path);
    });
    menu->addAction(tr("&Save session…"), QKeySequence::Save, this, [this] {
        const QString path = askSavePath(tr("Save session"), QStringLiteral("session.json"), tr("Sessions (*.json)"));
        if (!path.isEmpty())
            saveSession(path);
    });
    menu->addSeparator();
    QMenu *charts = menu->addMenu(tr("Export &chart"));
    connect(charts, &QMenu::aboutToShow, this, [this, charts] { fillChartMenu(charts); });
    menu->addAction(tr("Export &all charts…"), this, [this] {
        ExportDialog dialog(ExportDialog::Target::Folder, tr("Export all charts"), lastFolder(), m_window->exportSize(),
                            m_window);
        if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
            return;
        m_window->setExportSize(dialog.size());
        exportAllCharts(dialog.path(), dialog.size());
    });
    QAction *samples = menu->addAction(tr("Export &samples (CSV)…"), this, [this] {
        const QString path = askSavePath(tr("Export samples"), QStringLiteral("samples.csv"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportSamples(path);
    });
    QAction *summary = menu->addAction(tr("Export run s&ummary (JSON)…"), this, [this] {
        const QString path = askSavePath(tr("Export run summary"), QStringLiteral("summary.json"), tr("JSON (*.json)"));
        if (!path.isEmpty())
            exportSummary(path);
    });
    connect(menu, &QMenu::aboutToShow, this, [this, samples, summary] {
        const bool hasRun = m_window->lastOutcome() && !m_window->lastOutcome()->chains.empty();
        samples->setEnabled(hasRun && !isExporting());
        summary->setEnabled(hasRun);
    });
    menu->addSeparator();
    menu->addAction(tr("&Quit"), QKeySequence::Quit, m_window, &QWidget::close);
}

void FileActions::fillChartMenu(QMenu *menu)
{
    menu->clear();
    for (const NamedChart &chart : m_window->results()->exportableCharts()) {
        menu->addAction(chart.title + QStringLiteral("…"), this, [this, chart] {
            const QString initial = QDir(lastFolder()).filePath(chart.stem + QStringLiteral(".png"));
            ExportDialog dialog(ExportDialog::Target::File, tr("Export %1").arg(chart.title), initial,
                                m_window->exportSize(), m_window);
            if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
                return;
            m_window->setExportSize(dialog.size());
            exportChart(chart, dialog.path(), dialog.size());
        });
    }
}

QString FileActions::askSavePath(const QString &title, const QString &fileName, const QString &filter)
{
    return QFileDialog::getSaveFileName(m_window, title, QDir(lastFolder()).filePath(fileName), filter);
}

bool FileActions::fail(const QString &message)
{
    m_window->reportError(tr("Export failed"), message);
    return false;
}

void FileActions::rememberFolder(const QString &path)
{
    QSettings().setValue(kFolderKey, QFileInfo(path).absolutePath());
}

QString FileActions::lastFolder() const
{
    return QSettings()
        .value(kFolderKey, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .toString();
}

QString FileActions::shownRun() const
{
    const QString label = m_window->shownRunLabel();
    return label.isEmpty() ? tr("no run") : label;
}

bool FileActions::exportAllCharts(const QString &directory, QSize size)
{
    m_window->results()->flushAll();
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const QStringList written = exportCharts(m_window->results()->exportableCharts(), directory, size, &error);
    QApplication::restoreOverrideCursor();
    if (!error.isEmpty())
        return fail(error);
    QSettings().setValue(kFolderKey, directory);
    m_window->showStatus(tr("Wrote %1 chart files of %2 to %3.")
                             .arg(written.size())
                             .arg(shownRun(), QDir::toNativeSeparators(directory)));
    return true;
}

bool FileActions::exportChart(const NamedChart &chart, const QString &path, QSize size)
{
    const auto format = formatOfPath(path);
    if (!format)
        return fail(tr("Cannot write %1: the name must end in .png or .svg").arg(path));
    m_window->results()->flushAll();
    QString error;
    if (!ui::exportChart(chart.view, path, *format, size, chart.title, &error))
        return fail(error);
    rememberFolder(path);
    m_window->showStatus(tr("Wrote %1 of %2.").arg(QDir::toNativeSeparators(path), shownRun()));
    return true;
}

bool FileActions::exportSamples(const QString &path)
{
    const auto outcome = m_window->lastOutcome();
    if (!outcome || outcome->chains.empty())
        return fail(tr("There are no samples yet: run a chain first."));
    if (isExporting())
        return fail(tr("An export is still being written."));
    m_window->showStatus(tr("Writing samples to %1…").arg(QDir::toNativeSeparators(path)));
    m_samplesWatcher = new QFutureWatcher<QPair<QStringList, QString>>(this);
    connect(m_samplesWatcher, &QFutureWatcherBase::finished, this, [this, path, run = shownRun()] {
        const auto [written, error] = m_samplesWatcher->result();
        m_samplesWatcher->deleteLater();
        m_samplesWatcher = nullptr;
        if (!error.isEmpty()) {
            fail(error);
            emit exportFinished(false, error);
            return;
        }
        rememberFolder(path);
        const QString message = tr("Wrote %n sample file(s) of %2: %1", nullptr, static_cast<int>(written.size()))
                                    .arg(written.join(QStringLiteral(", ")), run);
        m_window->showStatus(message);
        emit exportFinished(true, message);
    });
    m_samplesWatcher->setFuture(runOnPool([run = *outcome, path] {
        QPair<QStringList, QString> result;
        try {
            result.first = writeRunSamples(run, path);
        } catch (const std::exception &error) {
            result.second = QString::fromStdString(error.what());
        }
        return result;
    }));
    return true;
}

bool FileActions::exportSummary(const QString &path)
{
    const auto outcome = m_window->lastOutcome();
    if (!outcome || outcome->chains.empty())
        return fail(tr("There is no run to summarise yet."));
    try {
        writeRunSummary(*outcome, path);
    } catch (const std::exception &error) {
        return fail(QString::fromStdString(error.what()));
    }
    rememberFolder(path);
    m_window->showStatus(tr("Wrote %1 of %2.").arg(QDir::toNativeSeparators(path), shownRun()));
    return true;
}

bool FileActions::saveSession(const QString &path)
{
    QString error;
    if (!ui::saveSession(m_window->session(), path, &error)) {
        m_window->reportError(tr("Could not save the session"), error);
        return false;
    }
    rememberFolder(path);
    m_window->showStatus(tr("Session saved to %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileActions::openSession(const QString &path)
{
    if (m_window->isRunning()) {
        m_window->reportError(tr("Could not open the session"), tr("Stop the run first."));
        return false;
    }
    QString error;
    const auto session = loadSession(path, &error);
    if (!session) {
        m_window->reportError(tr("Could not open the session"), error);
        return false;
    }
    m_window->applySession(*session);
    rememberFolder(path);
    m_window->showStatus(tr("Session loaded from %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

} // namespace ui
