#pragma once
// Drives the window without a user: starts a request, waits for it and for the correction
// chart, then exports every chart (PNG and SVG) plus the run summary into a folder and/or
// saves a screenshot, and reports an exit code. With QT_QPA_PLATFORM=offscreen this is how
// scripts and CI make the figures: mh-explorer --run-preset gmm-compare --export-plots DIR
// --quit-when-done. With a sweep axis it runs a sweep on the Trade-offs tab instead of a run.
#include <optional>

#include <QObject>
#include <QSize>
#include <QString>

#include "core/experiment/sweep/sweep.h"
#include "ui/run/sampler_worker.h"

namespace ui {

class MainWindow;

struct ScriptOptions {
    RunRequest request;
    QString exportDirectory;  ///< empty: no chart export
    QSize exportSize{1600, 1000};
    QString screenshotPath;   ///< empty: no screenshot
    /// The samples as CSV (one file per chain when there are several, named as the File menu
    /// names them); empty: none.
    QString samplesPath;
    /// Saved once the first chain is half done, while the run goes on; empty: none.
    QString midRunScreenshotPath;
    /// > 0: once the first chain is half done, change the temperature of the running chains to
    /// this (a live change, as the T box does during a run: a new, marked chain segment).
    double midRunTemperature = 0.0;
    /// Set: sweep this axis on the Trade-offs tab from the form's settings instead of running.
    std::optional<core::SweepAxis> sweep;
    /// > 0: the sweep's samples per point and trials instead of the page's defaults.
    qint64 sweepSamples = 0;
    int sweepTrials = 0;
    /// > 0: a run until stopped (request.untilStopped) is stopped after this many seconds.
    double stopAfterSeconds = 0.0;
};

class ScriptedRun : public QObject {
    Q_OBJECT
public:
    ScriptedRun(MainWindow *window, ScriptOptions options, QObject *parent = nullptr);

    /// Queues the run; done() follows exactly once.
    void start();

signals:
    /// 0 when the run finished and every file was written, 1 otherwise.
    void done(int exitCode);

private:
    void onRunFinished(const ui::RunOutcome &outcome);
    void startSweep();
    void onSweepFinished(bool stopped);
    void finishWhenCorrectionReady();
    void writeOutputs();
    void finish(int exitCode);
    bool saveScreenshot(const QString &path);

    MainWindow *m_window;
    ScriptOptions m_options;
    bool m_stopped = false;
    bool m_done = false;
    bool m_midRunShot = false;
    bool m_halfWay = false;
};

} // namespace ui
