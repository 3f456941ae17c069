#pragma once
// Sessions: every setting of the window as a JSON file (docs/file-formats.md), so a run can be
// restored and shared. The file is versioned; keys that are missing keep their defaults, so
// older session files still load. 64-bit seeds are stored as strings, because JSON numbers
// are doubles and would round seeds above 2^53.
#include <optional>
#include <vector>

#include <QByteArray>
#include <QJsonObject>
#include <QSize>
#include <QString>
#include <QVector>

#include "core/experiment/settings/run_config.h"

namespace ui {

struct Session {
    core::RunConfig config;
    bool compare = false;                      ///< compare mode on
    std::vector<core::TestMethod> compareMethods;  ///< ticked in compare mode (kept when it is off)
    /// Each ticked method that takes them also runs with taylor2 control variates (CompareBox).
    bool compareWithControlVariates = false;
    /// Each ticked method that takes them runs with taylor2 only (CompareBox).
    bool compareOnlyWithControlVariates = false;
    int chains = 1;
    bool parallel = false;
    QSize exportSize{1600, 1000};              ///< last chart export size
    QString tab = QStringLiteral("posterior"); ///< the chart tab shown, by its key (ResultsView::tabKeys)
    /// A data file the window did not keep because it failed to load (autosave): its name and
    /// the loader's message, said at the next start; the settings hold the last data that did.
    QString droppedData;
    QString droppedReason;
};

QJsonObject sessionToJson(const Session &session);
/// Reads a session; throws std::invalid_argument naming the key when a value has the wrong
/// type or an unknown name (method, solver), or the file is not a session.
Session sessionFromJson(const QJsonObject &json);

/// Writes atomically; on failure returns false and sets `*error` (path and reason).
bool saveSession(const Session &session, const QString &path, QString *error);
/// Reads a file written by saveSession(); on failure returns nothing and sets `*error`.
std::optional<Session> loadSession(const QString &path, QString *error);
/// Parses the bytes of a session file as loadSession() does; `name` stands for the path in
/// `*error`.
std::optional<Session> parseSession(const QByteArray &bytes, const QString &name, QString *error);

/// Where the window keeps the session it restores at the next start.
QString autosaveSessionPath();

} // namespace ui
