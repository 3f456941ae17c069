#pragma once
// Tooltips of the controls that hold a run setting end with what the settings table says of it
// (core/experiment/settings_table.h): its key in samples files, summaries and sessions, and its
// command-line flag, help and range, the same words as `mh-explorer-cli run --help`.
#include <string_view>

#include <QString>

namespace ui {

/// `tooltip`, then a paragraph naming the setting `key`; `tooltip` alone for an unknown key.
QString withSettingHelp(const QString &tooltip, std::string_view key);

} // namespace ui
