// The main window and its worker, driven offscreen (QT_QPA_PLATFORM=offscreen): runs finish
// and plot, stops stop, failures reach the window as messages, closing mid-run joins the
// worker, and the window renders to PNG.
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/panel/compare_box.h"
#include "ui/panel/control_panel.h"
#include "ui/main_window.h"
#include "ui/charts/posterior_chart.h"
#include "ui/run/sampler_worker.h"
#include "tests/support/small_runs.h"

namespace {

using testruns::kRunTimeoutMs;
using testruns::smallConfig;

ui::RunOutcome outcomeAt(const QSignalSpy &spy, int index)
{
    return spy.at(index).at(0).value<ui::RunOutcome>();
}

} // namespace

class tst_MainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void controlsStartFromCoreDefaults();
    void settingTooltipsComeFromTheSettingsTable();
    void runFinishesAndPlots_data();
    void runFinishesAndPlots();
    void stopEndsRunEarly();
    void pauseHoldsAndStepAdvances();
    void workerFailureReportsMessage();
    void invalidSettingsAreRejectedBeforeStart();
    void compareNeedsTwoToEightMethods();
    void closingMidRunJoinsWorker();
    void windowGrabsToPng();

private:
    QTemporaryDir m_cacheDir;
};

void tst_MainWindow::initTestCase()
{
    // A private correction cache: the minibatch run solves its table once, and the test
    // neither depends on nor writes to the user's cache.
    QVERIFY(m_cacheDir.isValid());
    qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
}

// The controls that hold a run setting say its key, flag and range as the CLI's --help does.
void tst_MainWindow::settingTooltipsComeFromTheSettingsTable()
{
    ui::MainWindow window;
    QStringList tips;
    for (const QWidget *widget : window.findChildren<QWidget *>())
        tips.append(widget->toolTip());
    const QString all = tips.join(QLatin1Char('\n'));
    for (const char *expected : {"Setting “sigma” (command line --sigma): correction noise sd in (0, 1.8138) [1].",
                                 "Setting “temperature” (command line --temperature)",
                                 "Setting “batch” (command line --batch): initial minibatch m >= 2"})
        QVERIFY2(all.contains(QString::fromUtf8(expected)), expected);
}

