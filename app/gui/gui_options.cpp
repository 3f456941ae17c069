#include "app/gui/gui_options.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <QCommandLineParser>
#include <QSize>

#include "core/experiment/settings/presets.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/experiment/sweep/sweep.h"
#include "ui/files/session.h"
#include "ui/pages/results_view.h"
#include "ui/panel/presets.h"

namespace gui {

void fail(const QString &message)
{
    std::fprintf(stderr, "mh-explorer: %s\n", qPrintable(message));
}

namespace {

QCommandLineOption makeOption(const char *name, const char *help, const char *value = nullptr)
{
    return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help), QString::fromLatin1(value))
                 : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
}

/// The app's own options, beside the run settings.
struct AppOptions {
    QCommandLineOption preset = makeOption(
        "run-preset", "Run a preset at once: gmm, gmm-compare, gmm-chains, gmm-quick, logreg-quick.", "name");
    QCommandLineOption methods = makeOption("methods", "Compare 2-8 methods, comma-separated; minibatch+taylor2 (as "
                                                       "the CLI writes it) is a method with control variates.", "list");
    QCommandLineOption chains = makeOption("chains", "Chains per method (1-4).", "count");
    QCommandLineOption parallel = makeOption("parallel", "Run the chains in parallel.");
    // Not "--session": QGuiApplication takes that (X11 session management) before the parser sees it.
    QCommandLineOption session = makeOption("load-session", "Load the settings of a session file.", "path");
    QCommandLineOption noRestore = makeOption("no-restore", "Start from the defaults instead of the last session.");
    QCommandLineOption quitWhenDone =
        makeOption("quit-when-done", "Run at once; exit 0 when it finished and files were written.");
    QCommandLineOption quitAfterRun = makeOption("quit-after-run", "Same as --quit-when-done.");
    QCommandLineOption exportPlots = makeOption("export-plots", "After the run, write every chart as PNG and SVG here.", "dir");
    QCommandLineOption exportSize = makeOption("export-size", "Chart export size, e.g. 1600x1000.", "WxH");
    QCommandLineOption exportSamples = makeOption("export-samples", "After the run, write the samples as CSV (one file "
                                                                    "per chain when there are several).", "file");
    QCommandLineOption screenshot = makeOption("screenshot", "After the run, save the window as PNG.", "path");
    QCommandLineOption midRunShot = makeOption("screenshot-midrun", "Save the window as PNG while the run is half done.", "path");
    QCommandLineOption midRunTemperature = makeOption(
        "midrun-temperature", "At half way, change the temperature of the running chains (a new, marked chain segment).",
        "value");
    QCommandLineOption dark = makeOption("dark", "Use a dark palette (to check the charts follow it).");
    QCommandLineOption tab = makeOption(
        "tab", QStringLiteral("Show a tab: %1.").arg(ui::ResultsView::tabKeys().join(QStringLiteral(", "))).toUtf8().constData(),
        "name");
    QCommandLineOption sweep = makeOption("sweep", "Sweep a setting on the Trade-offs tab instead of a run, e.g. "
                                                   "sigma=0.4:1.7:8 (with --quit-when-done: then the files, then exit).",
                                          "NAME=FROM:TO:COUNT");
    QCommandLineOption logSpacing = makeOption("log", "With --sweep: geometric spacing of the points.");
    QCommandLineOption untilStopped = makeOption("until-stopped", "Continuous mode: runs sample until stopped, the "
                                                                  "charts showing the latest --samples of each chain.");
    QCommandLineOption stopAfter = makeOption("stop-after", "With --until-stopped and --quit-when-done: stop the run "
                                                            "after this many seconds, then write the files.", "seconds");
    QCommandLineOption speed = makeOption("speed", "Speed limit in iterations per second per chain (0: none), as the "
                                                   "toolbar's Speed slider sets it.", "it/s");

    QList<QCommandLineOption> all() const
    {
        return {preset, methods, chains, parallel, session, noRestore, quitWhenDone, quitAfterRun, exportPlots,
                exportSize, exportSamples, screenshot, midRunShot, midRunTemperature, dark, tab, sweep,
                logSpacing, untilStopped, stopAfter, speed};
    }
};

