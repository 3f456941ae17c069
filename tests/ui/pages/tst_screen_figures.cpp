// What the window shows after a compare run, read off the screen as a user reads it and held
// against the files the same run exports: every figure of the Diagnostics table, found by its
// column's header and matched by method and chain to the summary JSON the window writes (to the
// last digit the cell shows); the status strip's per-method acceptance, mean batch and data read;
// the minibatch histogram's mean labels; and each method's posterior cloud against its chains'
// samples files, point for point. A swapped column, another chain's figure, a figure of another
// scope (with the burn-in, one chain) or burn-in draws in the cloud fail here. Also the Zig-Zag
// path drawn between its draws, and the step box showing the step SGLD's chains ran.
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/experiment/reports/run_report.h"
#include "core/experiment/settings/presets.h"
#include "core/io/samples_csv_reader.h"
#include "tests/support/gui_test_main.h"
#include "tests/support/small_runs.h"
#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/posterior_chart.h"
#include "ui/files/file_actions.h"
#include "ui/main_window.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/diagnostics_table.h"
#include "ui/pages/results_view.h"
#include "ui/panel/control_panel.h"
#include "ui/run/run_status_strip.h"

namespace {

using Json = nlohmann::json;

// The number a cell shows, in the window's locale ("1,234.5", "—" for none: NaN).
double shownNumber(const QString &text)
{
    if (text == QStringLiteral("—"))
        return std::nan("");
    bool ok = false;
    const double value = QLocale().toDouble(text.trimmed(), &ok);
    return ok ? value : std::nan("");
}

// A JSON figure (null: none).
double figure(const Json &value)
{
    return value.is_null() ? std::nan("") : value.get<double>();
}

// The cell shows `expected` rounded to `decimals`: within half its last digit (and a relative
// hair for figures past double's exact decimals).
bool showsRounded(const QString &text, double expected, int decimals)
{
    const double shown = shownNumber(text);
    if (std::isnan(expected))
        return std::isnan(shown);
    return std::abs(shown - expected) <= 0.5 * std::pow(10.0, -decimals) * (1.0 + 1e-9) + 1e-12 * std::abs(expected);
}

} // namespace

class tst_ScreenFigures : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everyFigureOnScreenIsTheExportedRuns();
    void theZigZagPathIsDrawnBetweenItsDraws();
    void theStepBoxShowsTheStepTheChainsRun();

private:
    QTemporaryDir m_dir;
};

