#include "ui/files/run_export.h"

#include "core/experiment/reports/run_report.h"

namespace ui {

QStringList writeRunSamples(const RunOutcome &outcome, const QString &path)
{
    QStringList written;
    for (const std::string &file : core::writeRunSamples(outcome, path.toStdString(), kProgramName))
        written.append(QString::fromStdString(file));
    return written;
}

void writeRunSummary(const RunOutcome &outcome, const QString &path)
{
    core::writeRunSummary(outcome, path.toStdString(), kProgramName);
}

} // namespace ui
