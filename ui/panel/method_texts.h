#pragma once
// What the app calls each acceptance test: a short label for the method box and one sentence,
// with its paper and section, for the tooltips of the method box and the compare box. Both come
// from the core's method table (method_registry.h), so that the two boxes, the command line and
// the docs never describe a method differently.
#include <QString>
#include <QVector>

#include "core/experiment/settings/run_config.h"

namespace ui {

/// Every method, in the method box's order (the method table's).
QVector<core::TestMethod> allMethods();
/// "minibatch (corrected)", "smh (scalable MH, exact)": the CLI's name and what it is.
QString methodLabel(core::TestMethod method);
/// One sentence on what an acceptance test is, with the paper's section.
QString methodDescription(core::TestMethod method);

} // namespace ui
