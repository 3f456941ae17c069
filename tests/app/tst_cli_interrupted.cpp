// A run cut short keeps its draws: `run --out` streams them to the file as they are made, so
// that Ctrl-C (SIGINT), a cluster's SIGTERM at a job's time limit and even `kill -9` leave every
// draw made (the last two seconds' at most lost to a kill), readable by `diagnose`, and equal to
// the first draws of the same chain run to its end.
#include <QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <sys/types.h>

#include "tests/support/cli_process.h"

namespace {

using testcli::readJson;
using testcli::runCli;

// The draw rows of a samples file (header and comments aside), without the lp__ column when
// `dropFirstColumn`.
QStringList drawRows(const QString &path, bool dropFirstColumn = false)
{
    QStringList rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return rows;
    QList<QByteArray> lines = file.readAll().split('\n');
    // What follows the last newline is empty, or a row that a killed writer left half written
    // (its buffer reached the disk mid-row): only complete rows are draws.
    lines.removeLast();
    for (const QByteArray &line : lines) {
        if (line.isEmpty() || line.startsWith('#') || line.startsWith("lp__") || line.startsWith("accept_stat__"))
            continue;
        QString row = QString::fromUtf8(line);
        if (dropFirstColumn)
            row = row.section(QLatin1Char(','), 1);
        rows << row;
    }
    return rows;
}

// The slow run to cut: full-data MH on the million-point mixture, about a hundred draws a second.
const QStringList kLongRun = {"run", "--dataset", "gmm", "--method", "mh", "--samples", "200000", "--burn-in", "50",
                              "--seed", "3"};

// Starts the CLI with `arguments`, waits until `path` holds `rows` draws, sends `signal` and
// waits for the end. Records a failure (QTest::currentTestFailed) when any step does not happen.
void cutShort(QProcess &process, const QStringList &arguments, const QString &path, qsizetype rows, int signal)
{
    process.start(QStringLiteral(MHX_CLI_PATH), arguments);
    QVERIFY(process.waitForStarted());
    // Wait for draws on disk: the data take a second or two, then a flush every second. Under
    // AddressSanitizer, beside the CLI suite on two cores, the draws took 71 to 81 s.
    QTRY_VERIFY_WITH_TIMEOUT(drawRows(path).size() >= rows, 180'000);
    QVERIFY(::kill(static_cast<pid_t>(process.processId()), signal) == 0);
    QVERIFY(process.waitForFinished(30'000));
}

} // namespace

class TestCliInterrupted : public QObject {
    Q_OBJECT
private slots:
    void aSignalledRunKeepsItsDraws_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT (Ctrl-C)") << int(SIGINT);
        QTest::newRow("SIGTERM (a job's time limit)") << int(SIGTERM);
        QTest::newRow("SIGKILL (kill -9)") << int(SIGKILL);
    }

    void aSignalledRunKeepsItsDraws()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("s.csv")), json = dir.filePath(QStringLiteral("s.json"));
        QProcess process;
        cutShort(process, kLongRun + QStringList{"--out", out, "--summary", json}, out, 20, signal);
        if (QTest::currentTestFailed())
            return;
        const QString err = QString::fromUtf8(process.readAllStandardError());
        const QStringList kept = drawRows(out);
        QVERIFY(kept.size() >= 20);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        if (signal == SIGKILL) {
            QCOMPARE(process.exitStatus(), QProcess::CrashExit);
            QVERIFY(text.contains("# status = running"));
        } else {
            QCOMPARE(process.exitCode(), 130);
            QVERIFY2(err.contains(QStringLiteral("kept %1 draws in").arg(kept.size())), qPrintable(err));
            QVERIFY2(text.contains("# status = interrupted after"), text.right(300).constData());
            const QJsonObject summary = readJson(json);
            QCOMPARE(summary[QStringLiteral("stopped")].toBool(), true);
        }
        // diagnose reads what is left and says how the file ended.
        const testcli::Result diagnose = runCli({"diagnose", out});
        QVERIFY2(diagnose.exitCode == 0, qPrintable(diagnose.err));
        QVERIFY2(diagnose.out.contains(signal == SIGKILL ? QStringLiteral("its run ended while the file was written")
                                                         : QStringLiteral("interrupted after")),
                 qPrintable(diagnose.out));
        // The kept draws are the chain's own: the first draws of the same chain run to its end.
        const QString whole = dir.filePath(QStringLiteral("whole.csv"));
        QStringList shortRun = kLongRun;
        shortRun[shortRun.indexOf(QStringLiteral("200000"))] = QString::number(kept.size() + 60);
        const testcli::Result complete = runCli(shortRun + QStringList{"--out", whole});
        QVERIFY2(complete.exitCode == 0, qPrintable(complete.err));
        QCOMPARE(drawRows(whole, true).mid(0, kept.size()), kept);
    }

