// `mh-explorer-cli run` on a user's own table, as such tables come: a header, the label in the
// last column, features on different scales, a missing value. The label column is chosen by
// name, the features are standardised by default (recorded in the header and the summary, and
// replayed by --from), and every refusal names the option that fixes it.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextStream>

#include <cmath>
#include <random>

#include "tests/support/cli_process.h"
#include "tests/support/npy_file.h"

namespace {

using testcli::Result;
using testcli::readJson;
using testcli::runCli;

// 300 rows shaped as the Pima diabetes table: Pregnancies (0-17), Glucose (near 120), BMI, the
// pedigree score (near 0.5) and the Outcome, last; the outcome follows glucose and BMI.
void writeDiabetesShapedTable(const QString &path, bool withMissingValue)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
    QTextStream out(&file);
    std::mt19937_64 engine(7);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<int> pregnancies(0, 17);
    std::uniform_real_distribution<double> uniform;
    out << "Pregnancies,Glucose,BMI,DiabetesPedigreeFunction,Outcome\n";
    for (int i = 0; i < 300; ++i) {
        const double glucose = 120.0 + 30.0 * normal(engine), bmi = 32.0 + 7.0 * normal(engine);
        const double logit = 0.04 * (glucose - 120.0) + 0.08 * (bmi - 32.0) - 0.6;
        const int outcome = uniform(engine) < 1.0 / (1.0 + std::exp(-logit)) ? 1 : 0;
        out << pregnancies(engine) << ',' << qRound(glucose) << ',' << QString::number(bmi, 'f', 1) << ','
            << QString::number(0.08 + 2.3 * uniform(engine), 'f', 3) << ',' << outcome << '\n';
    }
    if (withMissingValue)
        out << "2,NA,30.1,0.5,0\n";
}

// The header lines of a samples file, as key → value.
QMap<QString, QString> headerOf(const QString &path)
{
    QMap<QString, QString> header;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return header;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (!line.startsWith(QLatin1String("# ")))
            break;
        const qsizetype equals = line.indexOf(QLatin1String(" = "));
        if (equals > 0)
            header[line.mid(2, equals - 2)] = line.mid(equals + 3);
    }
    return header;
}

// The rows of a CSV written by writeDiabetesShapedTable(), as numbers.
QList<QList<double>> tableRows(const QString &path)
{
    QList<QList<double>> rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return rows;
    file.readLine(); // the header
    while (!file.atEnd()) {
        QList<double> row;
        for (const QByteArray &field : file.readLine().trimmed().split(','))
            row << field.toDouble();
        rows << row;
    }
    return rows;
}

void writeBytes(const QString &path, const std::string &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes.data(), static_cast<qint64>(bytes.size()));
}

// The samples of a run, without the header (which names the file and its format).
QStringList drawsOf(const QString &path)
{
    QStringList lines;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        for (const QByteArray &line : file.readAll().split('\n'))
            if (!line.startsWith('#'))
                lines << QString::fromUtf8(line);
    return lines;
}

} // namespace

