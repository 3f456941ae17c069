#pragma once
// Named run requests for the Run menu and for scripted use (--run-preset NAME).
#include <optional>

#include <QString>
#include <QStringList>

#include "ui/run/run_messages.h"

namespace ui {

/// "gmm", "gmm-compare", "gmm-chains", "gmm-quick", "logreg-quick".
QStringList presetNames();
/// One line saying what the preset runs.
QString presetDescription(const QString &name);
/// The request of a preset, or nothing for an unknown name.
std::optional<RunRequest> presetRequest(const QString &name);

} // namespace ui