void tst_MainWindow::controlsStartFromCoreDefaults()
{
    ui::MainWindow window;
    const core::RunConfig shown = window.controls()->config();
    const core::RunConfig defaults;
    QCOMPARE(shown.method, defaults.method);
    QCOMPARE(shown.nData, defaults.nData);
    QCOMPARE(shown.temperature, defaults.temperature);
    QCOMPARE(shown.step, defaults.step);
    QCOMPARE(shown.samples, defaults.samples);
    QCOMPARE(window.controls()->runButtons()->button(ui::RunButtons::Run)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
    QCOMPARE(window.controls()->runButtons()->button(ui::RunButtons::Stop)->shortcut(), QKeySequence(Qt::Key_Escape));
    QVERIFY(window.controls()->runButtons()->button(ui::RunButtons::Run)->isEnabled());
    QVERIFY(!window.controls()->runButtons()->button(ui::RunButtons::Stop)->isEnabled());
    // Every setting explains itself with a pointer into the paper.
    const auto combos = window.controls()->findChildren<QComboBox *>();
    QVERIFY(!combos.isEmpty());
    QList<QWidget *> settings;
    for (QWidget *widget : window.controls()->findChildren<QAbstractSpinBox *>())
        settings.append(widget);
    for (QWidget *widget : combos)
        settings.append(widget);
    for (QWidget *widget : window.controls()->findChildren<QCheckBox *>())
        settings.append(widget);
    for (QWidget *widget : settings) {
        QVERIFY2(widget->toolTip().contains(QStringLiteral("Sec. ")),
                 qPrintable(widget->objectName() + QStringLiteral(" ") + widget->metaObject()->className()
                            + QStringLiteral(": '") + widget->toolTip() + QStringLiteral("'")));
    }
    // Every row of the core's method table is offered by the method box, in the table's order
    // and with its label and description, and has a tick box in the compare box.
    QComboBox *methods = window.controls()->methodBox();
    const std::vector<core::MethodEntry> &table = core::methodTable();
    QCOMPARE(methods->count(), static_cast<int>(table.size()));
    QStringList compareTicks;
    for (const QCheckBox *tick : window.controls()->compareBox()->findChildren<QCheckBox *>())
        compareTicks.append(tick->text());
    for (std::size_t k = 0; k < table.size(); ++k) {
        const QString name = QString::fromUtf8(table[k].name.data(), static_cast<qsizetype>(table[k].name.size()));
        QCOMPARE(methods->itemData(static_cast<int>(k)).toString(), name);
        QCOMPARE(methods->itemText(static_cast<int>(k)),
                 QString::fromUtf8(table[k].label.data(), static_cast<qsizetype>(table[k].label.size())));
        QVERIFY2(methods->itemData(static_cast<int>(k), Qt::ToolTipRole).toString().contains(QStringLiteral("Sec.")),
                 qPrintable(name));
        QVERIFY2(compareTicks.contains(name), qPrintable(name + QStringLiteral(" has no tick box in the compare box")));
    }
    // The embedded icon loads.
    QVERIFY(!window.windowIcon().pixmap(32, 32).isNull());
}

void tst_MainWindow::runFinishesAndPlots_data()
{
    QTest::addColumn<QString>("methodName");
    QTest::newRow("barker") << QStringLiteral("barker");
    QTest::newRow("minibatch") << QStringLiteral("minibatch");
    QTest::newRow("austere-c") << QStringLiteral("austere-c");
    QTest::newRow("sublhd") << QStringLiteral("sublhd");
}

void tst_MainWindow::runFinishesAndPlots()
{
    QFETCH(QString, methodName);
    const core::TestMethod method = core::parseMethod(methodName.toStdString());
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(window.startRun(smallConfig(method, 2000)));
    QVERIFY(window.isRunning());
    QCOMPARE(window.runState(), ui::RunState::Preparing);
    QVERIFY(!window.controls()->runButtons()->button(ui::RunButtons::Run)->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, kRunTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    qInfo("%s run took %lld ms with %lld snapshots", QTest::currentDataTag(), static_cast<long long>(clock.elapsed()),
          static_cast<long long>(snapshots.count()));

    const ui::RunOutcome outcome = outcomeAt(finished, 0);
    QVERIFY(!outcome.stopped);
    QCOMPARE(outcome.chains.size(), std::size_t{1});
    const ui::ChainReport &chain = outcome.chains.front();
    QCOMPARE(chain.summary.iterations, std::int64_t{2000});
    QVERIFY(chain.summary.acceptanceRate() > 0.0 && chain.summary.acceptanceRate() < 1.0);
    QCOMPARE(outcome.usedCorrection, method == core::TestMethod::Minibatch);
    QVERIFY(snapshots.count() > 0);
    // Every sample of a short run is drawn, over the rendered posterior.
    QVERIFY(window.chart()->seriesCount() > 0);
    QCOMPARE(window.plottedSampleCount(), qsizetype{2000});
    QVERIFY(window.chart()->hasPosteriorImage());
    QVERIFY(chain.hasPosteriorMetrics);
    QVERIFY(chain.posterior.totalVariation >= 0.0 && chain.posterior.totalVariation <= 1.0);
    QVERIFY(chain.posterior.chiSquaredCells > 0);
    QVERIFY(outcome.posterior != nullptr);
    QVERIFY(!window.isRunning());
    QVERIFY(window.controls()->runButtons()->button(ui::RunButtons::Run)->isEnabled());
    QCOMPARE(window.runState(), ui::RunState::Idle);
    QVERIFY(window.statusText().contains(QStringLiteral("Finished")));
}

void tst_MainWindow::stopEndsRunEarly()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
    const std::int64_t requested = 1'000'000; // far more than the test waits for
    QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, requested)));
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
    QCOMPARE(window.runState(), ui::RunState::Running);
    window.stopRun();
    QCOMPARE(window.runState(), ui::RunState::Stopping);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

    const ui::RunOutcome outcome = outcomeAt(finished, 0);
    QVERIFY(outcome.stopped);
    QCOMPARE(outcome.chains.size(), std::size_t{1});
    QVERIFY(outcome.chains.front().summary.iterations > 0);
    QVERIFY(outcome.chains.front().summary.iterations < requested);
    QVERIFY(!outcome.chains.front().hasPosteriorMetrics);
    QVERIFY(window.plottedSampleCount() > 0);
    QVERIFY(!window.isRunning());
    QCOMPARE(window.runState(), ui::RunState::Idle);
    QVERIFY(window.statusText().contains(QStringLiteral("Stopped")));
}

void tst_MainWindow::pauseHoldsAndStepAdvances()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
    auto *pause = window.controls()->runButtons()->button(ui::RunButtons::Pause);
    auto *step = window.controls()->runButtons()->button(ui::RunButtons::Step);
    QVERIFY(!pause->isEnabled() && !step->isEnabled());
    QCOMPARE(pause->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
    QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
    QVERIFY(pause->isEnabled() && !step->isEnabled());
    pause->click();
    QVERIFY(window.worker()->isPaused());
    QCOMPARE(window.runState(), ui::RunState::Paused);
    QVERIFY(step->isEnabled());
    QTest::qWait(300); // let a snapshot already on its way arrive
    const auto held = snapshots.count();
    QTest::qWait(300);
    QCOMPARE(snapshots.count(), held); // nothing runs while paused
    step->click();
    QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), held + 1, 5000); // one iteration, shown at once
    QTest::qWait(200);
    QCOMPARE(snapshots.count(), held + 1);
    QCOMPARE(window.runState(), ui::RunState::Paused);
    pause->click(); // resume
    QVERIFY(!window.worker()->isPaused());
    QCOMPARE(window.runState(), ui::RunState::Running);
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > held + 1, kRunTimeoutMs);
    window.stopRun();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    QVERIFY(!pause->isEnabled() && !pause->isChecked());
}

