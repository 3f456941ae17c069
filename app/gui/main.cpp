// mh-explorer: the desktop GUI. Without options it opens the window with the paper's
// defaults. --quit-after-run starts a run at once and exits when it ends (0 when it finished,
// 1 when it failed or was stopped); with --screenshot the finished window is saved as PNG.
// Together they let the GUI run headless (QT_QPA_PLATFORM=offscreen) in scripts and tests.
#include <cstdio>
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>

#include "core/experiment/run_config.h"
#include "ui/control_panel.h"
#include "ui/main_window.h"

namespace {

struct GuiOptions {
    core::RunConfig config;
    bool quitAfterRun = false;
    QString screenshotPath;
};

// Parses the options; prints the problem and returns nothing when one is malformed.
std::optional<GuiOptions> parseOptions(const QApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Minibatch Metropolis-Hastings explorer"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption method(QStringLiteral("method"), QStringLiteral("mh, barker, minibatch or naive-barker."),
                                    QStringLiteral("name"));
    const QCommandLineOption nData(QStringLiteral("n-data"), QStringLiteral("Number of data points N."),
                                   QStringLiteral("count"));
    const QCommandLineOption temperature(QStringLiteral("temperature"), QStringLiteral("Temperature T > 0."),
                                         QStringLiteral("value"));
    const QCommandLineOption step(QStringLiteral("step"), QStringLiteral("Proposal standard deviation per coordinate."),
                                  QStringLiteral("value"));
    const QCommandLineOption samples(QStringLiteral("samples"), QStringLiteral("Number of iterations."),
                                     QStringLiteral("count"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Seed of the chain."), QStringLiteral("value"));
    const QCommandLineOption quitAfterRun(QStringLiteral("quit-after-run"),
                                          QStringLiteral("Start a run at once; exit 0 when it finishes, 1 otherwise."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("With --quit-after-run: save the window as PNG after the run."),
                                        QStringLiteral("path"));
    parser.addOptions({method, nData, temperature, step, samples, seed, quitAfterRun, screenshot});
    parser.process(app);

    GuiOptions options;
    options.quitAfterRun = parser.isSet(quitAfterRun);
    options.screenshotPath = parser.value(screenshot);
    core::RunConfig &config = options.config;
    try {
        if (parser.isSet(method))
            config.method = core::parseMethod(parser.value(method).toStdString());
    } catch (const std::exception &error) {
        std::fprintf(stderr, "mh-explorer: %s\n", error.what());
        return std::nullopt;
    }
    // Each reader leaves the default in place when the option is absent and returns false
    // when the value does not parse; range checks are core::validate()'s job.
    auto read = [&parser](const QCommandLineOption &option, auto &target, auto convert) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const auto value = convert(parser.value(option), &ok);
        if (ok)
            target = value;
        else
            std::fprintf(stderr, "mh-explorer: invalid --%s '%s'\n", qPrintable(option.names().front()),
                         qPrintable(parser.value(option)));
        return ok;
    };
    auto toInt64 = [](const QString &text, bool *ok) { return text.toLongLong(ok); };
    auto toUInt64 = [](const QString &text, bool *ok) { return text.toULongLong(ok); };
    auto toReal = [](const QString &text, bool *ok) { return text.toDouble(ok); };
    if (!read(nData, config.nData, toInt64) || !read(temperature, config.temperature, toReal)
        || !read(step, config.step, toReal) || !read(samples, config.samples, toInt64)
        || !read(seed, config.seed, toUInt64))
        return std::nullopt;
    if (!options.screenshotPath.isEmpty() && !options.quitAfterRun) {
        std::fprintf(stderr, "mh-explorer: --screenshot needs --quit-after-run\n");
        return std::nullopt;
    }
    return options;
}

// Written through QSaveFile so that a failed save leaves no partial file.
bool saveScreenshot(QWidget &window, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !window.grab().save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "mh-explorer: cannot write screenshot '%s': %s\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    std::fprintf(stderr, "mh-explorer: screenshot written to %s\n", qPrintable(path));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("mh-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Minibatch MH Explorer"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    const std::optional<GuiOptions> options = parseOptions(app);
    if (!options)
        return 2;

    ui::MainWindow window;
    window.controls()->setConfig(options->config);
    window.show();

    if (options->quitAfterRun) {
        window.setShowErrorDialogs(false);
        QObject::connect(&window, &ui::MainWindow::runFinished, &app, [&](const ui::RunOutcome &outcome) {
            const core::ChainSummary &s = outcome.summary;
            std::fprintf(stderr, "mh-explorer: %s after %lld samples, acceptance %.3f, mean batch %.1f\n",
                         outcome.stopped ? "stopped" : "finished", static_cast<long long>(s.iterations),
                         s.acceptanceRate, s.meanBatch);
            if (outcome.hasPosteriorMetrics)
                std::fprintf(stderr, "mh-explorer: posterior TV %.4f, chi2 %.1f (%d cells)\n",
                             outcome.posterior.totalVariation, outcome.posterior.chiSquared,
                             outcome.posterior.chiSquaredCells);
            // Let the final chart update lay out before the window is grabbed.
            QTimer::singleShot(0, &app, [&, stopped = outcome.stopped] {
                const bool saved = options->screenshotPath.isEmpty() || saveScreenshot(window, options->screenshotPath);
                QApplication::exit(!stopped && saved ? 0 : 1);
            });
        });
        QObject::connect(&window, &ui::MainWindow::runFailed, &app, [](const QString &message) {
            std::fprintf(stderr, "mh-explorer: run failed: %s\n", qPrintable(message));
            QApplication::exit(1);
        });
        QTimer::singleShot(0, &window, [&] { window.startRun(options->config); });
    }
    return QApplication::exec();
}