void tst_ScreenFigures::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_ScreenFigures::everyFigureOnScreenIsTheExportedRuns()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    core::RunConfig config = testruns::smallConfig(core::TestMethod::Minibatch, 1500);
    config.seed = 19;
    config.burnIn = 300; // the figures' scope is the draws after it
    ui::RunRequest request = ui::RunRequest::single(config);
    request.methods = {core::TestMethod::Minibatch, core::TestMethod::SubLhd};
    request.chains = 2;
    request.parallel = true;
    QVERIFY(window.startRequest(request));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, testruns::kRunTimeoutMs);
    const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
    QCOMPARE(outcome.chains.size(), std::size_t{4});

    // The files, as the File menu writes them.
    const QString summaryPath = m_dir.filePath(QStringLiteral("summary.json"));
    QVERIFY(window.fileActions()->exportSummary(summaryPath));
    QSignalSpy exported(window.fileActions(), &ui::FileActions::exportFinished);
    const QString samplesPath = m_dir.filePath(QStringLiteral("draws.csv"));
    QVERIFY(window.fileActions()->exportSamples(samplesPath));
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, testruns::kRunTimeoutMs);
    QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(1).toString()));
    std::ifstream summaryFile(summaryPath.toStdString());
    const Json summary = Json::parse(summaryFile);
    const Json &chains = summary.at("chains");
    QCOMPARE(chains.size(), std::size_t{4});
    const auto chainEntry = [&](const QString &method, int chain) -> const Json * {
        for (const Json &entry : chains)
            if (QString::fromStdString(entry.at("method").get<std::string>()) == method && entry.at("chain").get<int>() == chain)
                return &entry;
        return nullptr;
    };

    // The Diagnostics table: each row found in the JSON by its method and chain, each column by
    // its header.
    window.results()->setCurrentIndex(ui::ResultsView::tabIndex(QStringLiteral("diagnostics")));
    ui::DiagnosticsTable *table = window.results()->diagnosticsTable();
    QTRY_VERIFY(table->isVisible());
    QCOMPARE(table->rowCount(), 4);
    std::map<QString, int> columns;
    for (int column = 0; column < table->columnCount(); ++column)
        if (!table->isColumnHidden(column))
            columns[table->horizontalHeaderItem(column)->text()] = column;
    const QStringList components = [&] {
        QStringList names;
        for (const Json &name : summary.at("components"))
            names.append(QString::fromStdString(name.get<std::string>()));
        return names;
    }();
    QCOMPARE(components.size(), 2);
    // Header, JSON key (an index into ess_bulk for the ESS columns), decimals shown.
    struct Figure {
        QString header;
        const char *key;
        int essIndex;
        int decimals;
    };
    const std::vector<Figure> figures = {
        {QStringLiteral("Accept."), "acceptance_rate", -1, 3},
        {QStringLiteral("Mean b"), "mean_batch", -1, 1},
        {QStringLiteral("SD b"), "sd_batch", -1, 1},
        {QStringLiteral("Max b"), "max_batch", -1, 0},
        {QStringLiteral("ESS %1").arg(components[0]), "ess_bulk", 0, 0},
        {QStringLiteral("ESS %1").arg(components[1]), "ess_bulk", 1, 0},
        {QStringLiteral("ESS / s"), "ess_per_second", -1, 0},
        {QStringLiteral("Split R̂"), "r_hat", -1, 3},
        {QStringLiteral("TV"), "posterior_tv", -1, 3},
        {QStringLiteral("Min ESS"), "ess_bulk_min", -1, 0},
        {QStringLiteral("Median ESS"), "ess_bulk_median", -1, 0},
        {QStringLiteral("Points / ESS"), "data_points_per_ess", -1, 0},
    };
    std::map<QString, int> chainsSeen;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QString method = table->item(row, ui::DiagnosticsTable::MethodColumn)->text();
        const QString chainCell = table->item(row, ui::DiagnosticsTable::ChainColumn)->text(); // "2 (12345)"
        const int chain = chainCell.section(QLatin1Char(' '), 0, 0).toInt();
        const Json *entry = chainEntry(method, chain);
        QVERIFY2(entry, qPrintable(QStringLiteral("row %1: %2, chain %3 is not in the summary").arg(row).arg(method).arg(chain)));
        ++chainsSeen[method];
        QCOMPARE(chainCell, QStringLiteral("%1 (%2)").arg(chain).arg(entry->at("seed").get<qulonglong>()));
        for (const Figure &f : figures) {
            QVERIFY2(columns.count(f.header), qPrintable(QStringLiteral("no column '%1'").arg(f.header)));
            const QString text = table->item(row, columns[f.header])->text();
            const double expected = f.essIndex >= 0 ? figure(entry->at(f.key).at(static_cast<std::size_t>(f.essIndex)))
                                                    : figure(entry->at(f.key));
            QVERIFY2(showsRounded(text, expected, f.decimals),
                     qPrintable(QStringLiteral("%1, chain %2, '%3': shows %4, the summary says %5")
                                    .arg(method)
                                    .arg(chain)
                                    .arg(f.header, text)
                                    .arg(expected, 0, 'g', 12)));
        }
        // Data used: the exact counts are the tooltip's (the cell is compact).
        const qint64 used = entry->at("data_points_used").get<qint64>() + entry->at("full_scan_points").get<qint64>();
        const QString tip = table->item(row, columns[QStringLiteral("Data used")])->toolTip();
        QVERIFY2(tip.startsWith(QStringLiteral("%L1 points: %L2 in minibatches, %L3 in full-data passes")
                                    .arg(used)
                                    .arg(entry->at("data_points_used").get<qint64>())
                                    .arg(entry->at("full_scan_points").get<qint64>())),
                 qPrintable(tip));
        // The pooled figures: the method's entry of the summary's pooled list.
        const Json *pooled = nullptr;
        for (const Json &p : summary.at("pooled"))
            if (QString::fromStdString(p.at("method").get<std::string>()) == method)
                pooled = &p;
        QVERIFY(pooled);
        QVERIFY(showsRounded(table->item(row, columns[QStringLiteral("Pooled ESS")])->text(), figure(pooled->at("ess_bulk_min")), 0));
        QVERIFY(showsRounded(table->item(row, columns[QStringLiteral("Pooled ESS / s")])->text(),
                             figure(pooled->at("ess_per_second")), 0));
    }
    QCOMPARE(chainsSeen.size(), std::size_t{2});
    for (const auto &[method, seen] : chainsSeen)
        QCOMPARE(seen, 2);

    // Per method over both chains, after the burn-in: the strip's acceptance and mean batch are
    // the summary's pooled entry (its scope said), which is the chains' iteration-weighted mean;
    // its data read every point the run read, the burn-in's and the gradients' included.
    std::vector<QString> methods;
    for (const Json &entry : chains)
        if (entry.at("chain").get<int>() == 1)
            methods.push_back(QString::fromStdString(entry.at("method").get<std::string>()));
    QCOMPARE(methods.size(), std::size_t{2});
    QStringList acceptances, batches, batchLabels;
    qint64 read = 0;
    for (const QString &method : methods) {
        double n = 0.0, accepted = 0.0, points = 0.0;
        for (const Json &entry : chains) {
            if (QString::fromStdString(entry.at("method").get<std::string>()) != method)
                continue;
            const double kept = entry.at("samples_completed").get<double>() - entry.at("burn_in_iterations").get<double>();
            n += kept;
            accepted += kept * entry.at("acceptance_rate").get<double>();
            points += kept * entry.at("mean_batch").get<double>();
        }
        const Json *pooled = nullptr;
        for (const Json &p : summary.at("pooled"))
            if (QString::fromStdString(p.at("method").get<std::string>()) == method)
                pooled = &p;
        QVERIFY(pooled);
        const double acceptance = pooled->at("acceptance_rate").get<double>();
        const double batch = pooled->at("mean_batch").get<double>();
        QVERIFY2(std::abs(acceptance - accepted / n) < 1e-12, qPrintable(method));
        QVERIFY2(std::abs(batch - points / n) < 1e-9 * batch, qPrintable(method));
        acceptances.append(QStringLiteral("%L1").arg(acceptance, 0, 'f', 3));
        batches.append(QStringLiteral("%L1").arg(batch, 0, 'f', 1));
        // The histogram's label drops the decimal from 1,000 on.
        batchLabels.append(QStringLiteral("mean %L1").arg(batch, 0, 'f', batch < 1000.0 ? 1 : 0));
    }
    for (const Json &entry : chains)
        read += entry.at("data_points_used").get<qint64>() + entry.at("full_scan_points").get<qint64>()
                + entry.at("burn_in_points_read").get<qint64>() + entry.at("proposal_points_read").get<qint64>();
    const QString strip = window.statusStrip()->figuresText();
    QVERIFY2(strip.contains(QStringLiteral("acceptance %1 (after the burn-in, 2 chains)").arg(acceptances.join(" / "))),
             qPrintable(strip));
    QVERIFY2(strip.contains(QStringLiteral("mean batch %1 (after the burn-in, 2 chains)").arg(batches.join(" / "))),
             qPrintable(strip));
    QVERIFY2(strip.contains(QStringLiteral("data read %L1 ").arg(read)), qPrintable(strip));

    // The minibatch histogram (its own tab and the compare page's overview): each method's mean
    // label is its chains' mean batch after the burn-in.
    window.results()->setCurrentIndex(ui::ResultsView::tabIndex(QStringLiteral("sizes")));
    for (ui::BatchSizeHistogram *histogram : {window.results()->histogram(), window.results()->comparePage()->histogram()}) {
        QVERIFY(histogram);
        histogram->flush();
        QCOMPARE(histogram->seriesCount(), 2);
        for (int k = 0; k < 2; ++k)
            QVERIFY2(histogram->meanLabel(k) == batchLabels[k],
                     qPrintable(histogram->meanLabel(k) + " against " + batchLabels[k]));
    }

    // Each method's posterior cloud is its two chains' draws after the burn-in, point for point
    // (every draw: 1,200 per chain are under the chart's stride), those outside the plot aside.
    for (int methodIndex = 0; methodIndex < 2; ++methodIndex) {
        std::vector<std::pair<double, double>> filed;
        for (const ui::ChainReport &report : outcome.chains) {
            if (outcome.request.methodIndexOf(report.channel) != methodIndex)
                continue;
            const core::SamplesTable table =
                core::readSamplesCsv(core::chainSamplesPath(outcome, report, samplesPath.toStdString()));
            // θ's columns follow the sampler's (named with a trailing "__"), in the components' order.
            std::vector<std::size_t> theta;
            for (std::size_t c = 0; c < table.columns.size(); ++c)
                if (!table.columns[c].ends_with("__"))
                    theta.push_back(c);
            QCOMPARE(theta.size(), std::size_t{2});
            const std::size_t x = theta[0], y = theta[1];
            QCOMPARE(table.values[x].size(), std::size_t{1200});
            for (std::size_t t = 0; t < table.values[x].size(); ++t)
                filed.emplace_back(table.values[x][t], table.values[y][t]);
        }
        ui::PosteriorChart *chart = window.results()->posteriorChart(methodIndex);
        QVERIFY(chart);
        std::vector<std::pair<double, double>> drawn;
        for (const QPointF &p : chart->drawnSamples())
            drawn.emplace_back(p.x(), p.y());
        QCOMPARE(chart->plottedSampleCount(), static_cast<qsizetype>(filed.size()));
        QVERIFY2(drawn.size() > filed.size() * 9 / 10, qPrintable(QString::number(drawn.size())));
        std::sort(filed.begin(), filed.end());
        std::sort(drawn.begin(), drawn.end());
        QVERIFY2(std::includes(filed.begin(), filed.end(), drawn.begin(), drawn.end()),
                 "a point in the cloud is not a draw of the samples files");
    }
}

