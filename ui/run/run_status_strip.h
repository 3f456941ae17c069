#pragma once
// The strip under the charts: a progress bar and the running figures of the latest snapshot
// (speed, acceptance, mean minibatch size, data used), then, after a run, one value per
// compared method and the posterior fit. The figures elide long values to the width they get,
// with "…", rather than widening the window or clipping mid-word (the whole text is in the
// label's tooltip); a notice (why a run restarted, a segment began) gets a row of its own.
#include <array>

#include <QElapsedTimer>
#include <QWidget>

#include "ui/run/sampler_worker.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QPushButton;
QT_END_NAMESPACE

namespace ui {

class RunStatusStrip : public QWidget {
    Q_OBJECT
public:
    explicit RunStatusStrip(QWidget *parent = nullptr);

    /// Dashes everywhere: a new run starts, with a busy bar until the chains report.
    void beginRun();
    /// The bar after a run ends or fails (keeps what it shows unless it was busy).
    void endRun();
    /// Preparation progress in [0, 1]; < 0 means busy without a fraction. `stage` (a
    /// core::RunStage) names what is being prepared on the bar.
    void showPreparation(double fraction, int stage);
    /// After a failed run: an empty bar that says so, not the last count.
    void failRun();
    /// The run was paused or resumed: the ETA counts sampling time only.
    void setPaused(bool paused);
    /// Seconds of sampling since the first snapshot, paused time left out; 0 before it.
    double samplingSeconds() const;
    /// One channel's figures; `done` of `total` iterations over all channels.
    void showSnapshot(const RunSnapshot &snapshot, const RunRequest &request, qint64 done, qint64 total);
    void showOutcome(const RunOutcome &outcome);
    /// Where the step a chain goes on with after its burn-in came from, for the notice that names it.
    enum class StepSource {
        Form,     ///< the form's step, kept through the burn-in (or set live)
        Learned,  ///< learned in the burn-in by an adaptive proposal, starting from the form's
        Forecast, ///< SGLD's or SGHMC's forecast took it for the run, in place of the form's
    };
    /// A chain segment began during the run (segment `number` ≥ 2, counting from 1).
    /// `afterBurnIn`: the segment is the one the burn-in hands over to, not a settings change;
    /// its notice says where the step it goes on with came from (`stepSource`).
    void showSegment(int number, const core::ChainSegment &segment, bool afterBurnIn = false,
                     StepSource stepSource = StepSource::Form);
    /// A live change of T from `from` to `to` was sent to the running chains: says at once what
    /// it will cost (the minibatch test's predicted batch, speed and the time left, from the
    /// latest snapshot), and where each test would read a large share of N offers to go back to
    /// `from` or to stop here, keeping the samples drawn so far. Returns the prediction shown
    /// (empty where the method's batch does not follow T in a known way).
    /// `pace` > 0: the speed limit holds the run, so its points per second do not tell the
    /// new speed; the prediction then leaves speed and time to the measurement. Either way, once
    /// the new segment has run a while the row adds what it measured (batch, speed, time left).
    QString predictTemperatureChange(double from, double to, const RunRequest &request, double pace = 0.0);
    /// The latest prediction, shown on a row of its own until the run ends.
    QString prediction() const;
    /// The prediction's buttons, for tests: "Back to T = …" and "Stop here".
    QPushButton *revertButton() const { return m_revert; }
    QPushButton *stopHereButton() const { return m_stopHere; }
    /// A note that stays for the rest of the run (for example why it restarted).
    void showNotice(const QString &text);
    QString notice() const;
    /// Back to the idle state, as at start (Reset).
    void clear();

    QProgressBar *progressBar() const { return m_progress; }
    /// The figures as shown, whole (not elided), joined by " | ": speed, acceptance, mean batch,
    /// data used and the fit.
    QString figuresText() const;

signals:
    /// The user took the prediction's offer: T back to this value, or stop the run here.
    void revertTemperatureRequested(double temperature);
    void stopRequested();

private:
    /// The running figures, in their order on the strip.
    enum Stat { Speed, Acceptance, Batch, Data, Fit, StatCount };

    void resetLabels();
    void hideOffer();
    void setStat(Stat which, const QString &text);

    QProgressBar *m_progress = nullptr;
    std::array<QLabel *, StatCount> m_stats{};
    /// Its own row under the figures, wrapped rather than elided: a notice is read once, whole.
    QLabel *m_notice = nullptr;
    QLabel *m_prediction = nullptr; // the latest live change's cost, beside its offer
    QString m_predicted;            // its prediction, before any measurement is added
    QPushButton *m_revert = nullptr;
    QPushButton *m_stopHere = nullptr;
    double m_revertTo = 0.0;
    bool m_relearning = false; // the latest segment shown re-learns the step
    RunSnapshot m_latest; // the latest snapshot's figures, for a prediction (no samples kept)
    QElapsedTimer m_sampling; // since the first snapshot, for the ETA
    // The pace over the last second or so, for an ETA that follows a live change (a T that
    // makes each test read most of N slows the chains a hundredfold at once).
    double m_paceMarkSeconds = 0.0;
    qint64 m_paceMarkDone = 0;
    double m_recentPace = 0.0;
    // Where the pace after the latest predicted change is counted from (sampling seconds,
    // iterations over all channels): the first snapshot whose segment began at the change, so
    // that no iteration at the old speed counts (the last second's pace straddles the change).
    double m_changeMarkSeconds = 0.0;
    qint64 m_changeMarkDone = 0;
    bool m_changeMarkPending = false;
    qint64 m_changeAt = 0; // the reporting chain's iterations when the change was made
    QElapsedTimer m_pausedSince; // valid while paused
    qint64 m_pausedMs = 0;       // paused time since the first snapshot
};

/// "0.25 passes", "6.07 passes", "20,000 passes": fewer decimals as the count grows, never an
/// exponent.
QString formatPasses(qint64 pointsUsed, qint64 nData);
/// "950", "20.73 M", "1.20 G": a rate without exponents.
QString formatRate(double perSecond);
/// "42 s", "3 min 5 s", "2 h 10 min".
QString formatDuration(double seconds);

} // namespace ui
