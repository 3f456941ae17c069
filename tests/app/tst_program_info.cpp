// --help and --version of both programs, as a user on a machine without a display runs them:
// no DISPLAY, no WAYLAND_DISPLAY and no QT_QPA_PLATFORM. The GUI must answer them without
// creating its QApplication, which would abort for want of a display.
#include <QtTest>

#include <QProcess>
#include <QProcessEnvironment>

#include "core/install/install_layout.h"

namespace {

struct Result {
    bool finished = false;
    bool crashed = false;
    int exitCode = -1;
    QString out, err;
};

Result runWithoutDisplay(const QString &program, const QStringList &arguments)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Result result;
    result.finished = process.waitForFinished(60000);
    if (!result.finished) {
        process.kill();
        process.waitForFinished();
    }
    result.crashed = process.exitStatus() != QProcess::NormalExit;
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString describe(const Result &result)
{
    return QStringLiteral("finished %1, crashed %2, exit %3\nstdout: %4\nstderr: %5")
        .arg(result.finished)
        .arg(result.crashed)
        .arg(result.exitCode)
        .arg(result.out, result.err);
}

const QString kGui = QStringLiteral(MHX_GUI_PATH);
const QString kCli = QStringLiteral(MHX_CLI_PATH);

} // namespace

class tst_ProgramInfo : public QObject {
    Q_OBJECT

private slots:
    void guiHelpNeedsNoDisplay_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--help") << "--help";
        QTest::newRow("-h") << "-h";
        QTest::newRow("--help-all") << "--help-all";
    }

    void guiHelpNeedsNoDisplay()
    {
        QFETCH(QString, flag);
        const Result result = runWithoutDisplay(kGui, {flag});
        QVERIFY2(result.finished && !result.crashed && result.exitCode == 0, qPrintable(describe(result)));
        QVERIFY2(result.out.contains(QLatin1String("Usage: ")), qPrintable(describe(result)));
        for (const char *option : {"--run-preset", "--quit-when-done", "--export-plots", "--version"})
            QVERIFY2(result.out.contains(QLatin1String(option)), option);
    }

    void guiVersionNeedsNoDisplay_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--version") << "--version";
        QTest::newRow("-v") << "-v";
    }

    void guiVersionNeedsNoDisplay()
    {
        QFETCH(QString, flag);
        const Result result = runWithoutDisplay(kGui, {flag});
        QVERIFY2(result.finished && !result.crashed && result.exitCode == 0, qPrintable(describe(result)));
        QCOMPARE(result.out.trimmed(), QStringLiteral("mh-explorer %1").arg(QString::fromStdString(core::projectVersion())));
    }

    void guiHelpAfterRunOptionsNeedsNoDisplay()
    {
        const Result result = runWithoutDisplay(kGui, {QStringLiteral("--dataset"), QStringLiteral("gmm"), QStringLiteral("--help")});
        QVERIFY2(result.finished && !result.crashed && result.exitCode == 0, qPrintable(describe(result)));
        QVERIFY(result.out.contains(QLatin1String("--run-preset")));
    }

    void guiUnknownOptionWithHelpIsAnError()
    {
        // The parser reports the bad option first, as it does when the window would open.
        const Result result = runWithoutDisplay(kGui, {QStringLiteral("--frobnicate"), QStringLiteral("--help")});
        QVERIFY2(result.finished && !result.crashed && result.exitCode != 0, qPrintable(describe(result)));
        QVERIFY2(result.err.contains(QLatin1String("frobnicate")), qPrintable(describe(result)));
    }

    void cliVersion_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--version") << "--version";
        QTest::newRow("-v") << "-v";
    }

    void cliVersion()
    {
        QFETCH(QString, flag);
        const Result result = runWithoutDisplay(kCli, {flag});
        QVERIFY2(result.finished && !result.crashed && result.exitCode == 0, qPrintable(describe(result)));
        QCOMPARE(result.out.trimmed(), QStringLiteral("mh-explorer-cli %1").arg(QString::fromStdString(core::projectVersion())));
    }

    void cliHelp()
    {
        const Result result = runWithoutDisplay(kCli, {QStringLiteral("--help")});
        QVERIFY2(result.finished && !result.crashed && result.exitCode == 0, qPrintable(describe(result)));
        for (const char *text : {"usage: mh-explorer-cli", "--version", "compare", "correction"})
            QVERIFY2(result.out.contains(QLatin1String(text)), text);
    }
};

QTEST_GUILESS_MAIN(tst_ProgramInfo)
#include "tst_program_info.moc"
