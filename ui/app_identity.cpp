#include "ui/app_identity.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>
#include <QStandardPaths>
#include <QSvgRenderer>

#include "core/install/install_layout.h"
#include "ui/files/session.h"

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

QIcon applicationIcon()
{
    QSvgRenderer renderer(QStringLiteral(":/icons/mh-explorer.svg"));
    if (!renderer.isValid())
        return {};
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        renderer.render(&painter);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
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
