// addLogPosteriorToResumedSamples (run_report.h): the file's draws are the chain's, read back as
// written (round-trip decimals, so the very doubles the chain held), and lp__ is computed from
// them as for a finished file, which therefore gets the same column line for line.
#include <ostream>
#include <string>
#include <vector>

#include "core/experiment/reports/run_report.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"
#include "core/io/streamed_samples.h"

namespace core {

std::string addLogPosteriorToResumedSamples(const RunOutcome &outcome, const std::string &path, std::stop_token stop)
{
    const StreamedSamples file = readStreamedSamples(path);
    if (file.rows.empty() || file.head.empty())
        return "the file holds no draws";
    if (!file.columns.empty() && file.columns.front() == "lp__")
        return "the file has lp__ already";
    // The written rows follow the burn-in: all of them at the run's temperature (a command-line
    // run has no live changes).
    ChainResult draws;
    draws.samples.resize(static_cast<Eigen::Index>(file.rows.size()), static_cast<Eigen::Index>(file.parameters(0).size()));
    for (std::size_t r = 0; r < file.rows.size(); ++r) {
        const std::vector<double> theta = file.parameters(r);
        for (std::size_t k = 0; k < theta.size(); ++k)
            draws.samples(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = theta[k];
    }
    draws.completed = static_cast<std::int64_t>(file.rows.size());
    draws.segments.push_back(ChainSegment{.start = 0, .temperature = outcome.config().temperature});
    std::string whyOmitted;
    const std::vector<double> lp = logPosteriorOf(outcome, draws, stop, &whyOmitted);
    if (lp.empty())
        return whyOmitted.empty() ? std::string("lp__ could not be computed") : whyOmitted;

    writeFileAtomically(path, [&](std::ostream &out) {
        for (std::size_t k = 0; k + 1 < file.head.size(); ++k)
            if (!file.head[k].starts_with("# status = ")) // the running note; the ending is written below
                out << file.head[k] << '\n';
        out << "lp__," << file.head.back() << '\n';
        for (std::size_t r = 0; r < file.rows.size(); ++r)
            out << formatRoundTrip(lp[r]) << ',' << file.rows[r] << '\n';
        if (!file.status.empty())
            out << "# status = " << file.status << '\n';
    });
    return {};
}

} // namespace core
