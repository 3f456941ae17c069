#pragma once
// The File menu of the main window: sessions (open, save) and exports (one chart or all
// charts as PNG/SVG, samples as CSV, the run summary as JSON). The menu entries ask for paths
// with dialogs; the functions they call are public so scripts and tests can use them without.
//
// Chart renders must run on the GUI thread (they paint the chart scene); sample files, which
// can hold millions of rows, are written on the thread pool while the window stays usable.
#include <QFutureWatcher>
#include <QObject>
#include <QPair>
#include <QSize>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace ui {

class MainWindow;
struct NamedChart;

class FileActions : public QObject {
    Q_OBJECT
public:
    /// Adds the File menu to `window`'s menu bar.
    explicit FileActions(MainWindow *window);
    ~FileActions() override;

    /// Writes every chart as PNG and SVG into `directory`. Returns false and reports why on
    /// failure (status bar, and a dialog if the window shows them).
    bool exportAllCharts(const QString &directory, QSize size);
    /// Writes one chart; the path's suffix (.png or .svg) chooses the format.
    bool exportChart(const NamedChart &chart, const QString &path, QSize size);
    /// Writes the last run's samples (one CSV per chain) on the thread pool; exportFinished()
    /// follows. Returns false at once when there is no run or an export is still going.
    bool exportSamples(const QString &path);
    /// Writes the last run's summary JSON.
    bool exportSummary(const QString &path);
    bool saveSession(const QString &path);
    bool openSession(const QString &path);
    bool isExporting() const { return m_samplesWatcher != nullptr; }

signals:
    /// The end of an exportSamples(): the files written, or the error.
    void exportFinished(bool ok, const QString &message);

private:
    void buildMenu();
    void fillChartMenu(QMenu *menu);
    QString askSavePath(const QString &title, const QString &fileName, const QString &filter);
    bool fail(const QString &message);
    void rememberFolder(const QString &path);
    QString lastFolder() const;
    /// Which run an export writes, for its message (MainWindow::shownRunLabel()).
    QString shownRun() const;

    MainWindow *m_window;
    QFutureWatcher<QPair<QStringList, QString>> *m_samplesWatcher = nullptr;
};

} // namespace ui
