// `mh-explorer-cli austere-design`: choose AustereMH's (m, epsilon) for a dataset as the papers
// did (Seita et al., "Minibatch Acceptance Test", appendix C.2.1; Korattikara et al., "Austerity in
// MCMC Land", supplement Sec. D), and show every candidate of the grid.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "app/cli/run_options.h"
#include "core/acceptance/austere_design_cache.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"
#include "core/io/json_file.h"

namespace cli {

int austereDesignCommand(int argc, char **argv)
{
    // The design depends on the data, T, the step, the seed, the bound and the pilot; options
    // of the chain or the other tests would be silently ignored, so they are refused.
    auto options = without(runValueOptions(), {"method", "samples", "out", "trace", "trace-every", "burn-in",
                                               "anneal-from", "burn-in-step", "batch", "batch-growth", "epsilon",
                                               "sigma", "lambda", "solver", "grid", "range", "delta", "gamma",
                                               "sublhd-p", "sublhd-delta"});
    options.insert("csv");
    // --csv is the design table's file only (see compare): never read as logistic-regression data.
    const Arguments args(argc, argv, 2, options, {"bias"},
                         {{"csv", "write the design table as CSV (logreg data: --source or --images/--labels)"}});
    // The design is of the paper's test: its settings unless told otherwise.
    core::RunConfig config = readRunConfig(args, {"csv"}, {}, core::Preset::Paper);
    if (!(config.austereErrorBound > 0.0))
        throw UsageError("--error-bound is required: the bound on the mean |error| of the acceptance probability");
    config.method = core::TestMethod::AustereConservative;
    const std::string summaryPath = args.text("summary", ""), csvPath = args.text("csv", "");
    if (!summaryPath.empty())
        requireWritable("summary", summaryPath);
    refuseCsvOverData(config, csvPath);
    if (!csvPath.empty())
        requireWritable("csv", csvPath);

    const core::DatasetInstance dataset = core::makeDataset(config, false);
    const auto start = std::chrono::steady_clock::now();
    ProgressBar bar("design grid");
    bool gridFromCache = false;
    const auto designerHandle = core::loadOrBuildAustereDesigner(
        dataset.model->dataSize(),
        [&](double f) {
            pollInterrupt();
            bar.update(static_cast<std::int64_t>(f * 1000.0), 1000);
        },
        interruptToken(), &gridFromCache);
    const core::AustereDesigner &designer = *designerHandle;
    bar.finish();
    const double gridSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto proposal = core::makeProposal(config, *dataset.model, config.step);
    const auto pilot = core::collectPilot(*dataset.model, *proposal, dataset.model->initialTheta(), config.temperature,
                                          config.austerePilot, config.seed, {}, interruptToken());
    std::size_t best = 0;
    const auto candidates = designer.evaluate(pilot, config.austereErrorBound, best);

    std::ostringstream table;
    table << "AustereMH(c) design for " << config.dataset << ", N = " << dataset.model->dataSize() << ", T = "
          << config.temperature << ", step " << config.step << ", " << pilot.size()
          << " pilot proposals, bound on mean |error| " << config.austereErrorBound << "\n"
          << "    m  epsilon  mean|error|  mean data fraction  feasible\n";
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const auto &c = candidates[k];
        char line[128];
        std::snprintf(line, sizeof line, "%5lld  %7g  %11.3g  %18.4g  %s%s\n", static_cast<long long>(c.batch), c.epsilon,
                      c.meanAbsError, c.meanDataFraction, c.feasible ? "yes" : "no", k == best ? "   <- chosen" : "");
        table << line;
    }
    std::fputs(table.str().c_str(), stdout);
    std::printf(gridFromCache ? "grid loaded from the cache in %.1f s\n" : "grid tabulated in %.1f s\n", gridSeconds);
    const auto &chosen = candidates[best];
    if (!csvPath.empty())
        core::writeFileAtomically(csvPath, [&](std::ostream &out) {
            out << "batch,epsilon,mean_abs_error,mean_data_fraction,feasible,chosen\n";
            for (std::size_t k = 0; k < candidates.size(); ++k)
                out << candidates[k].batch << ',' << core::formatRoundTrip(candidates[k].epsilon) << ','
                    << core::formatRoundTrip(candidates[k].meanAbsError) << ','
                    << core::formatRoundTrip(candidates[k].meanDataFraction) << ',' << (candidates[k].feasible ? 1 : 0)
                    << ',' << (k == best ? 1 : 0) << '\n';
        });
    if (!summaryPath.empty()) {
        const nlohmann::ordered_json json = {{"dataset", config.dataset},
                                             {"n_data", dataset.model->dataSize()},
                                             {"temperature", config.temperature},
                                             {"step", config.step},
                                             {"error_bound", config.austereErrorBound},
                                             {"pilot", pilot.size()},
                                             {"batch", chosen.batch},
                                             {"epsilon", chosen.epsilon},
                                             {"mean_abs_error", chosen.meanAbsError},
                                             {"mean_data_fraction", chosen.meanDataFraction},
                                             {"feasible", chosen.feasible},
                                             {"grid_seconds", gridSeconds},
                                             {"grid_from_cache", gridFromCache}};
        core::writeJsonFile(summaryPath, json);
    }
    std::printf("use: --method austere-c --batch %lld --epsilon %g (or pass --error-bound %g to run/compare)\n",
                static_cast<long long>(chosen.batch), chosen.epsilon, config.austereErrorBound);
    return 0;
}

} // namespace cli
