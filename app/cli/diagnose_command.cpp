// `mh-explorer-cli diagnose FILE...`: a per-parameter posterior summary of samples CSVs (ours
// or CmdStan's), one chain per file, in the manner of CmdStan's stansummary.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "core/diagnostics/posterior_summary.h"
#include "core/io/atomic_file.h"
#include "core/io/json_file.h"
#include "core/io/samples_csv_reader.h"

namespace cli {
namespace {

struct Request {
    std::vector<std::string> files;
    std::string summaryPath;
};

// Kept to what this command needs: FILE... and --summary PATH (or --summary=PATH).
Request parse(int argc, char **argv)
{
    Request request;
    for (int i = 2; i < argc; ++i) {
        const std::string token = argv[i];
        if (token == "--summary" || token.rfind("--summary=", 0) == 0) {
            if (!request.summaryPath.empty())
                throw UsageError("--summary given twice");
            if (token.size() > 9)
                request.summaryPath = token.substr(10);
            else if (i + 1 < argc)
                request.summaryPath = argv[++i];
            if (request.summaryPath.empty())
                throw UsageError("--summary needs a value (a JSON path)");
        } else if (token.rfind("--", 0) == 0) {
            throw UsageError("unknown option " + token + " (diagnose takes FILE... [--summary out.json])");
        } else {
            request.files.push_back(token);
        }
    }
    if (request.files.empty())
        throw UsageError("no samples files given (usage: diagnose FILE... [--summary out.json])");
    return request;
}

std::vector<core::SamplesTable> readChains(const std::vector<std::string> &files)
{
    std::vector<core::SamplesTable> chains;
    for (const std::string &file : files) {
        try {
            chains.push_back(core::readSamplesCsv(file));
        } catch (const core::SamplesCsvError &error) {
            throw UsageError(error.what());
        }
        const core::SamplesTable &first = chains.front(), &chain = chains.back();
        if (chain.columns != first.columns) {
            std::size_t k = 0;
            while (k < std::min(chain.columns.size(), first.columns.size()) && chain.columns[k] == first.columns[k])
                ++k;
            const std::string theirs = k < chain.columns.size() ? "'" + chain.columns[k] + "'" : "nothing";
            const std::string ours = k < first.columns.size() ? "'" + first.columns[k] + "'" : "nothing";
            throw UsageError(chain.fileName + ": its columns differ from " + first.fileName + "'s: column "
                             + std::to_string(k + 1) + " is " + theirs + " there but " + ours + " in "
                             + first.fileName + "; every chain must have the same columns");
        }
        if (chain.draws() != first.draws())
            throw UsageError(chain.fileName + " has " + std::to_string(chain.draws()) + " draws but " + first.fileName
                             + " has " + std::to_string(first.draws()) + "; the chains must have equal lengths");
    }
    if (chains.front().draws() < 4)
        throw UsageError(chains.front().fileName + " has " + std::to_string(chains.front().draws())
                         + " draws; diagnostics need at least 4 per chain");
    return chains;
}

// lp__ first, then the parameters in file order; other sampler columns are not parameters.
std::vector<std::size_t> parameterColumns(const core::SamplesTable &table)
{
    std::vector<std::size_t> columns;
    for (std::size_t k = 0; k < table.columns.size(); ++k)
        if (table.columns[k] == "lp__")
            columns.push_back(k);
    for (std::size_t k = 0; k < table.columns.size(); ++k)
        if (!core::SamplesTable::isSamplerColumn(table.columns[k]))
            columns.push_back(k);
    return columns;
}

} // namespace

int diagnoseCommand(int argc, char **argv)
{
    const Request request = parse(argc, argv);
    if (!request.summaryPath.empty())
        requireWritable("summary", request.summaryPath);
    const std::vector<core::SamplesTable> chains = readChains(request.files);
    const std::vector<std::size_t> columns = parameterColumns(chains.front());
    if (columns.empty())
        throw UsageError(chains.front().fileName + ": no parameter columns (every column name ends in \"__\")");

    std::vector<core::ParameterSummary> summaries;
    for (std::size_t k : columns) {
        core::ChainDraws draws;
        for (const core::SamplesTable &chain : chains)
            draws.push_back(chain.values[k]);
        summaries.push_back(core::summarizeParameter(draws));
    }

    std::size_t nameWidth = 4;
    for (std::size_t k : columns)
        nameWidth = std::max(nameWidth, chains.front().columns[k].size());
    const int width = static_cast<int>(nameWidth);
    std::printf("%zu chain%s of %zu draws each (%s%s)\n\n", chains.size(), chains.size() == 1 ? "" : "s",
                chains.front().draws(), request.files.front().c_str(), chains.size() > 1 ? ", ..." : "");
    std::printf("%-*s %12s %10s %10s %12s %12s %12s %9s %9s %7s\n", width, "", "Mean", "MCSE", "StdDev", "5%", "50%",
                "95%", "ESS_bulk", "ESS_tail", "R_hat");
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const core::ParameterSummary &s = summaries[i];
        std::printf("%-*s %12.5g %10.3g %10.4g %12.5g %12.5g %12.5g %9.0f %9.0f %7.4f\n", width,
                    chains.front().columns[columns[i]].c_str(), s.mean, s.mcseMean, s.sd, s.q5, s.q50, s.q95, s.essBulk,
                    s.essTail, s.rhat);
    }
    std::printf("\nESS_bulk and ESS_tail are rank-normalised split-chain estimates and R_hat the larger of the\n"
                "bulk and folded rank-normalised split R-hat (Vehtari et al. 2021); R_hat > 1.01 or an ESS\n"
                "below 100 per chain calls for longer or better-mixing chains.\n");

    if (!request.summaryPath.empty()) {
        nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const core::ParameterSummary &s = summaries[i];
            parameters[chains.front().columns[columns[i]]] = {
                {"mean", s.mean}, {"sd", s.sd},           {"mcse_mean", s.mcseMean}, {"q5", s.q5},      {"q50", s.q50},
                {"q95", s.q95},   {"ess_bulk", s.essBulk}, {"ess_tail", s.essTail},   {"r_hat", s.rhat}};
        }
        const nlohmann::ordered_json root = {
            {"chains", chains.size()}, {"draws_per_chain", chains.front().draws()}, {"parameters", parameters}};
        core::writeJsonFile(request.summaryPath, root);
    }
    return 0;
}

} // namespace cli
