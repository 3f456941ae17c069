#pragma once
// "The charts are not the form's settings": a strip above the charts that appears whenever the
// run on display (finished, stopped or still going) was made with settings other than those in
// the form, names each one that differs with both values, and offers the one key press that
// brings them together (Run, Ctrl+R). Without it a user who changes T after a run looks at the
// old run's posterior believing it is the new one.
#include <optional>

#include <QFrame>
#include <QString>
#include <QStringList>

#include "ui/run/run_messages.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace ui {

class StaleBanner : public QFrame {
    Q_OBJECT
public:
    explicit StaleBanner(QWidget *parent = nullptr);

    /// What the charts show (none: nothing, so nothing can be stale) against the form. `running`
    /// words the advice for a run in progress.
    void compare(const std::optional<RunRequest> &shown, const RunRequest &form, bool running);
    /// Every difference, as "T 10000 → 1000"; empty when the charts match the form.
    QStringList differences() const { return m_differences; }
    QString text() const;

    /// "σ" for sigma, "T" for temperature…: the names the form's labels use.
    static QString settingLabel(const std::string &key);
    /// A run in one line, for export messages: "gmm, minibatch, N = 1000000, T = 10000,
    /// step = 0.15, σ = 1, seed 1, 3000 samples".
    static QString describeRun(const RunRequest &request);
    /// The differences between two requests: every table setting, then methods and chains.
    static QStringList describeDifferences(const RunRequest &shown, const RunRequest &form);

signals:
    /// The banner's button: run with the form's settings.
    void runRequested();

private:
    QLabel *m_text = nullptr;
    QPushButton *m_run = nullptr;
    QStringList m_differences;
};

} // namespace ui
