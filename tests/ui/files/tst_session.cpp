// Sessions: every setting survives save → load, both as data and through the window's
// widgets; bad files are refused with a reason; the window restores what it autosaved.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/dataset_box.h"
#include "ui/files/file_actions.h"
#include "ui/main_window.h"
#include "ui/panel/minibatch_box.h"
#include "ui/pages/results_view.h"
#include "ui/files/session.h"
#include "ui/run/run_status_strip.h"

namespace {

// Every field differs from its default, so a field that is not saved or not restored shows up.
ui::Session unusualSession()
{
    ui::Session s;
    core::RunConfig &c = s.config;
    // Logistic regression on a file that is not there: shown as chosen, reported as missing,
    // and every setting kept.
    c.dataset = "logreg";
    c.logreg.source = "fashion-mnist";
    c.logreg.csv = "/nonexistent/mine.csv";
    c.logreg.classes = {3, 5};
    c.logreg.testSize = 500;
    c.logreg.splitSeed = 9;
    c.logreg.augmentTo = 5000;
    c.logreg.augmentSeed = 11;
    c.logreg.model.bias = true;
    c.logreg.model.priorSd = 2.5;
    c.method = core::TestMethod::SubLhd;
    c.nData = 123'456;
    c.samples = 4321;
    c.seed = 9'007'199'254'740'993ULL; // above 2^53: must not be rounded
    c.dataSeed = 77;
    c.temperature = 1234.567;
    c.step = 0.0000625; // more decimals than the step box shows
    c.burnIn = 12;
    c.annealFrom = 50.0;
    c.burnInStep = 0.3;
    c.traceStride = 7;
    c.minibatch.initialBatch = 150;
    c.minibatch.batchGrowth = 75;
    c.minibatch.cltBound = 0.05;
    c.minibatch.finitePopulationCorrection = false;
    c.austere.batch = 250;
    c.austere.epsilon = 0.01;
    c.austereErrorBound = 0.02;
    c.austerePilot = 123;
    c.sublhd.batch = 90;
    c.sublhd.gamma = 2.0;
    c.sublhd.p = 3.0;
    c.sublhd.delta = 0.05;
    c.sublhd.useModelBound = true;
    c.correction.grid = 3000;
    c.correction.range = 15.0;
    c.correction.sigma = 1.25;
    c.correction.lambda = 3.5;
    c.correction.solver = core::CorrectionSolver::Ridge;
    s.compare = true;
    s.compareMethods = {core::TestMethod::Minibatch, core::TestMethod::AustereConservative, core::TestMethod::Barker};
    s.chains = 3;
    s.parallel = true;
    s.exportSize = QSize(1234, 567);
    s.tab = QStringLiteral("traces");
    return s;
}

QByteArray canonical(const ui::Session &session)
{
    return QJsonDocument(ui::sessionToJson(session)).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_Session : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void jsonRoundTripsEverySetting();
    void fileRoundTripsThroughTheWindow();
    void badFilesAreRefusedWithAReason_data();
    void badFilesAreRefusedWithAReason();
    void fileThatFailedToLoadIsNotRestored();
    void autoControlVariatesComeBackAsAuto();
    void tabIsStoredByItsKey();
    void windowAutosavesOnClose();
};

void tst_Session::initTestCase()
{
    // Autosaves and QSettings go to a test location, never the user's.
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Session::jsonRoundTripsEverySetting()
{
    const ui::Session original = unusualSession();
    const ui::Session loaded = ui::sessionFromJson(ui::sessionToJson(original));
    QCOMPARE(canonical(loaded), canonical(original));
    QCOMPARE(loaded.config.seed, original.config.seed);
    QCOMPARE(loaded.config.correction, original.config.correction);
    QCOMPARE(loaded.compareMethods, original.compareMethods);
    QCOMPARE(loaded.config.logreg.classes, original.config.logreg.classes);
    QCOMPARE(loaded.config.logreg.csv, original.config.logreg.csv);
    QCOMPARE(loaded.config.minibatch.cltBound, 0.05);
    // An IDX pair and the mixture with remembered files round-trip too.
    ui::Session idx = original;
    idx.config.dataset = "gmm";
    idx.config.logreg.csv.clear();
    idx.config.logreg.images = "/data/train-images-idx3-ubyte.gz";
    idx.config.logreg.labels = "/data/train-labels-idx1-ubyte.gz";
    QCOMPARE(canonical(ui::sessionFromJson(ui::sessionToJson(idx))), canonical(idx));
    // Missing keys keep their defaults, so older or hand-written files load.
    const ui::Session sparse = ui::sessionFromJson(QJsonObject{{"format", "mh-explorer-session"}, {"version", 1}});
    QCOMPARE(canonical(sparse), canonical(ui::Session{}));
    // Version 1 files (the settings in a nested "config" object) still load.
    const ui::Session older = ui::sessionFromJson(QJsonObject{
        {"format", "mh-explorer-session"},
        {"version", 1},
        {"config", QJsonObject{{"temperature", 5.0}, {"minibatch", QJsonObject{{"initial_batch", 150}}}}}});
    QCOMPARE(older.config.temperature, 5.0);
    QCOMPARE(older.config.minibatch.initialBatch, 150);
    // Every renamed or grouped version 1 key reaches the setting it became.
    const QJsonObject version1Config{
        {"n_data", 5000},
        {"trace_stride", 7},
        {"austere_error_bound", 0.02},
        {"austere_pilot", 40},
        {"minibatch", QJsonObject{{"clt_bound", 0.2}, {"batch_growth", 60}, {"finite_population_correction", false}}},
        {"austere", QJsonObject{{"batch", 80}, {"epsilon", 0.01}}},
        {"sublhd", QJsonObject{{"batch", 90}, {"gamma", 1.7}, {"p", 3.0}, {"delta", 0.02}, {"use_model_bound", true}}},
        {"correction", QJsonObject{{"grid", 2001}, {"sigma", 1.2}, {"solver", "ridge"}}},
        {"logreg", QJsonObject{{"classes", QJsonArray{3, 5}}, {"prior_sd", 2.5}}},
        {"no_longer_a_setting", 1}};
    const core::RunConfig v1 =
        ui::sessionFromJson(QJsonObject{{"format", "mh-explorer-session"}, {"version", 1}, {"config", version1Config}}).config;
    QCOMPARE(v1.nData, 5000);
    QCOMPARE(v1.traceStride, 7);
    QCOMPARE(v1.austereErrorBound, 0.02);
    QCOMPARE(v1.austerePilot, 40);
    QCOMPARE(v1.minibatch.cltBound, 0.2);
    QCOMPARE(v1.minibatch.batchGrowth, 60);
    QCOMPARE(v1.minibatch.finitePopulationCorrection, false);
    QCOMPARE(v1.austere.batch, 80);
    QCOMPARE(v1.austere.epsilon, 0.01);
    QCOMPARE(v1.sublhd.batch, 90);
    QCOMPARE(v1.sublhd.gamma, 1.7);
    QCOMPARE(v1.sublhd.p, 3.0);
    QCOMPARE(v1.sublhd.delta, 0.02);
    QCOMPARE(v1.sublhd.useModelBound, true);
    QCOMPARE(v1.correction.grid, 2001);
    QCOMPARE(v1.correction.sigma, 1.2);
    QCOMPARE(v1.correction.solver, core::CorrectionSolver::Ridge);
    QCOMPARE(v1.logreg.classes, std::make_pair(3, 5));
    QCOMPARE(v1.logreg.model.priorSd, 2.5);
    // Since version 2 the table's keys are written, as samples-file headers have them (version 3
    // names the tab by its key).
    const QJsonObject written = ui::sessionToJson(original);
    QCOMPARE(written[QStringLiteral("version")].toInt(), 3);
    const QJsonObject settings = written[QStringLiteral("settings")].toObject();
    QCOMPARE(settings[QStringLiteral("seed")].toString(), QStringLiteral("9007199254740993"));
    QCOMPARE(settings[QStringLiteral("austere_batch")].toInt(), 250);
    QVERIFY(!settings.contains(QStringLiteral("step_meaning")));
}

void tst_Session::fileRoundTripsThroughTheWindow()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    const ui::Session original = unusualSession();
    QString error;
    QVERIFY2(ui::saveSession(original, path, &error), qPrintable(error));

    // Loaded into a window, shown by its widgets, and read back from them: nothing lost.
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    QVERIFY(window.fileActions()->openSession(path));
    QCOMPARE(canonical(window.session()), canonical(original));
    QCOMPARE(window.results()->currentIndex(), ui::ResultsView::tabIndex(QStringLiteral("traces")));
    const ui::RunRequest request = window.controls()->request();
    QCOMPARE(request.methods, original.compareMethods);
    QCOMPARE(request.chains, 3);
    QVERIFY(request.parallel);
    // The dataset, its file and classes, and the minibatch settings are on the widgets.
    QCOMPARE(window.controls()->datasetBox()->datasetCombo()->currentData().toString(), QStringLiteral("file"));
    QCOMPARE(window.controls()->minibatchBox()->batchBox()->value(), 150);
    QCOMPARE(window.controls()->minibatchBox()->growthBox()->value(), 75);
    QCOMPARE(window.controls()->minibatchBox()->deltaBox()->value(), 0.05);
    QCOMPARE(window.controls()->datasetBox()->files().csv, QStringLiteral("/nonexistent/mine.csv"));

    // Saved again from the window: the same file.
    const QString again = dir.filePath(QStringLiteral("again.json"));
    QVERIFY(window.fileActions()->saveSession(again));
    const auto reloaded = ui::loadSession(again, &error);
    QVERIFY2(reloaded, qPrintable(error));
    QCOMPARE(canonical(*reloaded), canonical(original));
}

void tst_Session::badFilesAreRefusedWithAReason_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not json") << QByteArray("{ nope") << QStringLiteral("not a JSON object");
    QTest::newRow("not a session") << QByteArray("{\"a\": 1}") << QStringLiteral("not a session file");
    QTest::newRow("wrong type") << QByteArray(R"({"format":"mh-explorer-session","version":1,"chains":"many"})")
                                << QStringLiteral("'chains'");
    QTest::newRow("unknown method")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"method":"magic"}})")
        << QStringLiteral("method must be one of");
    QTest::newRow("bad classes")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"logreg":{"classes":[1]}}})")
        << QStringLiteral("'config.logreg.classes' must be an array of two class numbers");
    QTest::newRow("fractional class")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"logreg":{"classes":[3.5,5]}}})")
        << QStringLiteral("config.logreg.classes");
    QTest::newRow("huge class")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"logreg":{"classes":[1e300,5]}}})")
        << QStringLiteral("config.logreg.classes");
    QTest::newRow("newer version") << QByteArray(R"({"format":"mh-explorer-session","version":99})")
                                   << QStringLiteral("newer version");
    // Integers must fit where they go: nothing wraps around, and a session cannot ask for more
    // data points than a run accepts or an export image of gigapixels.
    QTest::newRow("N = 10^12")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"n_data":1000000000000}})")
        << QStringLiteral("session key 'config.n_data' must be an integer from 2 to 2147483647");
    QTest::newRow("N = 10^12 as text")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"n_data":"1000000000000"}})")
        << QStringLiteral("'config.n_data' must be an integer from 2 to 2147483647");
    QTest::newRow("chains beyond int") << QByteArray(R"({"format":"mh-explorer-session","version":1,"chains":"4294967297"})")
                                       << QStringLiteral("'chains' must be an integer from -2147483648 to 2147483647");
    QTest::newRow("fractional chains") << QByteArray(R"({"format":"mh-explorer-session","version":1,"chains":2.5})")
                                       << QStringLiteral("'chains' must be an integer from");
    QTest::newRow("negative seed")
        << QByteArray(R"({"format":"mh-explorer-session","version":1,"config":{"seed":"-1"}})")
        << QStringLiteral("config.seed: expected a non-negative whole number");
    // Version 2 keeps the settings under the keys of samples-file headers (the settings table).
    QTest::newRow("v2 unknown setting")
        << QByteArray(R"({"format":"mh-explorer-session","version":2,"settings":{"temprature":5}})")
        << QStringLiteral("'settings.temprature' must be a setting of this program");
    QTest::newRow("v2 wrong type")
        << QByteArray(R"({"format":"mh-explorer-session","version":2,"settings":{"temperature":"hot"}})")
        << QStringLiteral("'settings.temperature' must be a number");
    QTest::newRow("v2 not a whole number")
        << QByteArray(R"({"format":"mh-explorer-session","version":2,"settings":{"samples":"12x"}})")
        << QStringLiteral("settings.samples: expected a whole number");
    QTest::newRow("v2 N = 10^12")
        << QByteArray(R"({"format":"mh-explorer-session","version":2,"settings":{"n_data_requested":1e12}})")
        << QStringLiteral("'settings.n_data_requested' must be an integer from 2 to 2147483647");
    QTest::newRow("v2 negative seed")
        << QByteArray(R"({"format":"mh-explorer-session","version":2,"settings":{"seed":"-1"}})")
        << QStringLiteral("settings.seed: expected a non-negative whole number");
    QTest::newRow("huge export") << QByteArray(R"({"format":"mh-explorer-session","version":1,"export_width":1e9})")
                                 << QStringLiteral("'export_width' must be an integer from 1 to 8000");
    QTest::newRow("tab past the old tabs") << QByteArray(R"({"format":"mh-explorer-session","version":2,"tab":7})")
                                           << QStringLiteral("'tab' must be a tab's name");
}

