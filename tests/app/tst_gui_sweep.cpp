// mh-explorer --sweep, as a script runs it offscreen: the sweep runs on the Trade-offs tab, its
// charts are exported and the window saved once it has finished, and the program exits 0; an
// invalid sweep exits non-zero with the reason, and a malformed axis is a usage error.
#include <QtTest>

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace {

struct Result {
    bool finished = false;
    int exitCode = -1;
    QString err;
};

const QString kGui = QStringLiteral(MHX_GUI_PATH);

Result runGui(const QStringList &arguments, const QString &cacheDir)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("MHX_CACHE_DIR"), cacheDir);
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(kGui, arguments);
    Result result;
    result.finished = process.waitForFinished(300'000);
    if (!result.finished) {
        process.kill();
        process.waitForFinished();
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

// The small sweep of the GUI suites: N/T = 100 on 20000 points, 300 samples per point, the
// page's three trials.
QStringList smallSweep(const QString &axis)
{
    return {QStringLiteral("--no-restore"), QStringLiteral("--n-data"), QStringLiteral("20000"),
            QStringLiteral("--temperature"), QStringLiteral("200"), QStringLiteral("--samples"), QStringLiteral("300"),
            QStringLiteral("--grid"), QStringLiteral("1000"), QStringLiteral("--sweep"), axis};
}

} // namespace

class tst_GuiSweep : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_cache.isValid()); }

    void sweepExportsAndQuits()
    {
        QTemporaryDir out;
        const QString shot = out.filePath(QStringLiteral("window.png"));
        const Result result = runGui(smallSweep(QStringLiteral("sigma=0.5:1.5:3"))
                                         << QStringLiteral("--export-plots") << out.path() << QStringLiteral("--screenshot")
                                         << shot << QStringLiteral("--quit-when-done"),
                                     m_cache.path());
        QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.err.contains(QStringLiteral("sweep of sigma finished: 3 points, 9 rows")), qPrintable(result.err));
        QFile png(shot);
        QVERIFY2(png.open(QIODevice::ReadOnly) && png.read(4) == QByteArray("\x89PNG"), qPrintable(shot));
        for (const char *stem : {"tradeoffs-sigma-mean-batch", "tradeoffs-sigma-correction-linf", "tradeoffs-sigma-data-per-ess"})
            for (const char *suffix : {".png", ".svg"}) {
                const QString path = QDir(out.path()).filePath(QString::fromLatin1(stem) + QString::fromLatin1(suffix));
                QVERIFY2(QFileInfo(path).size() > 0, qPrintable(path));
            }
    }

    void invalidSweepFailsWithTheReason()
    {
        const Result result = runGui(smallSweep(QStringLiteral("sigma=0.5:2.5:3")) << QStringLiteral("--quit-when-done"),
                                     m_cache.path());
        QVERIFY2(result.finished && result.exitCode == 1, qPrintable(result.err));
        QVERIFY2(result.err.contains(QStringLiteral("sweep failed")) && result.err.contains(QStringLiteral("1.8138")),
                 qPrintable(result.err));
    }

    // The compare box holds each method once: a list it cannot hold is refused by name, where
    // the sweep used to run the entries that fitted and leave one out of the scaling view.
    void aListTheFormCannotHoldIsRefused()
    {
        const Result result = runGui({QStringLiteral("--no-restore"), QStringLiteral("--dataset"),
                                      QStringLiteral("tall-logreg"), QStringLiteral("--methods"),
                                      QStringLiteral("smh,smh+taylor1,minibatch"), QStringLiteral("--sweep"),
                                      QStringLiteral("n-data=10000:20000:2"), QStringLiteral("--samples"),
                                      QStringLiteral("100"), QStringLiteral("--quit-when-done")},
                                     m_cache.path());
        QVERIFY2(result.finished && result.exitCode == 1, qPrintable(result.err));
        QVERIFY2(result.err.contains(QStringLiteral("sweep refused")) && result.err.contains(QStringLiteral("smh+taylor1"))
                     && result.err.contains(QStringLiteral("mh-explorer-cli sweep")),
                 qPrintable(result.err));
        QVERIFY2(!result.err.contains(QStringLiteral("sweep point")), qPrintable(result.err));
    }

    void malformedAxisIsAUsageError()
    {
        const Result result = runGui({QStringLiteral("--sweep"), QStringLiteral("sigma"), QStringLiteral("--quit-when-done")},
                                     m_cache.path());
        QVERIFY2(result.finished && result.exitCode == 2, qPrintable(result.err));
        QVERIFY2(result.err.contains(QStringLiteral("invalid --sweep")), qPrintable(result.err));
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(tst_GuiSweep)
#include "tst_gui_sweep.moc"