    // With --checkpoint-every the chain restarts its random stream (and its minibatch sampler)
    // at every checkpoint, so `run --resume` continues a cut file as the chain would have gone
    // on: the resumed file holds the very draws of the same run left alone. The recommended
    // preset's adaptive proposal learns during the burn-in, which the resumed run makes again.
    void aResumedChainIsTheUninterruptedOne_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM (a job's time limit)") << int(SIGTERM);
        QTest::newRow("SIGKILL (kill -9)") << int(SIGKILL);
    }

    void aResumedChainIsTheUninterruptedOne()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QStringList run = {"run", "--dataset", "gmm", "--method", "minibatch", "--samples", "60000", "--seed", "5",
                                 "--checkpoint-every", "700"};
        const QString whole = dir.filePath(QStringLiteral("whole.csv")), cut = dir.filePath(QStringLiteral("cut.csv"));
        const testcli::Result reference = runCli(run + QStringList{"--out", whole});
        QVERIFY2(reference.exitCode == 0, qPrintable(reference.err));

        QProcess process;
        cutShort(process, run + QStringList{"--out", cut}, cut, 2000, signal);
        if (QTest::currentTestFailed())
            return;
        const qsizetype kept = drawRows(cut).size();
        QVERIFY2(kept >= 2000 && kept < drawRows(whole).size(), qPrintable(QString::number(kept)));

        const testcli::Result resumed = runCli({"run", "--resume", cut});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains(QStringLiteral("the chain goes on from its checkpoint at draw %1").arg(kept - kept % 700)),
                 qPrintable(resumed.err));
        QFile file(cut);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("# status = complete: resumed at draw"));
        // The resumed file gets lp__ as the finished one has it: the same lines, column for column.
        QCOMPARE(drawRows(cut), drawRows(whole));
        QVERIFY(drawRows(cut).size() > 0);

        const testcli::Result again = runCli({"run", "--resume", cut});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains(QStringLiteral("finished")), qPrintable(again.err));
        const testcli::Result diagnose = runCli({"diagnose", cut});
        QVERIFY2(diagnose.exitCode == 0, qPrintable(diagnose.err));
    }

    void whatCannotBeResumedSaysWhy()
    {
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain.csv"));
        QProcess process;
        cutShort(process, kLongRun + QStringList{"--out", plain}, plain, 20, SIGTERM);
        if (QTest::currentTestFailed())
            return;
        const testcli::Result unchecked = runCli({"run", "--resume", plain});
        QCOMPARE(unchecked.exitCode, 2);
        QVERIFY2(unchecked.err.contains(QStringLiteral("without --checkpoint-every")), qPrintable(unchecked.err));
        QVERIFY2(unchecked.err.contains(QStringLiteral("--from")), qPrintable(unchecked.err));
        const testcli::Result mixed = runCli({"run", "--resume", plain, "--samples", "10"});
        QCOMPARE(mixed.exitCode, 2);
        const testcli::Result firefly = runCli({"run", "--dataset", "tall-logreg", "--n-data", "2000", "--method", "flymc",
                                                "--checkpoint-every", "100", "--samples", "300"});
        QCOMPARE(firefly.exitCode, 2);
        QVERIFY2(firefly.err.contains(QStringLiteral("bright points")), qPrintable(firefly.err));
    }
};

QTEST_GUILESS_MAIN(TestCliInterrupted)
#include "tst_cli_interrupted.moc"