// Sessions name the tab by its key; versions 1 and 2 stored its position, which still opens the
// tab that was at that position then, whatever tabs come later.
void tst_Session::tabIsStoredByItsKey()
{
    QCOMPARE(ui::sessionToJson(unusualSession())[QStringLiteral("tab")].toString(), QStringLiteral("traces"));
    QString error;
    const auto old = ui::parseSession(R"({"format":"mh-explorer-session","version":2,"tab":3})", QStringLiteral("old"), &error);
    QVERIFY2(old, qPrintable(error));
    QCOMPARE(old->tab, QStringLiteral("traces"));
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.applySession(*old);
    QCOMPARE(window.results()->currentIndex(), ui::ResultsView::tabIndex(QStringLiteral("traces")));
    QCOMPARE(window.session().tab, QStringLiteral("traces"));
    // A tab this version does not have (a newer program's session) keeps the tab shown.
    ui::Session newer = *old;
    newer.tab = QStringLiteral("a-later-tab");
    window.applySession(newer);
    QCOMPARE(window.results()->currentIndex(), ui::ResultsView::tabIndex(QStringLiteral("traces")));
    // The --tab names are the same keys.
    QCOMPARE(ui::ResultsView::tabKeys().size(), window.results()->count());
    // Each key opens the page whose tab title it names (the table's rows and the tabs agree).
    const QStringList titles = {QStringLiteral("&Posterior"),   QStringLiteral("Minibatch si&zes"),
                                QStringLiteral("&Correction C_σ"), QStringLiteral("&Traces"),
                                QStringLiteral("&Diagnostics"),  QStringLiteral("Accurac&y"),
                                QStringLiteral("Trade-offs")};
    const QStringList keys = {QStringLiteral("posterior"),   QStringLiteral("sizes"),    QStringLiteral("correction"),
                              QStringLiteral("traces"),      QStringLiteral("diagnostics"), QStringLiteral("accuracy"),
                              QStringLiteral("tradeoffs")};
    for (qsizetype k = 0; k < keys.size(); ++k) {
        QVERIFY(window.results()->showTab(keys[k]));
        QCOMPARE(window.results()->tabText(window.results()->currentIndex()), titles[k]);
    }
    QVERIFY(!window.results()->showTab(QStringLiteral("a-later-tab")));
}

