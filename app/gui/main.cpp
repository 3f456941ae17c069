// mh-explorer: the desktop GUI. Without options it opens the window with the settings of the
// last session (or the paper's defaults). Scripted use, headless with QT_QPA_PLATFORM=offscreen:
//   --run-preset NAME | run options   what to run (a preset, then single options on top;
//                                     --dataset gmm|worst-case|logreg or --csv FILE pick the data)
//   --export-plots DIR                after the run, every chart as PNG and SVG plus summary.json
//   --export-samples FILE.csv         after the run, the samples (one file per chain if several)
//   --screenshot PATH                 after the run, the window as PNG
//   --screenshot-midrun PATH          the window as PNG once the first chain is half done
//   --midrun-temperature T            at half way, change T of the running chains (a new segment)
//   --sweep NAME=FROM:TO:COUNT [--log]  instead of a run, sweep a setting on the Trade-offs tab
//                                     (--samples and --chains: samples per point and trials)
//   --quit-when-done                  exit when done: 0 if the run finished and files were written
//   --help, --version                 print and exit 0, also without a display
#include <cstdio>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <QApplication>
#include <QCommandLineParser>
#include <QPalette>
#include <QPointer>
#include <QStyleFactory>
#include <QTimer>

#include "core/data/full_pass_notice.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/experiment/sweep/sweep.h"
#include "ui/app_identity.h"
#include "ui/panel/control_panel.h"
#include "ui/run/continuous_controls.h"
#include "ui/main_window.h"
#include "core/experiment/settings/presets.h"
#include "ui/panel/presets.h"
#include "ui/pages/results_view.h"
#include "ui/run/scripted_run.h"
#include "ui/files/session.h"