// The Zig-Zag process in the window: each chain's latest stretch of path drawn over the cloud,
// every straight run at ±45° in the plotted plane (each coordinate moves at unit speed), ending at
// the chain's last draw; no proposal ellipse (it has no Gaussian proposal); one legend entry; the
// burn-in's end said without a learned step.
void tst_ScreenFigures::theZigZagPathIsDrawnBetweenItsDraws()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    core::RunConfig config;
    config.dataset = "tall-logreg";
    config.nData = 5000;
    config.dimension = 3;
    config.method = core::TestMethod::ZigZag;
    config.step = 1.0 / std::sqrt(5000.0);
    config.samples = 600;
    config.seed = 23;
    // A burn-in under the form's adaptive proposal, which the process does not use: the notice
    // at the burn-in's end must not speak of a learned step.
    config.proposal = core::ProposalKind::Adaptive;
    config.burnIn = 100;
    QStringList burnInNotices; // the strip's notice as each chain's burn-in ends
    connect(&window, &ui::MainWindow::segmentStarted, this,
            [&](int, const core::ChainSegment &) { burnInNotices << window.statusStrip()->notice(); });
    ui::RunRequest request = ui::RunRequest::single(config);
    request.chains = 2;
    request.parallel = true;
    QVERIFY(window.startRequest(request));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, testruns::kRunTimeoutMs);
    const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
    QCOMPARE(outcome.chains.size(), std::size_t{2});
    QCOMPARE(burnInNotices.size(), 2);
    for (const QString &notice : burnInNotices) {
        QVERIFY2(notice.contains(QStringLiteral("nothing is learned in the burn-in")), qPrintable(notice));
        QVERIFY2(!notice.contains(QStringLiteral("learned,")), qPrintable(notice));
    }
    ui::PosteriorChart *chart = window.results()->posteriorChart(0);
    QVERIFY(chart);
    chart->flush();
    QVERIFY(chart->proposalEllipse().isEmpty());
    for (int channel = 0; channel < 2; ++channel) {
        const QVector<QPointF> path = chart->drawnPath(channel);
        QVERIFY2(path.size() > 50, qPrintable(QString::number(path.size())));
        QVERIFY(path.size() <= ui::SamplePathLayer::kCorners);
        for (qsizetype k = 1; k < path.size(); ++k) {
            const double dx = std::abs(path[k].x() - path[k - 1].x()), dy = std::abs(path[k].y() - path[k - 1].y());
            QVERIFY2(std::abs(dx - dy) <= 1e-9 * (1.0 + dx), qPrintable(QStringLiteral("corner %1: %2 against %3").arg(k).arg(dx).arg(dy)));
        }
        // The last corner is the chain's last draw, in the plotted components.
        const ui::ChainReport *report = nullptr;
        for (const ui::ChainReport &r : outcome.chains)
            if (r.channel == channel)
                report = &r;
        QVERIFY(report && report->result);
        const auto last = report->result->completed - 1;
        QCOMPARE(outcome.components.size(), std::size_t{2});
        const auto x = static_cast<Eigen::Index>(outcome.components[0]), y = static_cast<Eigen::Index>(outcome.components[1]);
        QCOMPARE(path.back(), QPointF(report->result->samples(last, x), report->result->samples(last, y)));
    }
    // Read once the legend has laid out: Qt 6.8 keeps a re-added series' legend entries hidden
    // until its next layout pass, and the flush may have re-added the path's lines.
    const auto pathEntries = [&] {
        int entries = 0;
        for (QLegendMarker *marker : chart->chart()->legend()->markers())
            entries += marker->isVisible() && marker->label().startsWith(QStringLiteral("Zig-Zag path"));
        return entries;
    };
    QTRY_COMPARE(pathEntries(), 1);
}