void tst_Session::badFilesAreRefusedWithAReason()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();
    QString error;
    QVERIFY(!ui::loadSession(path, &error));
    QVERIFY2(error.contains(reason) && error.contains(path), qPrintable(error));
    QVERIFY(!ui::parseSession(content, QStringLiteral("in memory"), &error));
    QVERIFY2(error.startsWith(QStringLiteral("in memory")) && error.contains(reason), qPrintable(error));

    // The window keeps its settings and says why.
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    const QByteArray before = canonical(window.session());
    QVERIFY(!window.fileActions()->openSession(path));
    QCOMPARE(canonical(window.session()), before);
    QVERIFY(window.lastError().contains(reason));
}

// A data file that failed to load (a ragged CSV): no run starts on it (the results on screen
// stay), the autosaved session keeps the last data that loaded instead (generated data too:
// the file replaced the mixture here), and the next start says which file was dropped and why,
// instead of opening on the same error.
void tst_Session::fileThatFailedToLoadIsNotRestored()
{
    QTemporaryDir dir;
    const QString ragged = dir.filePath(QStringLiteral("ragged.csv"));
    {
        QFile file(ragged);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("label,a,b\n1,0.5,0.25\n0\n");
    }
    QFile::remove(ui::autosaveSessionPath());
    core::RunConfig opened;
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutosaveSession(true);
        window.show();
        opened = window.controls()->config();
        ui::DatasetBox *box = window.controls()->datasetBox();
        box->selectFiles({ragged, {}, {}, {}});
        QTRY_VERIFY_WITH_TIMEOUT(!box->failedCheck().isEmpty(), 20000);
        QVERIFY2(box->failedCheck().contains(QStringLiteral("ragged row")), qPrintable(box->failedCheck()));
        QVERIFY(box->failedOnContents());
        QVERIFY(!window.startRunFromControls());
        QVERIFY2(window.lastError().contains(QStringLiteral("ragged row")), qPrintable(window.lastError()));
        QVERIFY(!window.isRunning());
        QVERIFY(window.close());
    }
    QString error;
    const auto restored = ui::loadSession(ui::autosaveSessionPath(), &error);
    QVERIFY2(restored, qPrintable(error));
    QCOMPARE(restored->droppedData, QStringLiteral("ragged.csv"));
    QVERIFY(restored->droppedReason.contains(QStringLiteral("ragged row")));
    QVERIFY(restored->config.logreg.csv.empty() && restored->config.logreg.data.empty());
    // The last data that loaded: the mixture the window opened on, not the installed images,
    // with the mixture's settings, not those the file's dataset brought (T = 1, a Laplace
    // proposal, …).
    QCOMPARE(restored->config.dataset, opened.dataset);
    QCOMPARE(restored->config.temperature, opened.temperature);
    QCOMPARE(restored->config.step, opened.step);
    QVERIFY(restored->config.proposal == opened.proposal);
    QCOMPARE(restored->config.samples, opened.samples);
    QCOMPARE(restored->config.burnIn, opened.burnIn);
    QCOMPARE(restored->config.logreg.model.priorSd, opened.logreg.model.priorSd);
    ui::MainWindow next;
    next.setShowErrorDialogs(false);
    next.restoreLastSession(*restored);
    QVERIFY2(next.statusStrip()->notice().contains(QStringLiteral("ragged.csv was not restored")),
             qPrintable(next.statusStrip()->notice()));
    QVERIFY(next.controls()->datasetBox()->files().csv.isEmpty());
    QFile::remove(ui::autosaveSessionPath());
}

