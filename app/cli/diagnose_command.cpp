// `mh-explorer-cli diagnose FILE... [--reference REF]...`: a per-parameter posterior summary
// of samples CSVs (ours or CmdStan's), one chain per file, in the manner of CmdStan's
// stansummary; with reference chains, how every parameter's mean and sd agree with theirs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "core/diagnostics/posterior_summary.h"
#include "core/diagnostics/reference_agreement.h"
#include "core/io/atomic_file.h"
#include "core/io/json_file.h"
#include "core/io/samples_csv_reader.h"

namespace cli {
namespace {

constexpr const char *kUsage = "diagnose FILE... [--reference REF]... [--summary out.json]";

struct Request {
    std::vector<std::string> files;
    std::vector<std::string> references;
    std::string summaryPath;
};

// The value of `--name VALUE` or `--name=VALUE` at argv[i] (i moves past it).
std::string optionValue(const std::string &name, const std::string &what, int argc, char **argv, int &i)
{
    const std::string token = argv[i];
    std::string value;
    if (token.size() > name.size())
        value = token.substr(name.size() + 1);
    else if (i + 1 < argc)
        value = argv[++i];
    if (value.empty())
        throw UsageError(name + " needs a value (" + what + ")");
    return value;
}

// Kept to what this command needs: FILE..., --reference FILE (repeated) and --summary PATH.
Request parse(int argc, char **argv)
{
    Request request;
    for (int i = 2; i < argc; ++i) {
        const std::string token = argv[i];
        if (token == "--summary" || token.rfind("--summary=", 0) == 0) {
            if (!request.summaryPath.empty())
                throw UsageError("--summary given twice");
            request.summaryPath = optionValue("--summary", "a JSON path", argc, argv, i);
        } else if (token == "--reference" || token.rfind("--reference=", 0) == 0) {
            request.references.push_back(optionValue("--reference", "a samples CSV of the reference chain", argc, argv, i));
        } else if (token.rfind("--", 0) == 0) {
            throw UsageError("unknown option " + token + " (usage: " + kUsage + ")");
        } else {
            request.files.push_back(token);
        }
    }
    if (request.files.empty())
        throw UsageError(std::string("no samples files given (usage: ") + kUsage + ")");
    return request;
}

// The state a streamed file ended in ("interrupted after …", "running …"), or empty for a
// finished file (samples_csv_stream.h).
std::string streamStatus(const core::SamplesTable &chain)
{
    std::string status;
    for (const auto &[key, value] : chain.metadata)
        if (key == "status")
            status = value;
    return status;
}

// Chains cut short (a run interrupted, or killed while streaming) keep fewer draws than the
// others: the pooled figures then use every chain's first draws up to the shortest, and say so.
void cutToTheShortest(std::vector<core::SamplesTable> &chains, std::vector<std::string> &notes)
{
    std::size_t shortest = chains.front().draws();
    for (const core::SamplesTable &chain : chains)
        shortest = std::min(shortest, chain.draws());
    for (core::SamplesTable &chain : chains) {
        if (chain.draws() == shortest)
            continue;
        notes.push_back(chain.fileName + ": the first " + std::to_string(shortest) + " of its "
                        + std::to_string(chain.draws()) + " draws, as many as the shortest chain kept");
        for (std::vector<double> &column : chain.values)
            column.resize(shortest);
    }
}

// A file streamed by a run cut short has no lp__ (samples_csv_stream.h); pooled with finished
// files, which have it, the others' lp__ is left out so that the columns agree.
void dropLpWhereAnyLacksIt(std::vector<core::SamplesTable> &chains, std::vector<std::string> &notes)
{
    const auto hasLp = [](const core::SamplesTable &chain) {
        return !chain.columns.empty() && chain.columns.front() == "lp__";
    };
    const auto lacking = std::find_if_not(chains.begin(), chains.end(), hasLp);
    if (lacking == chains.end() || std::none_of(chains.begin(), chains.end(), hasLp))
        return;
    for (core::SamplesTable &chain : chains)
        if (hasLp(chain)) {
            chain.columns.erase(chain.columns.begin());
            chain.values.erase(chain.values.begin());
        }
    const std::string note = "lp__ left out: " + lacking->fileName + " has none (a run cut short writes its draws without it)";
    if (std::find(notes.begin(), notes.end(), note) == notes.end())
        notes.push_back(note);
}

std::vector<core::SamplesTable> readChains(const std::vector<std::string> &files, std::vector<std::string> *notes = nullptr)
{
    std::vector<core::SamplesTable> chains;
    bool cutShort = false;
    for (const std::string &file : files) {
        try {
            chains.push_back(core::readSamplesCsv(file));
        } catch (const core::SamplesCsvError &error) {
            throw UsageError(error.what());
        }
        if (notes)
            dropLpWhereAnyLacksIt(chains, *notes);
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
        const std::string status = streamStatus(chain);
        if (notes && !status.empty() && !status.starts_with("running")) {
            notes->push_back(chain.fileName + ": " + status);
            cutShort = true;
        } else if (notes && status.starts_with("running")) {
            notes->push_back(chain.fileName + ": its run ended while the file was written (killed?); "
                             + std::to_string(chain.draws()) + " complete draws"
                             + (chain.partialLastLine ? ", the cut line " + std::to_string(chain.partialLastLine) + " left out"
                                                      : std::string()));
            cutShort = true;
        }
    }
    for (const core::SamplesTable &chain : chains)
        if (chain.draws() != chains.front().draws() && !cutShort)
            throw UsageError(chain.fileName + " has " + std::to_string(chain.draws()) + " draws but "
                             + chains.front().fileName + " has " + std::to_string(chains.front().draws())
                             + "; the chains must have equal lengths");
    if (cutShort && notes)
        cutToTheShortest(chains, *notes);
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

std::vector<core::ParameterSummary> summarize(const std::vector<core::SamplesTable> &chains,
                                              const std::vector<std::size_t> &columns)
{
    std::vector<core::ParameterSummary> summaries;
    for (std::size_t k : columns) {
        core::ChainDraws draws;
        for (const core::SamplesTable &chain : chains)
            draws.push_back(chain.values[k]);
        summaries.push_back(core::summarizeParameter(draws));
    }
    return summaries;
}

// The run's parameters (lp__ aside: it is a function of them) against the same columns of the
// reference chains, which must have every one of them.
struct Comparison {
    std::vector<std::string> names;
    std::vector<core::ParameterSummary> reference;
    std::vector<core::ParameterAgreement> agreement;
    core::AgreementSummary summary;
    std::size_t chains = 0, draws = 0;
};

Comparison compareWithReference(const core::SamplesTable &run, const std::vector<std::size_t> &columns,
                                const std::vector<core::ParameterSummary> &summaries,
                                const std::vector<std::string> &referenceFiles)
{
    const std::vector<core::SamplesTable> reference = readChains(referenceFiles);
    Comparison comparison;
    comparison.chains = reference.size();
    comparison.draws = reference.front().draws();
    std::vector<std::size_t> referenceColumns;
    std::vector<std::size_t> runIndex;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string &name = run.columns[columns[i]];
        if (name == "lp__")
            continue;
        const auto found = std::find(reference.front().columns.begin(), reference.front().columns.end(), name);
        if (found == reference.front().columns.end())
            throw UsageError(reference.front().fileName + " has no column '" + name + "' (of " + run.fileName
                             + "); the reference must sample the same parameters");
        referenceColumns.push_back(static_cast<std::size_t>(found - reference.front().columns.begin()));
        runIndex.push_back(i);
        comparison.names.push_back(name);
    }
    if (comparison.names.empty())
        throw UsageError(run.fileName + ": no parameters besides lp__ to compare with the reference");
    comparison.reference = summarize(reference, referenceColumns);
    for (std::size_t j = 0; j < runIndex.size(); ++j)
        comparison.agreement.push_back(core::compareWithReference(summaries[runIndex[j]], comparison.reference[j]));
    comparison.summary = core::summarizeAgreement(comparison.agreement);
    return comparison;
}

void printComparison(const Comparison &c, const std::vector<std::string> &files)
{
    const core::AgreementSummary &s = c.summary;
    std::printf("\nAgainst the reference (%zu chain%s of %zu draws: %s%s), %zu parameters, lp__ aside:\n", c.chains,
                c.chains == 1 ? "" : "s", c.draws, files.front().c_str(), files.size() > 1 ? ", ..." : "", s.parameters);
    std::printf("  mean shift |mean - ref| / ref sd   median %.3f, worst %.3f (%s); %zu of %zu within %.2g\n",
                s.medianAbsShift, s.maxAbsShift, c.names[s.worstShift].c_str(), s.withinShift, s.parameters,
                s.shiftTolerance);
    std::printf("  sd ratio sd / ref sd               median %.3f, range %.3f to %.3f (worst %s); %zu of %zu within "
                "%.0f%%\n",
                s.medianSdRatio, s.minSdRatio, s.maxSdRatio, c.names[s.worstSdRatio].c_str(), s.withinSdRatio,
                s.parameters, 100.0 * s.sdRatioTolerance);
    std::printf("  shifts beyond 3 Monte Carlo standard errors (of both means): %zu of %zu (Monte Carlo error alone: "
                "about %.1f)\n",
                s.beyondThreeMcse, s.parameters, 0.0027 * static_cast<double>(s.parameters));
}

nlohmann::ordered_json comparisonJson(const Comparison &c, const std::vector<std::string> &files)
{
    const core::AgreementSummary &s = c.summary;
    return {{"files", files},
            {"chains", c.chains},
            {"draws_per_chain", c.draws},
            {"parameters", s.parameters},
            {"mean_shift_tolerance_sd", s.shiftTolerance},
            {"sd_ratio_tolerance", s.sdRatioTolerance},
            {"median_abs_mean_shift_sd", s.medianAbsShift},
            {"max_abs_mean_shift_sd", s.maxAbsShift},
            {"worst_mean_shift_parameter", c.names[s.worstShift]},
            {"within_mean_shift_tolerance", s.withinShift},
            {"median_sd_ratio", s.medianSdRatio},
            {"min_sd_ratio", s.minSdRatio},
            {"max_sd_ratio", s.maxSdRatio},
            {"worst_sd_ratio_parameter", c.names[s.worstSdRatio]},
            {"within_sd_ratio_tolerance", s.withinSdRatio},
            {"mean_shifts_beyond_3_mcse", s.beyondThreeMcse}};
}

} // namespace

int diagnoseCommand(int argc, char **argv)
{
    const Request request = parse(argc, argv);
    if (!request.summaryPath.empty())
        requireWritable("summary", request.summaryPath);
    std::vector<std::string> notes;
    const std::vector<core::SamplesTable> chains = readChains(request.files, &notes);
    for (const std::string &note : notes)
        std::printf("note: %s\n", note.c_str());
    if (!notes.empty())
        std::printf("\n");
    const std::vector<std::size_t> columns = parameterColumns(chains.front());
    if (columns.empty())
        throw UsageError(chains.front().fileName + ": no parameter columns (every column name ends in \"__\")");

    const std::vector<core::ParameterSummary> summaries = summarize(chains, columns);
    std::optional<Comparison> comparison;
    if (!request.references.empty())
        comparison = compareWithReference(chains.front(), columns, summaries, request.references);

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
    if (comparison)
        printComparison(*comparison, request.references);

    if (!request.summaryPath.empty()) {
        nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const core::ParameterSummary &s = summaries[i];
            parameters[chains.front().columns[columns[i]]] = {
                {"mean", s.mean}, {"sd", s.sd},           {"mcse_mean", s.mcseMean}, {"q5", s.q5},      {"q50", s.q50},
                {"q95", s.q95},   {"ess_bulk", s.essBulk}, {"ess_tail", s.essTail},   {"r_hat", s.rhat}};
        }
        nlohmann::ordered_json root = {
            {"chains", chains.size()}, {"draws_per_chain", chains.front().draws()}, {"parameters", parameters}};
        if (comparison) {
            for (std::size_t j = 0; j < comparison->names.size(); ++j) {
                const core::ParameterAgreement &a = comparison->agreement[j];
                nlohmann::ordered_json &entry = root["parameters"][comparison->names[j]];
                entry["reference_mean"] = comparison->reference[j].mean;
                entry["reference_sd"] = comparison->reference[j].sd;
                entry["mean_shift_sd"] = a.meanShiftInSd;
                entry["mean_shift_mcse"] = a.meanShiftInMcse;
                entry["sd_ratio"] = a.sdRatio;
            }
            root["reference"] = comparisonJson(*comparison, request.references);
        }
        core::writeJsonFile(request.summaryPath, root);
    }
    return 0;
}

} // namespace cli
