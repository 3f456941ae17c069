// The application's identity as Qt sees it: settings and session files land under the
// project's own name (not Qt's "Unknown Organization"), the version is the build's, the
// desktop file name names the desktop entry and AppStream file that are installed, and an
// autosaved session from before the organisation was set moves to its new place.
#include <QtTest>

#include <QCoreApplication>
#include <QFile>
#include <QGuiApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "tests/support/gui_test_main.h"
#include "core/install/install_layout.h"
#include "ui/app_identity.h"
#include "ui/files/session.h"

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_AppIdentity : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void withoutIdentityQtFilesSettingsUnderUnknownOrganization();
    void settingsAndSessionsUseTheProjectName();
    void versionIsTheBuildVersion();
    void desktopFileNameNamesTheInstalledFiles();
    void legacyAutosaveMovesOnce();
    void legacyAutosaveNeverOverwrites();

private:
    QTemporaryDir m_config;
};

void tst_AppIdentity::initTestCase()
{
    // Every settings and session path below lives in a private directory, never the user's;
    // QSettings reads XDG_CONFIG_HOME at its first use, which comes after this.
    QVERIFY(m_config.isValid());
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
}

void tst_AppIdentity::withoutIdentityQtFilesSettingsUnderUnknownOrganization()
{
    // The failure this suite guards against: the state a program is in before
    // setApplicationIdentity(), and was in before it existed.
    QVERIFY(QCoreApplication::organizationName().isEmpty());
    QVERIFY2(QSettings().fileName().contains(QLatin1String("Unknown Organization")), qPrintable(QSettings().fileName()));
}

void tst_AppIdentity::settingsAndSessionsUseTheProjectName()
{
    ui::setApplicationIdentity();
    QCOMPARE(QCoreApplication::organizationName(), QStringLiteral("mh-explorer"));
    QCOMPARE(QCoreApplication::applicationName(), QStringLiteral("mh-explorer"));
    const QString settings = QSettings().fileName();
    QVERIFY2(!settings.contains(QLatin1String("Unknown Organization")), qPrintable(settings));
    QCOMPARE(settings, m_config.filePath(QStringLiteral("mh-explorer/mh-explorer.conf")));
    QCOMPARE(ui::autosaveSessionPath(), m_config.filePath(QStringLiteral("mh-explorer/mh-explorer/last-session.json")));
    QCOMPARE(QGuiApplication::applicationDisplayName(), QStringLiteral("Minibatch MH Explorer"));
}

void tst_AppIdentity::versionIsTheBuildVersion()
{
    ui::setApplicationIdentity();
    const QString version = QCoreApplication::applicationVersion();
    QCOMPARE(version, QString::fromStdString(core::projectVersion()));
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+\\.\\d+\\.\\d+$")).match(version).hasMatch(), qPrintable(version));
}

void tst_AppIdentity::desktopFileNameNamesTheInstalledFiles()
{
    ui::setApplicationIdentity();
    const QString id = QGuiApplication::desktopFileName();
    QVERIFY(!id.isEmpty());
    const QString desktop = QFINDTESTDATA(QStringLiteral("../../resources/%1.desktop").arg(id));
    QVERIFY2(!desktop.isEmpty(), qPrintable(id));
    QVERIFY(readFile(desktop).contains("\nExec=mh-explorer\n"));
    const QString metainfo = QFINDTESTDATA(QStringLiteral("../../resources/%1.metainfo.xml").arg(id));
    QVERIFY2(!metainfo.isEmpty(), qPrintable(id));
    const QByteArray xml = readFile(metainfo);
    QVERIFY(xml.contains(QStringLiteral("<id>%1</id>").arg(id).toUtf8()));
    QVERIFY(xml.contains(QStringLiteral(">%1.desktop</launchable>").arg(id).toUtf8()));
}

void tst_AppIdentity::legacyAutosaveMovesOnce()
{
    ui::setApplicationIdentity();
    const QString legacy = m_config.filePath(QStringLiteral("mh-explorer/last-session.json"));
    const QString current = ui::autosaveSessionPath();
    QFile::remove(current);
    QVERIFY(writeFile(legacy, "{\"legacy\": true}"));
    QCOMPARE(ui::moveLegacyAutosave(), current);
    QVERIFY(!QFileInfo::exists(legacy));
    QCOMPARE(readFile(current), QByteArray("{\"legacy\": true}"));
    QCOMPARE(ui::moveLegacyAutosave(), QString());
    QCOMPARE(readFile(current), QByteArray("{\"legacy\": true}"));
}

void tst_AppIdentity::legacyAutosaveNeverOverwrites()
{
    ui::setApplicationIdentity();
    const QString legacy = m_config.filePath(QStringLiteral("mh-explorer/last-session.json"));
    const QString current = ui::autosaveSessionPath();
    QVERIFY(writeFile(current, "{\"current\": true}"));
    QVERIFY(writeFile(legacy, "{\"legacy\": true}"));
    QCOMPARE(ui::moveLegacyAutosave(), QString());
    QCOMPARE(readFile(current), QByteArray("{\"current\": true}"));
    QVERIFY(QFileInfo::exists(legacy));
}

MHX_GUI_TEST_MAIN(tst_AppIdentity)
#include "tst_app_identity.moc"