namespace {

struct GuiOptions {
    ui::RunRequest request;
    bool runNow = false;         // start a run at once
    bool quitWhenDone = false;
    bool restoreSession = true;  // no settings given on the command line
    bool dark = false;
    int tab = -1;
    bool untilStopped = false;   // continuous mode from the start
    double speed = 0.0;          // iterations per second per chain; 0: no limit
    ui::ScriptOptions script;
};

void fail(const QString &message)
{
    std::fprintf(stderr, "mh-explorer: %s\n", qPrintable(message));
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

// Parses the options; prints the problem and returns nothing when one is malformed.
std::optional<GuiOptions> parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Minibatch Metropolis-Hastings explorer"));
    parser.addHelpOption();
    parser.addVersionOption();
    auto option = [](const char *name, const char *help, const char *value = nullptr) {
        return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help), QString::fromLatin1(value))
                     : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
    };
    const auto preset = option("run-preset", "Run a preset at once: gmm, gmm-compare, gmm-chains, gmm-quick, logreg-quick.", "name");
    const auto methods = option("methods", "Compare 2-8 methods, comma-separated; minibatch+taylor2 (as the CLI writes it) is a method with control variates.", "list");
    const auto chains = option("chains", "Chains per method (1-4).", "count");
    const auto parallel = option("parallel", "Run the chains in parallel.");
    // Every run setting, as the CLI offers it (core::settingsTable(): one flag, one help text).
    // A flag's off switch (--no-standardize) is an option of its own, paired with the same spec.
    std::vector<std::pair<const core::SettingSpec *, QCommandLineOption>> settingOptions;
    for (const core::SettingSpec &spec : core::settingsTable()) {
        if (spec.flag.empty())
            continue;
        settingOptions.emplace_back(&spec, spec.type == core::SettingType::Flag
                                               ? option(spec.flag.c_str(), spec.help.c_str())
                                               : option(spec.flag.c_str(), spec.help.c_str(), "value"));
        if (!spec.offFlag.empty())
            settingOptions.emplace_back(&spec, option(spec.offFlag.c_str(), ("the opposite of --" + spec.flag).c_str()));
    }
    auto isSet = [&](const char *flag) {
        for (const auto &[spec, opt] : settingOptions)
            if (opt.names().constFirst() == QLatin1String(flag))
                return parser.isSet(opt);
        return false;
    };
    // Not "--session": QGuiApplication takes that (X11 session management) before the parser sees it.
    const auto session = option("load-session", "Load the settings of a session file.", "path");
    const auto noRestore = option("no-restore", "Start from the defaults instead of the last session.");
    const auto quitWhenDone = option("quit-when-done", "Run at once; exit 0 when it finished and files were written.");
    const auto quitAfterRun = option("quit-after-run", "Same as --quit-when-done.");
    const auto exportPlots = option("export-plots", "After the run, write every chart as PNG and SVG here.", "dir");
    const auto exportSize = option("export-size", "Chart export size, e.g. 1600x1000.", "WxH");
    const auto exportSamples = option("export-samples", "After the run, write the samples as CSV (one file per chain "
                                                        "when there are several).", "file");
    const auto screenshot = option("screenshot", "After the run, save the window as PNG.", "path");
    const auto midRunShot = option("screenshot-midrun", "Save the window as PNG while the run is half done.", "path");
    const auto midRunTemperature = option("midrun-temperature", "At half way, change the temperature of the running "
                                                                "chains (a new, marked chain segment).", "value");
    const auto dark = option("dark", "Use a dark palette (to check the charts follow it).");
    const QString tabHelp = QStringLiteral("Show a tab: %1.").arg(ui::ResultsView::tabKeys().join(QStringLiteral(", ")));
    const auto tab = option("tab", tabHelp.toUtf8().constData(), "name");
    const auto sweep = option("sweep", "Sweep a setting on the Trade-offs tab instead of a run, e.g. sigma=0.4:1.7:8 "
                                       "(with --quit-when-done: then the files, then exit).", "NAME=FROM:TO:COUNT");
    const auto logSpacing = option("log", "With --sweep: geometric spacing of the points.");
    const auto untilStopped = option("until-stopped", "Continuous mode: runs sample until stopped, the charts showing "
                                                      "the latest --samples of each chain.");
    const auto stopAfter = option("stop-after", "With --until-stopped and --quit-when-done: stop the run after this "
                                                "many seconds, then write the files.", "seconds");
    const auto speed = option("speed", "Speed limit in iterations per second per chain (0: none), as the toolbar's "
                                       "Speed slider sets it.", "it/s");
    parser.addOptions({preset, methods, chains, parallel, session, noRestore, quitWhenDone, quitAfterRun, exportPlots,
                       exportSize, exportSamples, screenshot, midRunShot, midRunTemperature, dark, tab, sweep,
                       logSpacing, untilStopped, stopAfter, speed});
    for (const auto &[spec, opt] : settingOptions)
        parser.addOption(opt);
    parser.process(app);

    GuiOptions options;
    ui::RunRequest &request = options.request;
    // The app opens with the recommended preset (presets.h); --preset paper, a session or a
    // named run replaces it.
    core::RunConfig opening;
    opening.preset = core::Preset::Recommended;
    request = ui::RunRequest::single(opening);
    if (parser.isSet(session)) {
        QString error;
        const auto loaded = ui::loadSession(parser.value(session), &error);
        if (!loaded) {
            fail(error);
            return std::nullopt;
        }
        request.config = loaded->config;
        request.methods = loaded->compare ? loaded->compareMethods : std::vector<core::TestMethod>{loaded->config.method};
        request.chains = loaded->chains;
        request.parallel = loaded->parallel;
    }
    if (parser.isSet(preset)) {
        const auto named = ui::presetRequest(parser.value(preset));
        if (!named) {
            fail(QStringLiteral("unknown preset '%1'; choose one of %2")
                     .arg(parser.value(preset), ui::presetNames().join(QStringLiteral(", "))));
            return std::nullopt;
        }
        request = *named;
    }
    core::RunConfig &config = request.config;
    bool anyRunOption = false;
    try {
        for (const auto &[spec, opt] : settingOptions) {
            if (!parser.isSet(opt))
                continue;
            anyRunOption = true;
            const std::string name = opt.names().constFirst().toStdString();
            const bool offSwitch = name == spec->offFlag;
            const std::string value = spec->type != core::SettingType::Flag ? parser.value(opt).toStdString()
                                      : offSwitch ? (spec->switchValue == "1" ? "0" : "1")
                                                  : spec->switchValue;
            spec->set(config, "--" + name, value);
        }
        if (isSet("method"))
            request.methods = {config.method};
        if (parser.isSet(methods)) {
            // Entries as the CLI takes them: "minibatch", "minibatch+taylor2".
            request.methods.clear();
            request.controlVariates.clear();
            std::vector<core::ControlVariates> variants;
            bool anyVariant = false;
            for (const QString &name : parser.value(methods).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const auto [method, variant] = core::parseMethodVariant(name.trimmed().toStdString());
                request.methods.push_back(method);
                variants.push_back(variant.value_or(core::ControlVariates::Auto));
                anyVariant = anyVariant || variant.has_value();
            }
            if (anyVariant)
                request.controlVariates = std::move(variants);
            if (!request.methods.empty())
                config.method = request.methods.front();
        }
    } catch (const std::exception &error) {
        fail(QString::fromStdString(error.what()));
        return std::nullopt;
    }
    // Each reader leaves the value alone when the option is absent and returns false when it
    // does not parse; range checks are validate()'s job.
    auto read = [&parser](const QCommandLineOption &opt, auto &target, auto convert) {
        if (!parser.isSet(opt))
            return true;
        bool ok = false;
        const auto value = convert(parser.value(opt), &ok);
        if (ok)
            target = value;
        else
            fail(QStringLiteral("invalid --%1 '%2'").arg(opt.names().front(), parser.value(opt)));
        return ok;
    };
    auto toInt = [](const QString &text, bool *ok) { return text.toInt(ok); };
    auto toReal = [](const QString &text, bool *ok) { return text.toDouble(ok); };
    if (!read(chains, request.chains, toInt) || !read(midRunTemperature, options.script.midRunTemperature, toReal))
        return std::nullopt;
    if (parser.isSet(midRunTemperature) && !(options.script.midRunTemperature > 0.0)) {
        fail(QStringLiteral("--midrun-temperature must be > 0; got '%1'").arg(parser.value(midRunTemperature)));
        return std::nullopt;
    }
    if (parser.isSet(parallel))
        request.parallel = true;
    if (!read(stopAfter, options.script.stopAfterSeconds, toReal) || !read(speed, options.speed, toReal))
        return std::nullopt;
    options.untilStopped = parser.isSet(untilStopped);
    request.untilStopped = options.untilStopped;
    if (parser.isSet(stopAfter) && !(options.untilStopped && options.script.stopAfterSeconds > 0.0)) {
        fail(QStringLiteral("--stop-after needs --until-stopped and a number of seconds > 0; got '%1'")
                 .arg(parser.value(stopAfter)));
        return std::nullopt;
    }
    if (!(options.speed >= 0.0)) {
        fail(QStringLiteral("--speed must be >= 0 iterations per second (0: no limit); got '%1'").arg(parser.value(speed)));
        return std::nullopt;
    }
    // The preset's settings for the dataset unless given, as the CLI fills them; a session or
    // a named run already holds every setting.
    if ((isSet("csv") || isSet("data")) && !isSet("dataset"))
        config.dataset = "logreg"; // a user's file is a classification data set
    if (!parser.isSet(session) && !parser.isSet(preset)) {
        core::applyPreset(config, request.methods, [&](std::string_view flag) { return isSet(std::string(flag).c_str()); });
        // The preset's chains too (two at once on images), unless counted or a sweep's trials.
        if (!parser.isSet(chains) && !parser.isSet(sweep)) {
            request.chains = core::presetChains(config, request.methods);
            request.parallel = request.parallel || request.chains > 1;
        }
    } else if (isSet("dataset") || isSet("csv") || isSet("data"))
        core::applyDatasetDefaults(config, isSet("temperature"), isSet("step"));
    if (parser.isSet(exportSize)) {
        const QStringList parts = parser.value(exportSize).split(QLatin1Char('x'));
        const int width = parts.value(0).toInt(), height = parts.value(1).toInt();
        if (parts.size() != 2 || width < 16 || height < 16) {
            fail(QStringLiteral("invalid --export-size '%1'; use e.g. 1600x1000").arg(parser.value(exportSize)));
            return std::nullopt;
        }
        options.script.exportSize = QSize(width, height);
    }
    if (parser.isSet(tab)) {
        const QStringList tabs = ui::ResultsView::tabKeys();
        options.tab = static_cast<int>(tabs.indexOf(parser.value(tab)));
        if (options.tab < 0) {
            fail(QStringLiteral("unknown --tab '%1'; choose one of %2").arg(parser.value(tab), tabs.join(QStringLiteral(", "))));
            return std::nullopt;
        }
    }
    if (parser.isSet(sweep)) {
        try {
            options.script.sweep = core::parseSweepAxis(parser.value(sweep).toStdString());
        } catch (const std::exception &error) {
            fail(QStringLiteral("invalid --sweep (%1)").arg(QString::fromStdString(error.what())));
            return std::nullopt;
        }
        options.script.sweep->logSpacing = parser.isSet(logSpacing);
        if (isSet("samples"))
            options.script.sweepSamples = config.samples;
        if (parser.isSet(chains))
            options.script.sweepTrials = request.chains;
    } else if (parser.isSet(logSpacing)) {
        fail(QStringLiteral("--log needs --sweep"));
        return std::nullopt;
    }
    options.quitWhenDone = parser.isSet(quitWhenDone) || parser.isSet(quitAfterRun);
    if (options.quitWhenDone && options.untilStopped && !parser.isSet(stopAfter)) {
        fail(QStringLiteral("--quit-when-done with --until-stopped needs --stop-after SECONDS: the run never ends by itself"));
        return std::nullopt;
    }
    options.script.exportDirectory = parser.value(exportPlots);
    options.script.screenshotPath = parser.value(screenshot);
    options.script.samplesPath = parser.value(exportSamples);
    options.script.midRunScreenshotPath = parser.value(midRunShot);
    options.runNow = options.quitWhenDone || parser.isSet(preset) || parser.isSet(sweep);
    options.dark = parser.isSet(dark);
    // Settings on the command line (or a script) replace the restored session.
    for (const auto *opt : {&methods, &chains, &parallel, &session, &sweep})
        anyRunOption = anyRunOption || parser.isSet(*opt);
    options.restoreSession = !parser.isSet(noRestore) && !options.runNow && !anyRunOption;
    if (!options.runNow && (!options.script.exportDirectory.isEmpty() || !options.script.screenshotPath.isEmpty()
                            || !options.script.samplesPath.isEmpty() || options.script.midRunTemperature > 0.0
                            || !options.script.midRunScreenshotPath.isEmpty())) {
        fail(QStringLiteral("--export-plots, --export-samples, --screenshot and --screenshot-midrun need "
                            "--quit-when-done or --run-preset"));
        return std::nullopt;
    }
    options.script.request = request;
    return options;
}