// SGLD-CV under the recommended preset on tall data runs at the step its forecast took, not the
// preset's 1/√N. The step box shows the step the chain runs, its label says whose it is, and the
// notice at the burn-in's end names it as the forecast's; the form still asks for the preset's
// step and the bias, so the next run forecasts again. Any other edit but T's asks for another
// run and the box shows the preset's step again; a step typed over the forecast's runs as typed.
void tst_ScreenFigures::theStepBoxShowsTheStepTheChainsRun()
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &ui::MainWindow::runFinished);
    core::RunConfig config;
    config.dataset = "tall-logreg";
    config.nData = 20'000;
    config.dimension = 5;
    config.method = core::TestMethod::Sgld;
    config.controlVariates = core::ControlVariates::Taylor1;
    core::applyDatasetDefaults(config, false, false);
    config.preset = core::Preset::Recommended;
    core::applyPreset(config, {core::TestMethod::Sgld}, nullptr);
    config.samples = 20'000;
    config.burnIn = 2'000;
    QCOMPARE(config.sgStepBias, 0.1);
    QStringList burnInNotices;
    connect(&window, &ui::MainWindow::segmentStarted, this,
            [&](int, const core::ChainSegment &) { burnInNotices << window.statusStrip()->notice(); });
    QVERIFY(window.startRequest(ui::RunRequest::single(config)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, testruns::kRunTimeoutMs);
    const auto outcome = finished.at(0).at(0).value<ui::RunOutcome>();
    QCOMPARE(outcome.request.methodSteps.size(), std::size_t{1});
    const double chosen = outcome.request.methodSteps[0];
    QVERIFY2(chosen > config.step, qPrintable(QString::number(chosen)));
    QCOMPARE(outcome.chains.front().result->segments.back().step, chosen);

    ui::ControlPanel *panel = window.controls();
    QDoubleSpinBox *box = panel->proposalStepBox();
    QLabel *label = nullptr;
    for (QLabel *candidate : panel->findChildren<QLabel *>())
        if (candidate->buddy() == box)
            label = candidate;
    QVERIFY(label);
    QVERIFY(panel->showsForecastStep());
    QCOMPARE(box->text(), box->textFromValue(chosen)); // the chain's step, as the box rounds it
    QVERIFY2(label->text().contains(QStringLiteral("forecast")), qPrintable(label->text()));
    QCOMPARE(burnInNotices.size(), 1);
    QVERIFY2(burnInNotices[0].contains(QStringLiteral("step %1 (the one the forecast took").arg(QLocale().toString(chosen, 'g', 4))),
             qPrintable(burnInNotices[0]));
    // What the form asks for: the preset's step left to the forecast, as before the run.
    QCOMPARE(panel->config().step, config.step);
    QCOMPARE(panel->config().sgStepBias, 0.1);

    // Another edit asks for another run: the box shows the preset's step again.
    panel->samplesBox()->setValue(30'000);
    QVERIFY(!panel->showsForecastStep());
    QCOMPARE(box->text(), box->textFromValue(config.step));
    QVERIFY2(!label->text().contains(QStringLiteral("forecast")), qPrintable(label->text()));
    QCOMPARE(panel->config().sgStepBias, 0.1);

    // A step typed over the forecast's runs as typed, with nothing left to a forecast.
    panel->showForecastStep(chosen);
    box->setValue(0.005);
    QVERIFY(!panel->showsForecastStep());
    QCOMPARE(box->value(), 0.005);
    QCOMPARE(panel->config().step, 0.005);
    QCOMPARE(panel->config().sgStepBias, 0.0);
}

MHX_GUI_TEST_MAIN(tst_ScreenFigures)
#include "tst_screen_figures.moc"
