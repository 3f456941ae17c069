#pragma once
// Tooltips of the controls that hold a run setting end with what the settings table says of it
// (core/experiment/settings/settings_table.h): its key in samples files, summaries and sessions, and its
// command-line flag, help and range, the same words as `mh-explorer-cli run --help`.
#include <string_view>

#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ui {

/// `tooltip`, then a paragraph naming the setting `key`; `tooltip` alone for an unknown key. The
/// result is wrapped as wrappedToolTip() does.
QString withSettingHelp(const QString &tooltip, std::string_view key);

/// Plain text as a rich-text tooltip, which Qt wraps (at about 80 characters) where a plain one
/// stays one line as wide as the screen. Line breaks are kept; rich text is returned as it is.
QString wrappedToolTip(const QString &text);

/// Wraps the plain tooltips of `root` and every widget under it.
void wrapToolTips(QWidget *root);

} // namespace ui