/// Every run setting, as the CLI offers it (core::settingsTable(): one flag, one help text).
/// A flag's off switch (--no-standardize) is an option of its own, paired with the same spec.
class SettingOptions {
public:
    explicit SettingOptions(const QCommandLineParser &parser) : m_parser(parser)
    {
        for (const core::SettingSpec &spec : core::settingsTable()) {
            if (spec.flag.empty())
                continue;
            m_options.emplace_back(&spec, spec.type == core::SettingType::Flag
                                              ? makeOption(spec.flag.c_str(), spec.help.c_str())
                                              : makeOption(spec.flag.c_str(), spec.help.c_str(), "value"));
            if (!spec.offFlag.empty())
                m_options.emplace_back(&spec, makeOption(spec.offFlag.c_str(), ("the opposite of --" + spec.flag).c_str()));
        }
    }

    const std::vector<std::pair<const core::SettingSpec *, QCommandLineOption>> &options() const { return m_options; }

    /// Whether the setting with this flag was given.
    bool isSet(const char *flag) const
    {
        for (const auto &[spec, opt] : m_options)
            if (opt.names().constFirst() == QLatin1String(flag))
                return m_parser.isSet(opt);
        return false;
    }

    /// Writes every given setting into `config`; true when any was given. Throws
    /// std::invalid_argument from a setting that does not parse.
    bool applyTo(core::RunConfig &config) const
    {
        bool any = false;
        for (const auto &[spec, opt] : m_options) {
            if (!m_parser.isSet(opt))
                continue;
            any = true;
            const std::string name = opt.names().constFirst().toStdString();
            const bool offSwitch = name == spec->offFlag;
            const std::string value = spec->type != core::SettingType::Flag ? m_parser.value(opt).toStdString()
                                      : offSwitch ? (spec->switchValue == "1" ? "0" : "1")
                                                  : spec->switchValue;
            spec->set(config, "--" + name, value);
        }
        return any;
    }

private:
    const QCommandLineParser &m_parser;
    std::vector<std::pair<const core::SettingSpec *, QCommandLineOption>> m_options;
};

/// The request the options start from: the recommended preset (presets.h), replaced by a
/// session or a named run. False, said, when either cannot be read.
bool readStartingRequest(const QCommandLineParser &parser, const AppOptions &o, ui::RunRequest &request)
{
    core::RunConfig opening;
    opening.preset = core::Preset::Recommended;
    request = ui::RunRequest::single(opening);
    if (parser.isSet(o.session)) {
        QString error;
        const auto loaded = ui::loadSession(parser.value(o.session), &error);
        if (!loaded) {
            fail(error);
            return false;
        }
        request.config = loaded->config;
        request.methods = loaded->compare ? loaded->compareMethods : std::vector<core::TestMethod>{loaded->config.method};
        request.chains = loaded->chains;
        request.parallel = loaded->parallel;
    }
    if (parser.isSet(o.preset)) {
        const auto named = ui::presetRequest(parser.value(o.preset));
        if (!named) {
            fail(QStringLiteral("unknown preset '%1'; choose one of %2")
                     .arg(parser.value(o.preset), ui::presetNames().join(QStringLiteral(", "))));
            return false;
        }
        request = *named;
    }
    return true;
}

/// --methods as the CLI takes them ("minibatch", "minibatch+taylor2"), onto the request.
void readMethods(const QString &list, ui::RunRequest &request)
{
    request.methods.clear();
    request.controlVariates.clear();
    std::vector<core::ControlVariates> variants;
    bool anyVariant = false;
    for (const QString &name : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto [method, variant] = core::parseMethodVariant(name.trimmed().toStdString());
        request.methods.push_back(method);
        variants.push_back(variant.value_or(core::ControlVariates::Auto));
        anyVariant = anyVariant || variant.has_value();
    }
    if (anyVariant)
        request.controlVariates = std::move(variants);
    if (!request.methods.empty())
        request.config.method = request.methods.front();
}