// The form's "auto" control variates come back as auto, not as what a run resolves them to
// (none for the minibatch test): the window restored a session with another choice than saved.
void tst_Session::autoControlVariatesComeBackAsAuto()
{
    ui::Session original;
    original.config.controlVariates = core::ControlVariates::Auto;
    const ui::Session back = ui::sessionFromJson(ui::sessionToJson(original));
    QVERIFY(back.config.controlVariates == core::ControlVariates::Auto);
    QCOMPARE(canonical(back), canonical(original));
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.applySession(original);
    QCOMPARE(window.controls()->controlVariatesBox()->currentData().toString(), QStringLiteral("auto"));
    QCOMPARE(canonical(window.session()), canonical(original));
}

void tst_Session::windowAutosavesOnClose()
{
    QFile::remove(ui::autosaveSessionPath());
    {
        ui::MainWindow window;
        window.setAutosaveSession(true);
        window.applySession(unusualSession());
        window.show();
        QVERIFY(window.close());
    }
    QString error;
    const auto restored = ui::loadSession(ui::autosaveSessionPath(), &error);
    QVERIFY2(restored, qPrintable(error));
    QCOMPARE(canonical(*restored), canonical(unusualSession()));
    QFile::remove(ui::autosaveSessionPath());
}

MHX_GUI_TEST_MAIN(tst_Session)
#include "tst_session.moc"
