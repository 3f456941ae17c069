// `mh-explorer-cli compare`: several methods on the same data and seeds, tabulated as in the
// paper's Tables 1 and 4 (003_…txt Sec. 6.1, appendix 002_…txt Table 4).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "app/cli/run_options.h"
#include "core/experiment/experiment_runner.h"
#include "core/io/atomic_file.h"

namespace cli {
namespace {

// Mean and sample standard deviation over trials.
struct Spread {
    std::vector<double> values;
    void add(double v) { values.push_back(v); }
    double mean() const
    {
        double total = 0.0;
        for (double v : values)
            total += v;
        return values.empty() ? std::nan("") : total / static_cast<double>(values.size());
    }
    double sd() const
    {
        if (values.size() < 2)
            return 0.0;
        const double m = mean();
        double squares = 0.0;
        for (double v : values)
            squares += (v - m) * (v - m);
        return std::sqrt(squares / static_cast<double>(values.size() - 1));
    }
};

struct MethodRow {
    core::TestMethod method;
    Spread meanBatch, allDataFraction, fullScanPerIteration, acceptance, tv, chi2, eq39, wall, scanShare;
};

std::string pm(const Spread &s, const char *format)
{
    char buffer[96];
    const std::string f = std::string(format) + " ± " + format;
    std::snprintf(buffer, sizeof buffer, f.c_str(), s.mean(), s.sd());
    return buffer;
}

std::string num(double value, const char *format)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

} // namespace

int compareCommand(int argc, char **argv)
{
    auto options = runValueOptions();
    options.insert({"methods", "trials", "csv"});
    const Arguments args(argc, argv, 2, options, runFlags());
    core::RunConfig config = readRunConfig(args);
    std::vector<core::TestMethod> methods;
    for (const auto &name : args.list("methods", "minibatch,austere-c,sublhd"))
        asUsage([&] { methods.push_back(core::parseMethod(name)); });
    if (methods.empty())
        throw UsageError("--methods needs at least one method");
    const auto trials = args.integer("trials", 10);
    if (trials < 1 || trials > 10000)
        throw UsageError("--trials must be in [1, 10000]; got " + std::to_string(trials));
    const std::string outPath = args.text("out", ""), csvPath = args.text("csv", "");
    if (outPath.empty())
        throw UsageError("--out is required (a Markdown table path)");
    requireWritable("out", outPath);
    if (!csvPath.empty())
        requireWritable("csv", csvPath);

    std::fprintf(stderr, "generating %lld %s points (data seed %llu)\n", static_cast<long long>(config.nData),
                 config.dataset.c_str(), static_cast<unsigned long long>(config.dataSeed));
    const core::DatasetInstance dataset = core::makeDataset(config, true);
    std::shared_ptr<const core::CorrectionDistribution> correction;
    for (auto method : methods)
        if (core::needsCorrection(method) && !correction)
            correction = obtainCorrection(config.correction, !args.flag("no-cache"));

    // AustereMH's design (grid, and for austere-c the pilot) is made once and shared by trials.
    std::shared_ptr<const core::AustereDesigner> designer;
    core::RunConfig designedAustere = config;
    for (auto method : methods) {
        core::RunConfig probe = config;
        probe.method = method;
        if (core::needsAustereDesign(probe) && !designer) {
            designedAustere.method = core::TestMethod::AustereConservative;
            designer = obtainAustereDesign(designedAustere, dataset);
        }
    }

    std::vector<MethodRow> rows;
    for (auto method : methods)
        rows.push_back(MethodRow{method, {}, {}, {}, {}, {}, {}, {}, {}, {}});
    const std::int64_t total = trials * static_cast<std::int64_t>(methods.size()) * config.samples;
    std::int64_t doneBefore = 0;
    ProgressBar bar("compare");
    for (std::int64_t trial = 0; trial < trials; ++trial) {
        for (auto &row : rows) {
            core::RunConfig run = config;
            run.austere = designedAustere.austere;
            run.method = row.method;
            run.seed = config.seed + static_cast<std::uint64_t>(trial);
            const auto outcome = core::runExperiment(run, dataset, correction, interruptToken(),
                                                     [&](const core::ChainResult &, std::int64_t, std::int64_t last) {
                                                         pollInterrupt();
                                                         bar.update(doneBefore + last, total);
                                                     },
                                                     designer);
            if (outcome.chain.stopped) {
                bar.finish();
                std::fprintf(stderr, "interrupted; nothing written\n");
                return 130;
            }
            doneBefore += config.samples;
            const auto &s = outcome.summary;
            const double iterations = static_cast<double>(s.iterations);
            row.meanBatch.add(s.meanBatch);
            row.allDataFraction.add(static_cast<double>(s.allDataIterations) / iterations);
            row.fullScanPerIteration.add(static_cast<double>(s.fullScanPoints) / iterations);
            row.acceptance.add(s.acceptanceRate);
            row.wall.add(s.wallSeconds);
            row.scanShare.add(s.wallSeconds > 0 ? outcome.chain.fullScanSeconds / s.wallSeconds : 0.0);
            if (outcome.posterior) {
                row.tv.add(outcome.posterior->totalVariation);
                row.chi2.add(outcome.posterior->chiSquared);
                row.eq39.add(outcome.posterior->poissonLogLikelihood);
            }
        }
    }
    bar.finish();

    const bool withPosterior = dataset.gmmPosterior != nullptr;
    std::ostringstream table;
    table << "# compare: " << dataset.description << "\n\n"
          << "N = " << config.nData << ", T = " << config.temperature << ", step " << config.step
          << " (proposal sd), m = " << config.minibatch.initialBatch << ", " << config.samples << " samples, "
          << trials << " trials with seeds " << config.seed << ".." << config.seed + static_cast<std::uint64_t>(trials) - 1
          << ", data seed " << config.dataSeed << ". AustereMH(c) m = " << designedAustere.austere.batch
          << ", epsilon " << designedAustere.austere.epsilon
          << (config.austereErrorBound > 0 ? " (designed under error bound " + std::to_string(config.austereErrorBound) + ")" : std::string())
          << "; MHSubLhd gamma " << config.sublhd.gamma << ", p "
          << config.sublhd.p << ", delta " << config.sublhd.delta << "; MHminibatch sigma " << config.correction.sigma
          << ", growth " << config.minibatch.batchGrowth << ".\n\n"
          << "Values are mean ± sd over trials. *Minibatch size* counts the points each test read from "
             "minibatches; *full-scan points* counts the extra full-data passes some methods make every iteration "
             "(MHSubLhd's range bound C), which the minibatch size leaves out.\n\n";
    table << "| method | minibatch size | iterations reading all N | full-scan points / iteration | acceptance |";
    if (withPosterior)
        table << " posterior TV | chi-squared | Eq. 39 |";
    table << " wall s | full-scan share of wall |\n|---|---|---|---|---|";
    if (withPosterior)
        table << "---|---|---|";
    table << "---|---|\n";
    for (const auto &row : rows) {
        table << "| " << core::methodName(row.method) << " | " << pm(row.meanBatch, "%.1f") << " | "
              << pm(row.allDataFraction, "%.4f") << " | " << pm(row.fullScanPerIteration, "%.0f") << " | "
              << pm(row.acceptance, "%.3f") << " |";
        if (withPosterior)
            table << " " << pm(row.tv, "%.3f") << " | " << pm(row.chi2, "%.0f") << " | " << pm(row.eq39, "%.0f") << " |";
        table << " " << pm(row.wall, "%.2f") << " | " << num(100.0 * row.scanShare.mean(), "%.0f%%") << " |\n";
    }
    core::writeFileAtomically(outPath, [&](std::ostream &out) { out << table.str(); });
    if (!csvPath.empty()) {
        core::writeFileAtomically(csvPath, [&](std::ostream &out) {
            out << "# dataset = " << config.dataset << "\n# n_data = " << config.nData << "\n# temperature = "
                << core::formatRoundTrip(config.temperature) << "\n# samples = " << config.samples << "\n# trials = "
                << trials << "\nmethod,trial,mean_batch,all_data_fraction,full_scan_per_iteration,acceptance_rate,"
                   "posterior_tv,posterior_chi2,posterior_poisson_loglik,wall_seconds,full_scan_share\n";
            for (const auto &row : rows)
                for (std::size_t t = 0; t < row.meanBatch.values.size(); ++t) {
                    auto at = [&](const Spread &s) {
                        return t < s.values.size() ? core::formatRoundTrip(s.values[t]) : std::string("nan");
                    };
                    out << core::methodName(row.method) << ',' << t << ',' << at(row.meanBatch) << ','
                        << at(row.allDataFraction) << ',' << at(row.fullScanPerIteration) << ',' << at(row.acceptance)
                        << ',' << at(row.tv) << ',' << at(row.chi2) << ',' << at(row.eq39) << ',' << at(row.wall) << ','
                        << at(row.scanShare) << '\n';
                }
        });
    }
    std::fputs(table.str().c_str(), stdout);
    return 0;
}

} // namespace cli
