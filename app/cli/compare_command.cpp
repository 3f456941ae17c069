// `mh-explorer-cli compare`: several methods on the same data and seeds, tabulated as in the
// paper's Tables 1 and 4 (Seita et al., "Minibatch Acceptance Test" (later version), Sec. 6.1, its
// appendix Table 4). Trial k of every method is the service's chain k (seed + k); --threads runs
// trials in parallel.
#include <cstdio>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "app/cli/run_progress.h"
#include "core/experiment/reports/compare_report.h"
#include "core/experiment/reports/run_report.h"
#include "core/experiment/service/run_service.h"
#include "core/io/atomic_file.h"

namespace cli {
namespace {

// The paper's Table 1 methods.
const std::string kCompareMethods = "minibatch,austere-c,sublhd";

} // namespace

int compareCommand(int argc, char **argv)
{
    auto options = runValueOptions();
    options.erase("trace"); // a trace follows one chain; a compare has many
    options.insert({"methods", "trials", "csv", "threads"});
    // --csv is where the table goes. Were it also read as the logistic-regression data file, as
    // `run` reads it, `compare --dataset logreg --csv data.csv` would write over the data.
    const Arguments args(argc, argv, 2, options, runFlags(),
                         {{"csv", "write the table as CSV (logreg data: --source or --images/--labels, not a CSV)"}});
    core::RunRequest request;
    request.config = readRunConfig(args, {"csv"}, kCompareMethods);
    readMethods(args, kCompareMethods, request);
    const auto trials = args.integer("trials", 10);
    if (trials < 1 || trials > core::RunRequest::kMaxChains)
        throw UsageError("--trials must be in [1, " + std::to_string(core::RunRequest::kMaxChains) + "]; got "
                         + std::to_string(trials));
    request.chains = static_cast<int>(trials);
    request.threads = static_cast<int>(args.integer("threads", 1));
    request.parallel = request.threads != 1;
    request.keepSamples = false; // the table needs each trial's figures, not its rows
    request.useCorrectionCache = !args.flag("no-cache");
    asUsage([&] { core::validate(request); });
    const std::string outPath = args.text("out", ""), csvPath = args.text("csv", "");
    const std::string summaryPath = args.text("summary", "");
    if (outPath.empty())
        throw UsageError("--out is required (a Markdown table path)");
    requireWritable("out", outPath);
    refuseCsvOverData(request.config, csvPath);
    if (!csvPath.empty())
        requireWritable("csv", csvPath);
    if (!summaryPath.empty())
        requireWritable("summary", summaryPath);

    RunProgress progress("compare");
    const core::RunOutcome outcome = core::runRequest(request, progress, {interruptToken()});
    progress.finish();
    if (outcome.stopped) {
        std::fprintf(stderr, "interrupted; nothing written\n");
        return 130;
    }
    if (!outcome.austereNote.empty())
        std::fprintf(stderr, "%s\n", outcome.austereNote.c_str());
    const std::string table = core::compareTableMarkdown(outcome);
    core::writeFileAtomically(outPath, [&](std::ostream &out) { out << table; });
    if (!csvPath.empty())
        core::writeCompareCsv(outcome, csvPath);
    if (!summaryPath.empty())
        core::writeRunSummary(outcome, summaryPath, "mh-explorer-cli compare");
    std::fputs(table.c_str(), stdout);
    return 0;
}

} // namespace cli
