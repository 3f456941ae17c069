#pragma once
// What the app calls each acceptance test: a short label for the method box and one sentence,
// with its paper and section, for the tooltips of the method box and the compare box. One
// table, so that the two boxes never describe a method differently.
#include <QString>
#include <QVector>

#include "core/experiment/settings/run_config.h"

namespace ui {

/// Every method, in the method box's order.
QVector<core::TestMethod> allMethods();
/// "minibatch (corrected)", "smh (scalable MH, exact)": the CLI's name and what it is.
QString methodLabel(core::TestMethod method);
/// One sentence on what an acceptance test is, with the paper's section.
QString methodDescription(core::TestMethod method);

} // namespace ui
