#pragma once
// The main window as the window tests open it: errors go to the status line and the error
// list, not to modal dialogs that would wait for a click nobody makes.
#include "ui/main_window.h"

namespace testruns {

/// Passed to QuietWindow: no run starts by itself after an edit.
struct NoAutoRun {};

class QuietWindow : public ui::MainWindow {
public:
    QuietWindow() { setShowErrorDialogs(false); }
    explicit QuietWindow(NoAutoRun) : QuietWindow() { setAutoRun(false); }
};

} // namespace testruns
