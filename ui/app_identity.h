#pragma once
// Who the application says it is to Qt: organisation, name, display name, version and desktop
// file. QSettings and QStandardPaths derive their paths from these, so they must be set before
// the first QSettings or QStandardPaths use; without an organisation, Qt files the settings
// under "Unknown Organization".
#include <QIcon>
#include <QString>

namespace ui {

/// The organisation and application name: settings go to
/// $XDG_CONFIG_HOME/mh-explorer/mh-explorer.conf, sessions to $XDG_CONFIG_HOME/mh-explorer/mh-explorer/.
inline constexpr char kApplicationName[] = "mh-explorer";

/// Sets the organisation and application names, the display name, the version (the CMake
/// project version) and the desktop file name (resources/<MHX_APP_ID>.desktop). Works with a
/// QCoreApplication as well as a QApplication, and before either exists.
void setApplicationIdentity();

/// The window icon, rendered from the embedded SVG (:/icons/mh-explorer.svg) by QSvgRenderer at
/// the usual icon sizes. QIcon("x.svg") would need the SVG icon-engine plugin, which Debian 13
/// ships in a package of its own (qt6-svg-plugins) that a minimal install lacks; the QtSvg
/// library the app links is always there. Null only if the resource is missing.
QIcon applicationIcon();

/// Versions before the organisation name was set kept the autosaved session in
/// $XDG_CONFIG_HOME/mh-explorer/last-session.json. Moves it to autosaveSessionPath() when that
/// does not exist yet, so an upgrade keeps the user's last settings. Returns the new path when
/// a file was moved, otherwise an empty string. Call after setApplicationIdentity().
QString moveLegacyAutosave();

} // namespace ui
