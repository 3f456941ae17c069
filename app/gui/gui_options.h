// The desktop app's command line: the run settings the CLI offers (one flag each, from the
// settings table) and the app's own options for scripted runs, exports and screenshots.
#pragma once

#include <optional>

#include <QCoreApplication>

#include "ui/run/scripted_run.h"

namespace gui {

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

/// Parses the options; prints the problem to stderr and returns nothing when one is malformed.
std::optional<GuiOptions> parseOptions(const QCoreApplication &app);

/// Prints "mh-explorer: message" to stderr.
void fail(const QString &message);

} // namespace gui
