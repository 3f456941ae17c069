#pragma once
// Runs the real command-line binary (MHX_CLI_PATH, defined for tests/app suites) and reads
// the JSON files it writes, for the end-to-end CLI suites.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace testcli {

struct Result {
    int exitCode = -1; ///< -1 when it crashed or did not finish in time
    QString out, err;
};

/// `workingDirectory` empty: the test's own.
inline Result runCli(const QStringList &arguments, int timeoutMs = 300000, const QString &workingDirectory = {})
{
    QProcess process;
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(QStringLiteral(MHX_CLI_PATH), arguments);
    if (!process.waitForFinished(timeoutMs))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

/// The JSON object in `path`; empty when it cannot be read or parsed.
inline QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace testcli
