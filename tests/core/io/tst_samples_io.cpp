// Samples CSV, summary JSON and atomic writes: parseable output, round-trip numbers, and no
// partial file on failure.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <fstream>
#include <sstream>

#include "core/io/atomic_file.h"
#include "core/io/json_writer.h"
#include "core/io/samples_csv.h"

using namespace core;

namespace {

ChainResult smallChain()
{
    ChainResult chain;
    chain.samples.resize(3, 2);
    chain.samples << 0.1, 1.0 / 3.0, -2.5e-17, 1e300, 4.0, -0.0;
    chain.batchSize = {100, 200, 1000000};
    chain.fullScanPoints = {0, 0, 0};
    chain.accepted = {1, 0, 1};
    chain.fullDataFallback = {0, 0, 1};
    chain.completed = 3;
    return chain;
}

QStringList fileNames(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden);
}

} // namespace

class tst_SamplesIo : public QObject {
    Q_OBJECT

private slots:
    void csvHasCommentsHeaderAndRoundTripValues()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/chain.csv").toStdString();
        const ChainResult chain = smallChain();
        writeSamplesCsv(path, {{"method", "minibatch"}, {"fpc", "1"}}, chain, {-1.5, -2.0, -3.25});
        std::ifstream in(path);
        std::string line;
        std::getline(in, line);
        QCOMPARE(QString::fromStdString(line), QString("# method = minibatch"));
        std::getline(in, line);
        std::getline(in, line);
        QCOMPARE(QString::fromStdString(line),
                 QString("lp__,accept_stat__,batch_size__,full_scan_points__,full_data_fallback__,theta.1,theta.2"));
        for (std::int64_t t = 0; t < 3; ++t) {
            std::getline(in, line);
            const QStringList fields = QString::fromStdString(line).split(',');
            QCOMPARE(fields.size(), 7);
            QCOMPARE(fields[2].toLongLong(), static_cast<long long>(chain.batchSize[t]));
            // Bit-exact round trip through text.
            QCOMPARE(std::stod(fields[5].toStdString()), chain.samples(t, 0));
            QCOMPARE(std::stod(fields[6].toStdString()), chain.samples(t, 1));
        }
        QVERIFY(!std::getline(in, line));
        QCOMPARE(fileNames(dir.path()), QStringList{"chain.csv"}); // no temporary left behind
    }

    void unwritablePathLeavesNothing()
    {
        QTemporaryDir dir;
        const std::string missing = (dir.path() + "/no/such/dir/chain.csv").toStdString();
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeSamplesCsv(missing, {}, smallChain()));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkWritable(missing));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkWritable(dir.path().toStdString())); // a directory
        try {
            checkWritable(missing);
        } catch (const std::runtime_error &error) {
            QVERIFY(QString(error.what()).contains("does not exist"));
        }
        QVERIFY(fileNames(dir.path()).isEmpty());
    }

    void failingWriterKeepsOldFile()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/summary.json").toStdString();
        writeFileAtomically(path, [](std::ostream &out) { out << "old"; });
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically(path, [](std::ostream &out) {
                                     out << "partial";
                                     throw std::runtime_error("simulated failure mid-write");
                                 }));
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("old"));
        QCOMPARE(fileNames(dir.path()), QStringList{"summary.json"});
    }

    void jsonEscapesAndNulls()
    {
        JsonObject json;
        json.add("name", "a \"quoted\"\nline").add("x", 0.1).add("n", std::int64_t{42}).add("bad", std::nan(""))
            .add("flag", true);
        const QString text = QString::fromStdString(json.toString());
        QVERIFY(text.contains("\"name\": \"a \\\"quoted\\\"\\nline\""));
        QVERIFY(text.contains("\"x\": 0.1"));
        QVERIFY(text.contains("\"bad\": null"));
        QVERIFY(text.contains("\"flag\": true"));
        QJsonParseError error;
        QJsonDocument::fromJson(text.toUtf8(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
    }

    // Objects nest at any depth, each level indented two more spaces.
    void jsonNestsAtAnyDepth()
    {
        JsonObject inner, middle, root;
        inner.add("r_hat", 1.5);
        middle.add("theta.1", inner).add("count", 2);
        root.add("parameters", middle).add("chains", 4);
        QCOMPARE(root.toString(), std::string("{\n"
                                              "  \"parameters\": {\n"
                                              "    \"theta.1\": {\n"
                                              "      \"r_hat\": 1.5\n"
                                              "    },\n"
                                              "    \"count\": 2\n"
                                              "  },\n"
                                              "  \"chains\": 4\n"
                                              "}"));
    }
};

QTEST_APPLESS_MAIN(tst_SamplesIo)
#include "tst_samples_io.moc"