class TestCliUserTables : public QObject {
    Q_OBJECT
private slots:
    void theFirstColumnIsRefusedWithTheBinaryOnesNamed()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("diabetes.csv")), out = dir.filePath(QStringLiteral("s.csv"));
        writeDiabetesShapedTable(table, false);
        const Result result = runCli({"run", "--dataset", "logreg", "--csv", table, "--samples", "100", "--out", out});
        QCOMPARE(result.exitCode, 1); // the file's content, not the command line, is at fault
        QVERIFY2(result.err.contains(QLatin1String("in the label column 1 ('Pregnancies')")), qPrintable(result.err));
        QVERIFY2(result.err.contains(QLatin1String("Columns with two values: 5 ('Outcome')")), qPrintable(result.err));
        QVERIFY2(result.err.contains(QLatin1String("--label-column")), qPrintable(result.err));
        QVERIFY(!QFile::exists(out));
    }

    void theLabelColumnByNameStandardisedAndReplayed()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("diabetes.csv"));
        const QString out = dir.filePath(QStringLiteral("s.csv")), json = dir.filePath(QStringLiteral("s.json"));
        writeDiabetesShapedTable(table, true);
        const Result result = runCli({"run", "--dataset", "logreg", "--csv", table, "--label-column", "Outcome",
                                      "--drop-missing", "--out", out, "--summary", json});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        // The data's description is progress, on standard error.
        QVERIFY2(result.err.contains(QLatin1String("1 rows with a missing value dropped")), qPrintable(result.err));
        QVERIFY2(result.err.contains(QLatin1String("standardized")), qPrintable(result.err));
        // Weights are named by the header, and the chain has mixed.
        QVERIFY2(result.out.contains(QLatin1String("weight of Glucose")), qPrintable(result.out));
        const QJsonObject summary = readJson(json);
        QCOMPARE(summary[QStringLiteral("standardize")].toBool(), true);
        QCOMPARE(summary[QStringLiteral("label_column")].toString(), QStringLiteral("Outcome"));
        QCOMPARE(summary[QStringLiteral("temperature")].toDouble(), 1.0);
        const QJsonArray means = summary[QStringLiteral("feature_scaling")].toObject()[QStringLiteral("means")].toArray();
        QCOMPARE(means.size(), 4);
        QVERIFY2(means[1].toDouble() > 100.0 && means[1].toDouble() < 140.0, "the glucose mean of the training rows");
        const QJsonObject chain = summary[QStringLiteral("chains")].toArray()[0].toObject();
        QVERIFY2(chain[QStringLiteral("r_hat")].toDouble() < 1.05,
                 qPrintable(QString::number(chain[QStringLiteral("r_hat")].toDouble())));
        QVERIFY2(chain[QStringLiteral("test_accuracy_posterior_mean")].toDouble() > 0.6,
                 qPrintable(QString::number(chain[QStringLiteral("test_accuracy_posterior_mean")].toDouble())));

        const QMap<QString, QString> header = headerOf(out);
        QCOMPARE(header.value(QStringLiteral("standardize")), QStringLiteral("1"));
        QCOMPARE(header.value(QStringLiteral("feature_sds")).split(QLatin1Char(' ')).size(), 4);

        // --from replays the file's settings: the same chain, draw for draw.
        const QString again = dir.filePath(QStringLiteral("again.csv"));
        const Result replay = runCli({"run", "--from", out, "--out", again});
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
        QFile first(out), second(again);
        QVERIFY(first.open(QIODevice::ReadOnly) && second.open(QIODevice::ReadOnly));
        const auto draws = [](QFile &file) {
            QStringList lines;
            for (const QByteArray &line : file.readAll().split('\n'))
                if (!line.startsWith('#'))
                    lines << QString::fromUtf8(line);
            return lines;
        };
        QCOMPARE(draws(second), draws(first));
    }

    // The same table as CSV, LIBSVM (labels -1/+1, zeros left out), a .npy features array with a
    // label array, and one .npy array with its label column: the same data, so the same chain.
    void everyFormatOfTheSameTableGivesTheSameChain()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("diabetes.csv"));
        writeDiabetesShapedTable(csv, false);
        const QList<QList<double>> rows = tableRows(csv);
        QCOMPARE(rows.size(), 300);
        QString libsvm;
        std::vector<float> features;
        std::vector<double> joined;
        std::vector<std::int64_t> labels;
        for (const QList<double> &row : rows) {
            libsvm += row.last() > 0.5 ? QStringLiteral("+1") : QStringLiteral("-1");
            for (qsizetype j = 0; j + 1 < row.size(); ++j) {
                if (row[j] != 0.0)
                    libsvm += QStringLiteral(" %1:%2").arg(j + 1).arg(row[j], 0, 'g', 17);
                features.push_back(static_cast<float>(row[j]));
            }
            libsvm += QLatin1Char('\n');
            labels.push_back(static_cast<std::int64_t>(row.last()));
            joined.insert(joined.end(), row.begin(), row.end());
        }
        const QString svm = dir.filePath(QStringLiteral("diabetes.svm")), x = dir.filePath(QStringLiteral("x.npy")),
                      y = dir.filePath(QStringLiteral("y.npy")), xy = dir.filePath(QStringLiteral("xy.npy"));
        writeBytes(svm, libsvm.toStdString());
        writeBytes(x, testfiles::npyBytes("<f4", {300, 4}, testfiles::rawBytes<float>(features)));
        writeBytes(y, testfiles::npyBytes("<i8", {300}, testfiles::rawBytes<std::int64_t>(labels)));
        writeBytes(xy, testfiles::npyBytes("<f8", {300, 5}, testfiles::rawBytes<double>(joined)));

        const QList<QStringList> inputs = {{"--data", csv, "--label-column", "Outcome"},
                                           {"--data", svm},
                                           {"--data", x, "--labels", y},
                                           {"--data", xy, "--label-column", "-1"},
                                           {"--csv", csv, "--label-column", "-1"}};
        QStringList first;
        for (const QStringList &input : inputs) {
            const QString out = dir.filePath(QStringLiteral("s.csv"));
            const Result result = runCli(QStringList{"run", "--dataset", "logreg", "--samples", "1000", "--out", out} + input);
            QVERIFY2(result.exitCode == 0, qPrintable(input.join(' ') + ": " + result.err));
            const QStringList draws = drawsOf(out);
            QVERIFY(draws.size() > 500); // the burn-in is not written
            if (first.isEmpty())
                first = draws;
            else
                QVERIFY2(draws == first, qPrintable(input.join(' ')));
        }
    }

    // --memory-map on reads the array in place: the chain is the one read into memory gives
    // (a random walk: the Laplace fit, which accumulates in double from a mapped file, is left
    // out), and every pass over the file is announced on stderr.
    void aMemoryMappedArrayGivesTheChainOfTheArrayInMemory()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("diabetes.csv"));
        writeDiabetesShapedTable(csv, false);
        std::vector<float> joined;
        for (const QList<double> &row : tableRows(csv))
            for (double value : row)
                joined.push_back(static_cast<float>(value));
        const QString xy = dir.filePath(QStringLiteral("xy.npy"));
        writeBytes(xy, testfiles::npyBytes("<f4", {300, 5}, testfiles::rawBytes<float>(joined)));
        QStringList draws[2];
        for (int mapped = 0; mapped < 2; ++mapped) {
            const QString out = dir.filePath(QStringLiteral("m%1.csv").arg(mapped));
            const Result result = runCli({"run", "--dataset", "logreg", "--data", xy, "--label-column", "-1", "--memory-map",
                                          mapped ? "on" : "off", "--proposal", "rw", "--step", "0.1",
                                          "--control-variates", "taylor2", "--samples", "2000", "--out", out});
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
            QCOMPARE(result.err.contains(QStringLiteral("reading all 300 rows of xy.npy")), mapped == 1);
            if (mapped)
                QVERIFY2(result.err.contains(QStringLiteral("for the posterior mode")), qPrintable(result.err));
            // The mapped file has no lp__ column (a pass per draw): compare the draws after it.
            for (QString line : drawsOf(out)) {
                if (!mapped && !line.isEmpty())
                    line = line.section(QLatin1Char(','), 1);
                draws[mapped] << line;
            }
        }
        QVERIFY(draws[0].size() > 1000);
        // Equal to rounding: the control variates' mode is found from Hessian sums that rows
        // read in place may accumulate in another order (tst_mapped_rows), 1e-14 relative on an
        // AMD EPYC build with -march=native, which moves every draw by as little. A different
        // chain (another accept or reject) would differ by a whole step.
        QCOMPARE(draws[1].size(), draws[0].size());
        for (qsizetype k = 0; k < draws[0].size(); ++k) {
            const QStringList a = draws[0][k].split(QLatin1Char(',')), b = draws[1][k].split(QLatin1Char(','));
            QCOMPARE(b.size(), a.size());
            for (qsizetype j = 0; j < a.size(); ++j) {
                bool okA = false, okB = false;
                const double x = a[j].toDouble(&okA), y = b[j].toDouble(&okB);
                if (okA && okB)
                    QVERIFY2(std::abs(x - y) <= 1e-10 * std::max(1.0, std::abs(x)),
                             qPrintable(QStringLiteral("draw %1: %2 against %3").arg(k).arg(draws[1][k], draws[0][k])));
                else
                    QCOMPARE(b[j], a[j]);
            }
        }
    }

    void featuresAsReadWhenAskedAndContradictionsRefused()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("diabetes.csv")), json = dir.filePath(QStringLiteral("s.json"));
        writeDiabetesShapedTable(table, false);
        const Result raw = runCli({"run", "--dataset", "logreg", "--csv", table, "--label-column", "-1",
                                   "--no-standardize", "--samples", "200", "--summary", json});
        QVERIFY2(raw.exitCode == 0, qPrintable(raw.err));
        const QJsonObject summary = readJson(json);
        QCOMPARE(summary[QStringLiteral("standardize")].toBool(), false);
        QVERIFY(!summary.contains(QStringLiteral("feature_scaling")));

        const Result both = runCli({"run", "--dataset", "logreg", "--csv", table, "--label-column", "-1",
                                    "--standardize", "--no-standardize", "--samples", "10"});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(QLatin1String("--standardize and --no-standardize contradict")), qPrintable(both.err));
        const Result noFile = runCli({"run", "--dataset", "logreg", "--label-column", "Outcome", "--samples", "10"});
        QCOMPARE(noFile.exitCode, 2);
        QVERIFY2(noFile.err.contains(QLatin1String("--label-column reads a table")), qPrintable(noFile.err));
        const Result missing = runCli({"run", "--dataset", "logreg", "--csv", table, "--label-column", "Diabetes",
                                       "--samples", "10"});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QLatin1String("no column is named 'Diabetes'")), qPrintable(missing.err));
        const Result delimiter = runCli({"run", "--dataset", "logreg", "--csv", table, "--delimiter", "ab",
                                         "--samples", "10"});
        QCOMPARE(delimiter.exitCode, 2);
        QVERIFY2(delimiter.err.contains(QLatin1String("delimiter must be")), qPrintable(delimiter.err));
    }

    // A regression on a file (--dataset glm): tall-glm's rows written by `dataset --out` and read
    // back with --response-column give tall-glm's chain draw for draw, so the file path samples
    // what the tall-glm chain tests check; the model's options belong to it, and a count the
    // model cannot take stops the run with its line and writes nothing.
    void aRegressionOnTheExportedTallRowsIsTheTallGlmChain()
    {
        QTemporaryDir dir;
        const QString rows = dir.filePath(QStringLiteral("poisson.npy"));
        const Result exported = runCli({"dataset", "--dataset", "tall-glm", "--model", "poisson", "--n-data", "3000",
                                        "--dimension", "4", "--data-seed", "9", "--out", rows});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QVERIFY2(exported.out.contains(QLatin1String("--response-column -1 --no-standardize")), qPrintable(exported.out));
        const QStringList common = {"--model", "poisson", "--seed", "4", "--samples", "1500", "--step", "0.05"};
        const QString tall = dir.filePath(QStringLiteral("tall.csv")), file = dir.filePath(QStringLiteral("file.csv"));
        const Result a = runCli(QStringList{"run", "--dataset", "tall-glm", "--n-data", "3000", "--dimension", "4",
                                            "--data-seed", "9", "--out", tall}
                                + common);
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        const Result b = runCli(QStringList{"run", "--dataset", "glm", "--data", rows, "--response-column", "-1",
                                            "--no-standardize", "--out", file}
                                + common);
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        const QStringList draws = drawsOf(tall);
        QVERIFY(draws.size() > 1000); // the draws after the burn-in
        QCOMPARE(drawsOf(file), draws);
        QCOMPARE(headerOf(file).value(QStringLiteral("response_column")), QStringLiteral("-1"));
        QCOMPARE(headerOf(file).value(QStringLiteral("model")), QStringLiteral("poisson"));

        const QString counts = dir.filePath(QStringLiteral("counts.csv")), out = dir.filePath(QStringLiteral("s.csv"));
        QFile csv(counts);
        QVERIFY(csv.open(QIODevice::WriteOnly | QIODevice::Text));
        csv.write("age,visits\n31,2\n\n47,-1\n52,0\n");
        csv.close();
        const Result negative = runCli({"run", "--dataset", "glm", "--data", counts, "--model", "poisson",
                                        "--response-column", "visits", "--samples", "50", "--out", out});
        QCOMPARE(negative.exitCode, 1);
        QVERIFY2(negative.err.contains(QLatin1String("counts.csv: line 4, column 2 ('visits'): the response -1 cannot "
                                                     "be modelled by poisson: a count must be a non-negative integer")),
                 qPrintable(negative.err));
        QVERIFY(!QFile::exists(out));
        const Result classes = runCli({"run", "--dataset", "glm", "--data", counts, "--classes", "1,7"});
        QCOMPARE(classes.exitCode, 2);
        QVERIFY2(classes.err.contains(QLatin1String("--classes is for --dataset logreg")), qPrintable(classes.err));
        const Result noFile = runCli({"run", "--dataset", "glm", "--model", "linear", "--samples", "10"});
        QCOMPARE(noFile.exitCode, 2);
        QVERIFY2(noFile.err.contains(QLatin1String("give it with --data FILE")), qPrintable(noFile.err));
    }
};

QTEST_GUILESS_MAIN(TestCliUserTables)
#include "tst_cli_user_tables.moc"
