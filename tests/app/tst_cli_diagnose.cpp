// `mh-explorer-cli diagnose` end to end: it reads our samples files and CmdStan's, prints the
// table and writes the JSON summary with the figures the core diagnostics give for the same
// draws, and names file, line and column for a bad file (exit 2, no JSON written).
#include <QtTest>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <fstream>
#include <random>
#include <string>

#include "core/diagnostics/posterior_summary.h"
#include "core/diagnostics/reference_agreement.h"
#include "core/io/number_format.h"
#include "tests/support/cli_process.h"

using namespace core;

namespace {

using testcli::Result;
using testcli::readJson;
using testcli::runCli;

// Draws of one chain: columns lp__, theta.1 (AR(1)), theta.2 (AR(1) with a chain-dependent
// spread, so R-hat is well above 1).
struct Chain {
    std::vector<double> lp, theta1, theta2;
};

Chain makeChain(int index, int draws)
{
    std::mt19937_64 engine(1000 + static_cast<std::uint64_t>(index));
    std::normal_distribution<double> normal;
    Chain chain;
    double a = 0.0, b = 0.0;
    for (int t = 0; t < draws; ++t) {
        a = 0.6 * a + normal(engine);
        b = 0.3 * b + normal(engine);
        chain.theta1.push_back(1.5 + a);
        chain.theta2.push_back(b * (1.0 + index));
        chain.lp.push_back(-0.5 * (a * a + b * b));
    }
    return chain;
}

void writeOurs(const QString &path, const Chain &chain)
{
    std::ofstream out(path.toStdString());
    out << "# dataset = gmm\n# seed = 1\nlp__,accept_stat__,batch_size__,full_scan_points__,full_data_fallback__,"
           "theta.1,theta.2\n";
    for (std::size_t t = 0; t < chain.lp.size(); ++t)
        out << formatRoundTrip(chain.lp[t]) << ",1,100,0,0," << formatRoundTrip(chain.theta1[t]) << ','
            << formatRoundTrip(chain.theta2[t]) << '\n';
}

// CmdStan's layout: configuration comments, the header, the adaptation block, the draws, the
// timing block.
void writeCmdStan(const QString &path, const Chain &chain)
{
    std::ofstream out(path.toStdString());
    out << "# stan_version_major = 2\n# method = sample (Default)\n"
           "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,theta.1,theta.2\n"
           "# Adaptation terminated\n# Step size = 0.9\n# Diagonal elements of inverse mass matrix:\n# 1, 1\n";
    for (std::size_t t = 0; t < chain.lp.size(); ++t)
        out << formatRoundTrip(chain.lp[t]) << ",0.9,0.9,2,3,0,1.5," << formatRoundTrip(chain.theta1[t]) << ','
            << formatRoundTrip(chain.theta2[t]) << '\n';
    out << "# \n#  Elapsed Time: 0.01 seconds (Warm-up)\n#                0.02 seconds (Sampling)\n";
}

// The table row of `name`: its numbers after the name.
QList<double> tableRow(const QString &table, const QString &name)
{
    for (const QString &line : table.split('\n')) {
        QStringList fields = line.split(' ', Qt::SkipEmptyParts);
        if (fields.isEmpty() || fields.takeFirst() != name)
            continue;
        QList<double> numbers;
        for (const QString &field : fields)
            numbers.append(field.toDouble());
        return numbers;
    }
    return {};
}

void compareWithCore(const Result &result, const QJsonObject &json, const std::vector<Chain> &chains)
{
    const QJsonObject parameters = json.value("parameters").toObject();
    QCOMPARE(parameters.keys().size(), 3); // lp__, theta.1, theta.2; no other sampler column
    QCOMPARE(json.value("chains").toInt(), static_cast<int>(chains.size()));
    for (const QString name : {"lp__", "theta.1", "theta.2"}) {
        ChainDraws draws;
        for (const Chain &chain : chains)
            draws.push_back(name == "lp__" ? chain.lp : name == "theta.1" ? chain.theta1 : chain.theta2);
        const ParameterSummary expected = summarizeParameter(draws);
        const QJsonObject got = parameters.value(name).toObject();
        const std::vector<std::pair<const char *, double>> figures = {
            {"mean", expected.mean}, {"sd", expected.sd},           {"mcse_mean", expected.mcseMean},
            {"q5", expected.q5},     {"q50", expected.q50},         {"q95", expected.q95},
            {"ess_bulk", expected.essBulk}, {"ess_tail", expected.essTail}, {"r_hat", expected.rhat}};
        for (const auto &[key, value] : figures) // round-trip numbers: the same computation, exactly
            QVERIFY2(got.value(key).toDouble() == value,
                     qPrintable(QString("%1 %2: %3 vs %4").arg(name, key).arg(got.value(key).toDouble()).arg(value)));
        // The table shows the same figures at print precision: mean, MCSE, sd, 5%, 50%, 95%, ESS, ESS, R-hat.
        const QList<double> row = tableRow(result.out, name);
        QCOMPARE(row.size(), 9);
        const double shown[] = {expected.mean, expected.mcseMean, expected.sd, expected.q5, expected.q50,
                                expected.q95, expected.essBulk, expected.essTail, expected.rhat};
        for (int k = 0; k < 9; ++k)
            QVERIFY2(std::abs(row[k] - shown[k]) <= 1e-3 * std::abs(shown[k]) + 0.51 * (k >= 6 && k < 8) + 1e-4,
                     qPrintable(QString("%1 column %2: %3 vs %4").arg(name).arg(k).arg(row[k]).arg(shown[k])));
    }
}

} // namespace

