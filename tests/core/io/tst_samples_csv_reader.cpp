// The samples-CSV reader: our own files round-trip exactly, CmdStan's layout (comments before,
// inside and after the draws) reads, and every malformed file gives one message naming the
// file, the line and the column.
#include <QtTest>

#include <QTemporaryDir>

#include <cmath>
#include <string>

#include "core/io/samples_csv.h"
#include "core/io/samples_csv_reader.h"

using namespace core;

namespace {

// The shape of a CmdStan 2.3x output file, shortened.
const char *kCmdStan =
    "# stan_version_major = 2\n"
    "# model = bernoulli_model\n"
    "# method = sample (Default)\n"
    "#   sample\n"
    "#     num_samples = 3\n"
    "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,theta.1,theta.2\n"
    "# Adaptation terminated\n"
    "# Step size = 0.932037\n"
    "# Diagonal elements of inverse mass matrix:\n"
    "# 0.469452, 1.2\n"
    "-6.74827,0.986361,0.932037,1,3,0,6.8431,0.2369,1e-3\n"
    "-6.8,1,0.932037,2,3,0,7.0,-0.5,+4\r\n"
    "\n"
    "-7.1, 0.9 ,0.932037,1,1,0,7.2,0.25,nan\n"
    "# \n"
    "#  Elapsed Time: 0.005 seconds (Warm-up)\n"
    "#                0.014 seconds (Sampling)\n";

QString messageOf(const std::string &text)
{
    try {
        parseSamplesCsv(text, "samples.csv");
    } catch (const SamplesCsvError &error) {
        return QString::fromStdString(error.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class tst_SamplesCsvReader : public QObject {
    Q_OBJECT

private slots:
    void readsCmdStanOutput()
    {
        const SamplesTable table = parseSamplesCsv(kCmdStan, "output.csv");
        QCOMPARE(table.columns.size(), std::size_t(9));
        QCOMPARE(table.columns.front(), std::string("lp__"));
        QCOMPARE(table.columns.back(), std::string("theta.2"));
        QCOMPARE(table.draws(), std::size_t(3));
        QCOMPARE(table.values[0][1], -6.8);
        QCOMPARE(table.values[1][2], 0.9);
        QCOMPARE(table.values[8][0], 1e-3);
        QCOMPARE(table.values[8][1], 4.0);
        QVERIFY(std::isnan(table.values[8][2]));
        // Only `key = value` comments before the header are metadata; the adaptation block's
        // "Step size = …" belongs to the draws' commentary, not to the run's settings.
        QCOMPARE(table.metadata.size(), std::size_t(4));
        QCOMPARE(table.metadata[1].first, std::string("model"));
        QCOMPARE(table.metadata[1].second, std::string("bernoulli_model"));
        QVERIFY(SamplesTable::isSamplerColumn("lp__"));
        QVERIFY(!SamplesTable::isSamplerColumn("theta.1"));
        QVERIFY(!SamplesTable::isSamplerColumn("__"));
    }

    void readsOurOwnFilesExactly()
    {
        ChainResult chain;
        chain.samples.resize(3, 2);
        chain.samples << 0.1, 1.0 / 3.0, -2.5e-17, 1e300, 4.0, -0.0;
        chain.batchSize = {100, 200, 1000000};
        chain.fullScanPoints = {0, 0, 7};
        chain.accepted = {1, 0, 1};
        chain.fullDataFallback = {0, 0, 1};
        chain.completed = 3;
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/chain.csv").toStdString();
        writeSamplesCsv(path, {{"dataset", "gmm"}, {"seed", "3"}}, chain, {-1.5, -2.25, 1.0 / 7.0});
        const SamplesTable table = readSamplesCsv(path);
        QCOMPARE(table.fileName, path);
        const std::vector<std::string> columns{"lp__", "accept_stat__", "batch_size__", "full_scan_points__",
                                               "full_data_fallback__", "theta.1", "theta.2"};
        QCOMPARE(table.columns, columns);
        QCOMPARE(table.metadata.size(), std::size_t(2));
        QCOMPARE(table.metadata[1].second, std::string("3"));
        QCOMPARE(table.values[0][2], 1.0 / 7.0); // round-trip precision
        QCOMPARE(table.values[2][2], 1000000.0);
        for (Eigen::Index t = 0; t < 3; ++t)
            for (Eigen::Index k = 0; k < 2; ++k)
                QCOMPARE(table.values[static_cast<std::size_t>(5 + k)][static_cast<std::size_t>(t)], chain.samples(t, k));
        QVERIFY(std::signbit(table.values[6][2])); // -0.0 keeps its sign
    }

    void rejectsBadFiles_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a number") << "# a = 1\nlp__,theta.1,theta.2\n1,2,3\n4,5,6\n7,8,9\n8,9,10\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,abc\n"
                                      << "samples.csv:12: column 3 ('theta.2'): 'abc' is not a number";
        QTest::newRow("ragged short") << "a,b,c\n1,2,3\n1,2\n" << "samples.csv:3: 2 fields, but the header (line 1) has 3 columns";
        QTest::newRow("ragged long") << "a,b\n1,2,3\n" << "samples.csv:2: 3 fields, but the header (line 1) has 2 columns";
        QTest::newRow("empty") << "" << "samples.csv: no header row";
        QTest::newRow("only comments") << "# x = 1\n#\n\n" << "samples.csv: no header row";
        QTest::newRow("no draws") << "# x\nlp__,theta.1\n# Elapsed\n" << "samples.csv:2: the header is not followed by any draws";
        QTest::newRow("no header") << "1,2\n3,4\n" << "samples.csv:1: column 1: the header must name the columns";
        QTest::newRow("empty name") << "a,,c\n1,2,3\n" << "samples.csv:1: column 2 of the header has no name";
        QTest::newRow("duplicate name") << "a,b,a\n1,2,3\n" << "samples.csv:1: column 3: the name 'a' appears twice";
        QTest::newRow("empty field") << "a,b\n1,\n" << "samples.csv:2: column 2 ('b'): '' is not a number";
        QTest::newRow("trailing junk") << "a,b\n1,2x\n" << "samples.csv:2: column 2 ('b'): '2x' is not a number";
        QTest::newRow("double sign") << "a,b\n1,+-2\n" << "samples.csv:2: column 2 ('b'): '+-2' is not a number";
        QTest::newRow("binary") << QString::fromUtf8("a,b\n1,2\0\n", 9) << "samples.csv:2: contains a NUL byte";
    }

    void rejectsBadFiles()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QByteArray bytes = text.toUtf8();
        const QString got = messageOf(std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        QVERIFY2(got.startsWith(message), qPrintable(got));
    }

    void hugeAndTinyNumbersParse()
    {
        const SamplesTable table = parseSamplesCsv("a,b,c,d\n1e-320,-1e400,inf,-Infinity\n", "x.csv");
        QVERIFY(table.values[0][0] > 0.0 && table.values[0][0] < 1e-300);
        QVERIFY(std::isinf(table.values[1][0]) && table.values[1][0] < 0.0);
        QVERIFY(std::isinf(table.values[2][0]));
        QVERIFY(std::isinf(table.values[3][0]) && table.values[3][0] < 0.0);
    }

    void missingFilesAreNamed()
    {
        QTemporaryDir dir;
        const std::string missing = (dir.path() + "/nope.csv").toStdString();
        QVERIFY_THROWS_EXCEPTION(SamplesCsvError, readSamplesCsv(missing));
        try {
            readSamplesCsv(missing);
        } catch (const SamplesCsvError &error) {
            QVERIFY2(QString(error.what()).contains("nope.csv: cannot open"), error.what());
        }
        try {
            readSamplesCsv(dir.path().toStdString());
        } catch (const SamplesCsvError &error) {
            QVERIFY2(QString(error.what()).contains("is a directory"), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(tst_SamplesCsvReader)
#include "tst_samples_csv_reader.moc"
