#include "ui/app_identity.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QStandardPaths>

#include "core/install/install_layout.h"
#include "ui/session.h"

#ifndef MHX_APP_ID
#error "MHX_APP_ID (the desktop entry's name, cmake/packaging.cmake) must be defined by the build"
#endif

namespace ui {

void setApplicationIdentity()
{
    const QString name = QString::fromLatin1(kApplicationName);
    QCoreApplication::setOrganizationName(name);
    QCoreApplication::setApplicationName(name);
    QCoreApplication::setApplicationVersion(QString::fromStdString(core::projectVersion()));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Minibatch MH Explorer"));
    // The installed desktop entry's name: Wayland compositors match windows to it by this id.
    QGuiApplication::setDesktopFileName(QStringLiteral(MHX_APP_ID));
}

QString moveLegacyAutosave()
{
    const QString legacy = QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
                               .filePath(QString::fromLatin1(kApplicationName) + QStringLiteral("/last-session.json"));
    const QString current = autosaveSessionPath();
    if (legacy == current || !QFileInfo::exists(legacy) || QFileInfo::exists(current))
        return {};
    if (!QDir().mkpath(QFileInfo(current).absolutePath()) || !QFile::rename(legacy, current))
        return {};
    return current;
}

} // namespace ui