/// Reads an option's number into `target` when the option is given; false, said, when it does
/// not parse. Range checks are validate()'s job.
template <typename Target, typename Convert>
bool readNumber(const QCommandLineParser &parser, const QCommandLineOption &opt, Target &target, Convert convert)
{
    if (!parser.isSet(opt))
        return true;
    bool ok = false;
    const auto value = convert(parser.value(opt), &ok);
    if (ok)
        target = value;
    else
        fail(QStringLiteral("invalid --%1 '%2'").arg(opt.names().front(), parser.value(opt)));
    return ok;
}

/// Chains, parallel chains, the mid-run temperature, continuous mode, its stop and the pace.
bool readRunShape(const QCommandLineParser &parser, const AppOptions &o, GuiOptions &options)
{
    ui::RunRequest &request = options.request;
    const auto toInt = [](const QString &text, bool *ok) { return text.toInt(ok); };
    const auto toReal = [](const QString &text, bool *ok) { return text.toDouble(ok); };
    if (!readNumber(parser, o.chains, request.chains, toInt)
        || !readNumber(parser, o.midRunTemperature, options.script.midRunTemperature, toReal))
        return false;
    if (parser.isSet(o.midRunTemperature) && !(options.script.midRunTemperature > 0.0)) {
        fail(QStringLiteral("--midrun-temperature must be > 0; got '%1'").arg(parser.value(o.midRunTemperature)));
        return false;
    }
    if (parser.isSet(o.parallel))
        request.parallel = true;
    if (!readNumber(parser, o.stopAfter, options.script.stopAfterSeconds, toReal)
        || !readNumber(parser, o.speed, options.speed, toReal))
        return false;
    options.untilStopped = parser.isSet(o.untilStopped);
    request.untilStopped = options.untilStopped;
    if (parser.isSet(o.stopAfter) && !(options.untilStopped && options.script.stopAfterSeconds > 0.0)) {
        fail(QStringLiteral("--stop-after needs --until-stopped and a number of seconds > 0; got '%1'")
                 .arg(parser.value(o.stopAfter)));
        return false;
    }
    if (!(options.speed >= 0.0)) {
        fail(QStringLiteral("--speed must be >= 0 iterations per second (0: no limit); got '%1'").arg(parser.value(o.speed)));
        return false;
    }
    return true;
}

/// The preset's settings for the dataset unless given, as the CLI fills them; a session or a
/// named run already holds every setting.
void fillFromPreset(const QCommandLineParser &parser, const AppOptions &o, const SettingOptions &settings,
                    ui::RunRequest &request)
{
    core::RunConfig &config = request.config;
    if ((settings.isSet("csv") || settings.isSet("data")) && !settings.isSet("dataset"))
        config.dataset = "logreg"; // a user's file is a classification data set
    if (!parser.isSet(o.session) && !parser.isSet(o.preset)) {
        core::applyPreset(config, request.methods,
                          [&](std::string_view flag) { return settings.isSet(std::string(flag).c_str()); });
        // The preset's chains too (two at once on images), unless counted or a sweep's trials.
        if (!parser.isSet(o.chains) && !parser.isSet(o.sweep)) {
            request.chains = core::presetChains(config, request.methods);
            request.parallel = request.parallel || request.chains > 1;
        }
    } else if (settings.isSet("dataset") || settings.isSet("csv") || settings.isSet("data"))
        core::applyDatasetDefaults(config, settings.isSet("temperature"), settings.isSet("step"));
}

/// The export size and the tab shown.
bool readView(const QCommandLineParser &parser, const AppOptions &o, GuiOptions &options)
{
    if (parser.isSet(o.exportSize)) {
        const QStringList parts = parser.value(o.exportSize).split(QLatin1Char('x'));
        const int width = parts.value(0).toInt(), height = parts.value(1).toInt();
        if (parts.size() != 2 || width < 16 || height < 16) {
            fail(QStringLiteral("invalid --export-size '%1'; use e.g. 1600x1000").arg(parser.value(o.exportSize)));
            return false;
        }
        options.script.exportSize = QSize(width, height);
    }
    if (parser.isSet(o.tab)) {
        const QStringList tabs = ui::ResultsView::tabKeys();
        options.tab = static_cast<int>(tabs.indexOf(parser.value(o.tab)));
        if (options.tab < 0) {
            fail(QStringLiteral("unknown --tab '%1'; choose one of %2").arg(parser.value(o.tab), tabs.join(QStringLiteral(", "))));
            return false;
        }
    }
    return true;
}