class tst_CliDiagnose : public QObject {
    Q_OBJECT

private slots:
    void summarisesOurFiles()
    {
        QTemporaryDir dir;
        std::vector<Chain> chains;
        QStringList arguments{"diagnose"};
        for (int c = 0; c < 3; ++c) {
            chains.push_back(makeChain(c, 501));
            const QString path = dir.path() + QString("/chain%1.csv").arg(c + 1);
            writeOurs(path, chains.back());
            arguments << path;
        }
        const QString json = dir.path() + "/summary.json";
        const Result result = runCli(arguments << "--summary" << json);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains("3 chains of 501 draws"), qPrintable(result.out));
        QVERIFY(!result.out.contains("accept_stat__"));
        compareWithCore(result, readJson(json), chains);
        // The spreads differ by chain: the folded R-hat must show it.
        QVERIFY(readJson(json)["parameters"].toObject()["theta.2"].toObject()["r_hat"].toDouble() > 1.1);
    }

    void summarisesCmdStanFiles()
    {
        QTemporaryDir dir;
        std::vector<Chain> chains{makeChain(5, 400), makeChain(6, 400)};
        const QString a = dir.path() + "/output_1.csv", b = dir.path() + "/output_2.csv";
        writeCmdStan(a, chains[0]);
        writeCmdStan(b, chains[1]);
        const QString json = dir.path() + "/s.json";
        const Result result = runCli({"diagnose", a, b, "--summary=" + json});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(!result.out.contains("stepsize__"));
        compareWithCore(result, readJson(json), chains);
        // One chain alone: split R-hat compares its halves.
        const Result one = runCli({"diagnose", a});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        QVERIFY(std::isfinite(tableRow(one.out, "theta.1").value(8, std::nan(""))));
    }

    // --reference: every parameter's mean shift and sd ratio against reference chains. The
    // run's θ₂ is twice as wide as the reference's (makeChain's spread grows with the index),
    // θ₁ has the same law; lp__ is left out.
    void comparesEveryParameterWithAReference()
    {
        QTemporaryDir dir;
        const QString run = dir.path() + "/run.csv", ref1 = dir.path() + "/ref1.csv", ref2 = dir.path() + "/ref2.csv";
        const QString json = dir.path() + "/s.json";
        writeOurs(run, makeChain(1, 4000));
        writeOurs(ref1, makeChain(0, 3000));
        writeOurs(ref2, makeChain(0, 3000)); // the same draws again: two files are read as two chains
        const Result result = runCli({"diagnose", run, "--reference", ref1, "--reference=" + ref2, "--summary", json});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains("Against the reference (2 chains of 3000 draws"), qPrintable(result.out));
        const QJsonObject root = readJson(json);
        const QJsonObject reference = root.value("reference").toObject();
        QCOMPARE(reference.value("parameters").toInt(), 2);
        QCOMPARE(reference.value("worst_sd_ratio_parameter").toString(), QString("theta.2"));
        const double ratio = root["parameters"].toObject()["theta.2"].toObject()["sd_ratio"].toDouble();
        QVERIFY2(std::abs(ratio - 2.0) < 0.15, qPrintable(QString::number(ratio)));
        QCOMPARE(reference.value("within_sd_ratio_tolerance").toInt(), 1);
        const QJsonObject theta1 = root["parameters"].toObject()["theta.1"].toObject();
        QVERIFY(std::abs(theta1["sd_ratio"].toDouble() - 1.0) < 0.1);
        QVERIFY(std::abs(theta1["mean_shift_sd"].toDouble()) < 0.1);
        QVERIFY(std::abs(theta1["mean_shift_mcse"].toDouble()) < 4.0);
        QVERIFY(!root["parameters"].toObject()["lp__"].toObject().contains("sd_ratio"));
        // The shift and the ratio as the core computes them from the same draws.
        const Chain r = makeChain(1, 4000), a = makeChain(0, 3000);
        const ParameterAgreement expected =
            compareWithReference(summarizeParameter({r.theta2}), summarizeParameter({a.theta2, a.theta2}));
        QCOMPARE(ratio, expected.sdRatio);

        // A reference without one of the run's parameters: named, exit 2, nothing written.
        const QString narrow = dir.path() + "/narrow.csv", json2 = dir.path() + "/s2.json";
        {
            std::ofstream out(narrow.toStdString());
            out << "lp__,theta.1\n";
            for (int t = 0; t < 10; ++t)
                out << "-1," << t << "\n";
        }
        const Result missing = runCli({"diagnose", run, "--reference", narrow, "--summary", json2});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("narrow.csv has no column 'theta.2'"), qPrintable(missing.err));
        QVERIFY(!QFile::exists(json2));
        QCOMPARE(runCli({"diagnose", run, "--reference"}).exitCode, 2);
    }

    void badFilesAreNamedWithLineAndColumn()
    {
        QTemporaryDir dir;
        const QString good = dir.path() + "/good.csv", bad = dir.path() + "/bad.csv", json = dir.path() + "/s.json";
        writeOurs(good, makeChain(0, 20));
        {
            std::ofstream out(bad.toStdString());
            out << "# seed = 2\nlp__,theta.1,theta.2\n";
            for (int t = 0; t < 9; ++t)
                out << "-1,0.5,0.25\n";
            out << "-1,0.5,abc\n"; // line 12
        }
        Result result = runCli({"diagnose", bad, "--summary", json});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("bad.csv:12: column 3 ('theta.2'): 'abc' is not a number"), qPrintable(result.err));
        QCOMPARE(result.err.trimmed().split('\n').size(), 1);
        QVERIFY(!QFile::exists(json));

        // Chains with different columns.
        const QString other = dir.path() + "/other.csv";
        writeCmdStan(other, makeChain(1, 20));
        result = runCli({"diagnose", good, other});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("other.csv: its columns differ from") && result.err.contains("same columns"),
                 qPrintable(result.err));

        // Ragged row, missing file, no file, unknown option, different lengths.
        {
            std::ofstream out(bad.toStdString());
            out << "a,b\n1,2\n3\n";
        }
        result = runCli({"diagnose", bad});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("bad.csv:3: 1 field, but the header (line 1) has 2 columns"), qPrintable(result.err));
        result = runCli({"diagnose", dir.path() + "/missing.csv"});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("missing.csv: cannot open"), qPrintable(result.err));
        QCOMPARE(runCli({"diagnose"}).exitCode, 2);
        QCOMPARE(runCli({"diagnose", good, "--frobnicate"}).exitCode, 2);
        const QString shorter = dir.path() + "/short.csv";
        writeOurs(shorter, makeChain(2, 19));
        result = runCli({"diagnose", good, shorter});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("equal lengths"), qPrintable(result.err));
    }
};

QTEST_GUILESS_MAIN(tst_CliDiagnose)
#include "tst_cli_diagnose.moc"