void tst_MainWindow::workerFailureReportsMessage()
{
    core::RunConfig bad = smallConfig(core::TestMethod::Barker, 100);
    bad.temperature = 0.0;

    // The worker on its own: the exception becomes a signal, not a crash.
    {
        ui::SamplerWorker worker;
        QSignalSpy failed(&worker, &ui::SamplerWorker::runFailed);
        QSignalSpy finished(&worker, &ui::SamplerWorker::finished);
        worker.start(bad);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(finished.count(), 0);
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("temperature")),
                 qPrintable(failed.at(0).at(0).toString()));
    }

    // Through the worker thread to the window, bypassing the window's own validation.
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    ui::SamplerWorker *worker = window.worker();
    QVERIFY(QMetaObject::invokeMethod(worker, [worker, bad] { worker->start(bad); }, Qt::QueuedConnection));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kRunTimeoutMs);
    QVERIFY(window.lastError().contains(QStringLiteral("temperature")));
    QVERIFY(window.statusText().contains(QStringLiteral("temperature")));
    QVERIFY(!window.isRunning());
    QCOMPARE(window.runState(), ui::RunState::Idle);
}

void tst_MainWindow::invalidSettingsAreRejectedBeforeStart()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    core::RunConfig bad = smallConfig(core::TestMethod::Minibatch, 100);
    bad.step = -1.0;
    QVERIFY(!window.startRun(bad));
    QCOMPARE(failed.count(), 1);
    QVERIFY(window.lastError().contains(QStringLiteral("step")));
    QVERIFY(!window.isRunning());
    QVERIFY(window.controls()->runButtons()->button(ui::RunButtons::Run)->isEnabled());
}

void tst_MainWindow::compareNeedsTwoToEightMethods()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &ui::MainWindow::runFailed);
    ui::CompareBox *compare = window.controls()->compareBox();
    compare->setChecked(true);
    compare->setMethods({core::TestMethod::Minibatch});
    QVERIFY(!window.startRunFromControls());
    QCOMPARE(failed.count(), 1);
    QVERIFY(window.lastError().contains(QStringLiteral("2 to 8")));
    // Nine methods are refused by the request's own validation too.
    ui::RunRequest request = ui::RunRequest::single(smallConfig(core::TestMethod::Minibatch, 10));
    request.methods = {core::TestMethod::Minibatch, core::TestMethod::Barker, core::TestMethod::Metropolis,
                       core::TestMethod::SubLhd, core::TestMethod::NaiveBarker, core::TestMethod::AustereConservative,
                       core::TestMethod::Minibatch, core::TestMethod::Barker, core::TestMethod::Metropolis};
    QVERIFY(!window.startRequest(request));
    QVERIFY(window.lastError().contains(QStringLiteral("1 to 8")));
    QVERIFY(!window.isRunning());
}

void tst_MainWindow::closingMidRunJoinsWorker()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QSignalSpy snapshots(&window, &ui::MainWindow::snapshotApplied);
    QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, 1'000'000)));
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, kRunTimeoutMs);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(window.close());
    // close() returned, so the worker thread has been joined: the run really stopped.
    QVERIFY(!window.isWorkerThreadRunning());
    qInfo("close mid-run returned after %lld ms", static_cast<long long>(clock.elapsed()));
    QVERIFY(!window.isRunning());
    // Late queued signals from the worker are harmless, and the window refuses new runs.
    QTest::qWait(50);
    QVERIFY(!window.startRun(smallConfig(core::TestMethod::Barker, 10)));
}

void tst_MainWindow::windowGrabsToPng()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.resize(1100, 700);
    window.show();
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    // More samples than one chart chunk holds, so the chunked series path is drawn too.
    const std::int64_t samples = 3 * ui::PosteriorChart::kChunkSize + 100;
    QVERIFY(window.startRun(smallConfig(core::TestMethod::Barker, samples)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    QCOMPARE(window.plottedSampleCount(), qsizetype{samples});
    QCOMPARE(window.chart()->seriesCount(), 4 + 4 + 1); // four sample chunks, the proposal ellipse's four arcs, the current state

    const QPixmap pixmap = window.grab();
    QVERIFY(!pixmap.isNull());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("window.png"));
    QVERIFY(pixmap.save(path, "PNG"));
    QVERIFY(QFileInfo(path).size() > 0);
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), pixmap.size());
    // A real render has the heat map's gradient, text and markers: many distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
}

MHX_GUI_TEST_MAIN(tst_MainWindow)
#include "tst_main_window.moc"
