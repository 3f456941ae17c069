// A user's table in the app, as a newcomer brings it: a header and the label in the last column.
// The file check lists the columns, offers only those with two values as the label, and the
// choice, the field separator, the standardisation and the missing-value rule reach the run's
// settings; picking a table gives it the table's defaults (T = 1, standardised features, an
// intercept).
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "tests/support/window_screenshot.h"
#include "ui/main_window.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/dataset_box.h"
#include "ui/panel/table_options_row.h"

class tst_TableOptions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("MHX_CACHE_DIR", m_dir.path().toLocal8Bit());
        m_table = m_dir.filePath(QStringLiteral("diabetes.csv"));
        QFile file(m_table);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Pregnancies,Glucose,BMI,Outcome\n");
        for (int i = 0; i < 60; ++i)
            file.write(QStringLiteral("%1,%2,%3,%4\n").arg(i % 9).arg(90 + (i * 37) % 90).arg(20 + (i * 7) % 25).arg(i % 2).toUtf8());
        file.write("3,NA,30,1\n");
    }

    void theLabelIsChosenAmongTheBinaryColumns()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::ControlPanel *panel = window.controls();
        ui::DatasetBox *box = panel->datasetBox();
        box->setInteractive(false);
        // The app opens with the recommended preset (app/gui/gui_options.cpp); a bare window with the paper's.
        panel->presetBox()->setCurrentIndex(panel->presetBox()->findData(QStringLiteral("recommended")));
        QSignalSpy checked(box, &ui::DatasetBox::checked);
        box->selectFiles({m_table, QString(), QString(), QString()});
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
        // The missing glucose stops the first check, naming line and column.
        QVERIFY(!checked.at(0).at(0).toBool());
        QVERIFY2(checked.at(0).at(1).toString().contains(QStringLiteral("line 62: column 2 ('Glucose'): missing value")),
                 qPrintable(checked.at(0).at(1).toString()));
        // A table's defaults, given when it was picked.
        QCOMPARE(panel->config().temperature, 1.0);
        QVERIFY(panel->config().logreg.standardize);
        QVERIFY(panel->config().logreg.model.bias);
        ui::TableOptionsRow *row = box->tableOptionsRow();
        QVERIFY(row->isVisibleTo(&window));
        QVERIFY(row->standardizeBox()->isChecked());

        row->dropMissingBox()->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 10'000);
        // Now the first column is refused as a label: three values. The columns are listed, the
        // binary one enabled.
        QVERIFY(!checked.at(1).at(0).toBool());
        QVERIFY2(checked.at(1).at(1).toString().contains(QStringLiteral("Columns with two values: 4 ('Outcome')")),
                 qPrintable(checked.at(1).at(1).toString()));
        QComboBox *label = row->labelColumnCombo();
        QCOMPARE(label->count(), 5); // automatic, then the four columns
        const auto *model = qobject_cast<QStandardItemModel *>(label->model());
        const int outcome = label->findData(QStringLiteral("Outcome"));
        QVERIFY(outcome > 0);
        QVERIFY(model->item(outcome)->isEnabled());
        QVERIFY(!model->item(label->findData(QStringLiteral("Glucose")))->isEnabled());
        testruns::saveScreenshot(window, QStringLiteral("table-label-refused.png"));

        label->setCurrentIndex(outcome);
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 3, 10'000);
        QVERIFY2(checked.at(2).at(0).toBool(), qPrintable(checked.at(2).at(1).toString()));
        QVERIFY2(box->statusText().contains(QStringLiteral("3 features")), qPrintable(box->statusText()));
        const core::RunConfig config = panel->config();
        QCOMPARE(config.logreg.labelColumn, std::string("Outcome"));
        QVERIFY(config.logreg.dropMissing);
        QVERIFY(config.logreg.standardize);
        testruns::saveScreenshot(window, QStringLiteral("table-label-chosen.png"));

        // Shown again from a configuration (a session), the choices come back.
        row->standardizeBox()->setChecked(false);
        QVERIFY(!panel->config().logreg.standardize);
        panel->setConfig(config);
        QVERIFY(row->standardizeBox()->isChecked());
        QCOMPARE(label->currentData().toString(), QStringLiteral("Outcome"));

        // The field separator: ';' forced on a comma file leaves one field a line, which the
        // check says; ',' reads it again. The choice reaches the settings and comes back.
        QComboBox *delimiter = row->delimiterCombo();
        QCOMPARE(delimiter->currentData().toString(), QStringLiteral("auto"));
        qsizetype before = checked.count();
        delimiter->setCurrentIndex(delimiter->findData(QStringLiteral(";")));
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() > before, 10'000);
        QVERIFY(!checked.last().at(0).toBool());
        QVERIFY2(checked.last().at(1).toString().contains(QStringLiteral("only one field")),
                 qPrintable(checked.last().at(1).toString()));
        QCOMPARE(panel->config().logreg.delimiter, std::string(";"));
        before = checked.count();
        delimiter->setCurrentIndex(delimiter->findData(QStringLiteral(",")));
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() > before, 10'000);
        QVERIFY2(checked.last().at(0).toBool(), qPrintable(checked.last().at(1).toString()));
        core::RunConfig withTab = panel->config();
        withTab.logreg.delimiter = "tab";
        panel->setConfig(withTab);
        QCOMPARE(delimiter->currentData().toString(), QStringLiteral("tab"));
    }

    void imagesHideTheTableOptions()
    {
        ui::ControlPanel panel;
        QComboBox *kind = panel.datasetBox()->datasetCombo();
        kind->setCurrentIndex(kind->findData(QStringLiteral("gmm")));
        QVERIFY(!panel.datasetBox()->tableOptionsRow()->isVisibleTo(&panel));
        QVERIFY(!panel.config().logreg.standardize);
    }

private:
    QTemporaryDir m_dir;
    QString m_table;
};

MHX_GUI_TEST_MAIN(tst_TableOptions)
#include "tst_table_options.moc"
