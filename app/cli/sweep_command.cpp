// `mh-explorer-cli sweep`: one numeric setting stepped over a range with the same methods and
// trials at every point (core/experiment/sweep/sweep.h). Prints a table and the total wall time;
// writes the rows as CSV and a summary JSON. Points run in parallel on --threads (default one
// per core), so the timing figures include the contention; --threads 1 gives clean timings.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "app/cli/run_options.h"
#include "core/experiment/sweep/sweep.h"
#include "core/experiment/reports/sweep_report.h"

namespace cli {
namespace {

constexpr const char *kProgram = "mh-explorer-cli sweep";

// One bar over every point's iterations, and a line on stderr as each point completes.
class SweepProgress : public core::SweepObserver {
public:
    SweepProgress(const std::string &settingKey, int points, std::int64_t iterationsPerPoint)
        : m_settingKey(settingKey), m_done(static_cast<std::size_t>(points), 0),
          m_total(iterationsPerPoint * points), m_bar("sweep")
    {
    }

    void pointProgress(int index, std::int64_t done, std::int64_t) override
    {
        pollInterrupt();
        const std::lock_guard lock(m_mutex);
        m_done[static_cast<std::size_t>(index)] = done;
        m_bar.update(sum(), m_total);
    }

    void pointFinished(int index, int count, const std::vector<core::SweepRow> &rows,
                       const std::vector<core::SweepPooled> &) override
    {
        pollInterrupt();
        const std::lock_guard lock(m_mutex);
        m_bar.finish();
        std::fprintf(stderr, "point %d of %d done: %s = %g (%zu rows)\n", index + 1, count, m_settingKey.c_str(),
                     rows.empty() ? std::nan("") : rows.front().value, rows.size());
        m_bar.update(sum(), m_total);
    }

    void finish()
    {
        const std::lock_guard lock(m_mutex);
        m_bar.finish();
    }

private:
    std::int64_t sum() const
    {
        std::int64_t total = 0;
        for (std::int64_t done : m_done)
            total += done;
        return total;
    }

    std::string m_settingKey;
    std::mutex m_mutex; // points report from their own threads
    std::vector<std::int64_t> m_done;
    std::int64_t m_total;
    ProgressBar m_bar;
};

} // namespace

int sweepCommand(int argc, char **argv)
{
    // --out has no meaning here (no samples are kept), nor a trace of one chain.
    auto options = without(runValueOptions(), {"trace", "out"});
    options.insert({"vary", "methods", "trials", "csv", "threads"});
    auto flags = runFlags();
    flags.insert("log");
    // --csv is where the rows go; it cannot also name logistic-regression data as it does for run.
    const Arguments args(argc, argv, 2, options, flags,
                         {{"csv", "write the rows as CSV (logreg data: --source or --images/--labels, not a CSV)"}});
    if (!args.has("vary"))
        throw UsageError("--vary NAME=FROM:TO:COUNT is required (e.g. --vary sigma=0.4:1.7:8)");

    core::SweepRequest request;
    asUsage([&] { request.axis = core::parseSweepAxis(args.text("vary", "")); });
    request.axis.logSpacing = args.flag("log");
    request.base.config = readRunConfig(args, {"csv"});
    const core::SettingSpec *varied = nullptr;
    asUsage([&] { varied = &core::findSweepSetting(request.axis.setting, request.base.config.dataset); });
    if (args.has(varied->flag))
        throw UsageError("--" + varied->flag + " and --vary both set " + varied->key + "; give one");
    readMethods(args, core::methodName(request.base.config.method), request.base);
    const auto trials = args.integer("trials", 1);
    if (trials < 1 || trials > core::RunRequest::kMaxChains)
        throw UsageError("--trials must be in [1, " + std::to_string(core::RunRequest::kMaxChains) + "]; got "
                         + std::to_string(trials));
    request.base.chains = static_cast<int>(trials);
    // A step the preset derived from N follows N from point to point; one the user gave stays.
    request.stepFollowsDataSize = !args.has("step") && core::stepIsInverseRootOfDataSize(request.base.config);
    const auto threads = args.integer("threads", 0);
    if (threads < 0 || threads > 1024)
        throw UsageError("--threads must be in [0, 1024] (0: one per core); got " + std::to_string(threads));
    request.threads = static_cast<int>(threads);
    request.base.useCorrectionCache = !args.flag("no-cache");
    // Every point is checked here, so that a bad one fails before any sampling.
    asUsage([&] { core::validate(request); });
    const std::string csvPath = args.text("csv", ""), summaryPath = args.text("summary", "");
    refuseCsvOverData(request.base.config, csvPath);
    if (!csvPath.empty())
        requireWritable("csv", csvPath);
    if (!summaryPath.empty())
        requireWritable("summary", summaryPath);

    const auto started = std::chrono::steady_clock::now();
    const std::int64_t iterationsPerPoint = request.base.config.samples * request.base.channelCount();
    SweepProgress progress(varied->key, request.axis.count, iterationsPerPoint);
    std::fprintf(stderr, "sweeping %s over %d points, %zu method(s) x %d trial(s) each\n", varied->key.c_str(),
                 request.axis.count, request.base.methods.size(), request.base.chains);
    if (request.stepFollowsDataSize && varied->flag == "n-data")
        std::fprintf(stderr, "the step is 1/sqrt(N) at each point, as the preset sets it (--step fixes one for all)\n");
    const core::SweepOutcome outcome = core::runSweep(request, progress, {interruptToken()});
    progress.finish();
    if (outcome.stopped) {
        std::fprintf(stderr, "interrupted after %d of %d points; nothing written\n", outcome.pointsCompleted,
                     request.axis.count);
        return 130;
    }
    if (!csvPath.empty())
        core::writeSweepCsv(outcome, csvPath);
    if (!summaryPath.empty())
        core::writeSweepSummary(outcome, summaryPath, kProgram);
    std::fputs(core::sweepTableText(outcome).c_str(), stdout);
    if (const std::string note = core::sweepMixingNote(outcome); !note.empty())
        std::printf("\n%s\n", note.c_str());
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("total wall time %.2f s (%d points, %zu rows)\n", wall, outcome.pointsCompleted, outcome.rows.size());
    return 0;
}

} // namespace cli