// True when an argument asks for the help or the version (QCommandLineParser's names).
bool asksForInfo(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument == "--")
            break;
        if (argument == "-h" || argument == "-?" || argument == "--help" || argument == "--help-all"
            || argument == "-v" || argument == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    ui::setApplicationIdentity();
    // A QApplication aborts when there is no display to connect to, and --help and --version
    // need none: they are answered from a QCoreApplication, whose parser prints and exits 0.
    // If the parser does not exit, the flag was an option's value; the GUI then starts as usual.
    if (asksForInfo(argc, argv)) {
        const QCoreApplication info(argc, argv);
        if (!parseOptions(info))
            return 2;
    }
    QApplication app(argc, argv);
    ui::moveLegacyAutosave();
    const std::optional<GuiOptions> options = parseOptions(app);
    if (!options)
        return 2;
    if (options->dark) {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    }

    ui::MainWindow window;
    window.controls()->setRequest(options->request);
    if (options->restoreSession) {
        QString error;
        if (const auto session = ui::loadSession(ui::autosaveSessionPath(), &error))
            window.restoreLastSession(*session);
    }
    if (options->untilStopped)
        window.setUntilStopped(true);
    if (options->speed > 0.0)
        window.continuousControls()->setPace(options->speed);
    window.setAutosaveSession(!options->runNow);
    if (options->tab >= 0)
        window.results()->setCurrentIndex(options->tab);
    window.show();

    if (options->runNow) {
        window.setShowErrorDialogs(!options->quitWhenDone);
        auto *script = new ui::ScriptedRun(&window, options->script, &window);
        QObject::connect(script, &ui::ScriptedRun::done, &app, [quit = options->quitWhenDone](int exitCode) {
            if (quit)
                QApplication::exit(exitCode);
        });
        script->start();
    }
    // Passes over a file read in place take minutes: the status bar says why the run waits.
    // Announced from worker threads; shown on the GUI thread.
    core::setFullPassListener([target = QPointer<ui::MainWindow>(&window)](const std::string &text) {
        QMetaObject::invokeMethod(
            qApp, [target, message = QString::fromStdString(text)] {
                if (target)
                    target->showStatus(message);
            },
            Qt::QueuedConnection);
    });
    const int exitCode = QApplication::exec();
    core::setFullPassListener({});
    return exitCode;
}
