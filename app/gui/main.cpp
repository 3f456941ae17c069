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

#include <QApplication>
#include <QPalette>
#include <QPointer>
#include <QStyleFactory>
#include <QTimer>

#include "core/data/full_pass_notice.h"
#include "ui/app_identity.h"
#include "ui/panel/control_panel.h"
#include "ui/run/continuous_controls.h"
#include "ui/main_window.h"
#include "ui/pages/results_view.h"
#include "ui/run/scripted_run.h"
#include "app/gui/gui_options.h"
#include "ui/files/session.h"

namespace {

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
        if (!gui::parseOptions(info))
            return 2;
    }
    QApplication app(argc, argv);
    ui::moveLegacyAutosave();
    const std::optional<gui::GuiOptions> options = gui::parseOptions(app);
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