/// --sweep and --log; the sweep's samples and trials come from --samples and --chains.
bool readSweep(const QCommandLineParser &parser, const AppOptions &o, const SettingOptions &settings,
               GuiOptions &options)
{
    if (parser.isSet(o.sweep)) {
        try {
            options.script.sweep = core::parseSweepAxis(parser.value(o.sweep).toStdString());
        } catch (const std::exception &error) {
            fail(QStringLiteral("invalid --sweep (%1)").arg(QString::fromStdString(error.what())));
            return false;
        }
        options.script.sweep->logSpacing = parser.isSet(o.logSpacing);
        if (settings.isSet("samples"))
            options.script.sweepSamples = options.request.config.samples;
        if (parser.isSet(o.chains))
            options.script.sweepTrials = options.request.chains;
    } else if (parser.isSet(o.logSpacing)) {
        fail(QStringLiteral("--log needs --sweep"));
        return false;
    }
    return true;
}

/// When to run and quit, what to write after the run, and whether the last session comes back.
bool readScript(const QCommandLineParser &parser, const AppOptions &o, bool anyRunOption, GuiOptions &options)
{
    options.quitWhenDone = parser.isSet(o.quitWhenDone) || parser.isSet(o.quitAfterRun);
    if (options.quitWhenDone && options.untilStopped && !parser.isSet(o.stopAfter)) {
        fail(QStringLiteral("--quit-when-done with --until-stopped needs --stop-after SECONDS: the run never ends by itself"));
        return false;
    }
    options.script.exportDirectory = parser.value(o.exportPlots);
    options.script.screenshotPath = parser.value(o.screenshot);
    options.script.samplesPath = parser.value(o.exportSamples);
    options.script.midRunScreenshotPath = parser.value(o.midRunShot);
    options.runNow = options.quitWhenDone || parser.isSet(o.preset) || parser.isSet(o.sweep);
    options.dark = parser.isSet(o.dark);
    // Settings on the command line (or a script) replace the restored session.
    for (const auto *opt : {&o.methods, &o.chains, &o.parallel, &o.session, &o.sweep})
        anyRunOption = anyRunOption || parser.isSet(*opt);
    options.restoreSession = !parser.isSet(o.noRestore) && !options.runNow && !anyRunOption;
    if (!options.runNow && (!options.script.exportDirectory.isEmpty() || !options.script.screenshotPath.isEmpty()
                            || !options.script.samplesPath.isEmpty() || options.script.midRunTemperature > 0.0
                            || !options.script.midRunScreenshotPath.isEmpty())) {
        fail(QStringLiteral("--export-plots, --export-samples, --screenshot and --screenshot-midrun need "
                            "--quit-when-done or --run-preset"));
        return false;
    }
    options.script.request = options.request;
    return true;
}

} // namespace

std::optional<GuiOptions> parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Minibatch Metropolis-Hastings explorer"));
    parser.addHelpOption();
    parser.addVersionOption();
    const AppOptions o;
    const SettingOptions settings(parser);
    parser.addOptions(o.all());
    for (const auto &[spec, opt] : settings.options())
        parser.addOption(opt);
    parser.process(app);

    GuiOptions options;
    ui::RunRequest &request = options.request;
    if (!readStartingRequest(parser, o, request))
        return std::nullopt;
    bool anyRunOption = false;
    try {
        anyRunOption = settings.applyTo(request.config);
        if (settings.isSet("method"))
            request.methods = {request.config.method};
        if (parser.isSet(o.methods))
            readMethods(parser.value(o.methods), request);
    } catch (const std::exception &error) {
        fail(QString::fromStdString(error.what()));
        return std::nullopt;
    }
    if (!readRunShape(parser, o, options))
        return std::nullopt;
    fillFromPreset(parser, o, settings, request);
    if (!readView(parser, o, options) || !readSweep(parser, o, settings, options)
        || !readScript(parser, o, anyRunOption, options))
        return std::nullopt;
    return options;
}

} // namespace gui
