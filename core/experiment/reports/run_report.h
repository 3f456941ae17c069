#pragma once
/// The files a finished run leaves behind, each with one writer shared by the CLI and the GUI
/// (their formats: docs/file-formats.md):
/// - one CmdStan-like samples CSV per chain, whose `# key = value` header holds every setting
///   needed to run it again, the data's description and the chain's segments;
/// - one summary JSON, the same schema from `mh-explorer-cli run`, `compare` and the window:
///   the settings at the top level, then the data, the preparation steps and a `chains` array
///   with every chain's figures;
/// - for a compare, the Markdown table and per-trial CSV of compare_report.h.
/// Every writer is atomic: on failure it throws std::runtime_error naming the path and leaves
/// no partial file.
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/experiment/service/run_outcome.h"
#include "core/experiment/reports/samples_header.h"
#include "core/io/samples_csv.h"

namespace core {

/// The `# key = value` header of one chain's samples CSV. `program` names the writer
/// ("mh-explorer-cli run", "mh-explorer").
CsvMetadata samplesCsvMetadata(const RunOutcome &outcome, const ChainReport &chain, const std::string &program);

/// What a samples header says of the run's data (samples_header.h).
SampledDataFacts sampledDataFacts(const RunOutcome &outcome);

/// The file of one chain: `path` itself when the run has one chain, else `path` with
/// "-<method>-chain<k>" inserted before the suffix (".csv" when there is none).
std::string chainSamplesPath(const RunOutcome &outcome, const ChainReport &chain, const std::string &path);
/// The same for channel `channel` of `request`, before its chain has a report.
std::string channelSamplesPath(const RunRequest &request, int channel, const std::string &path);

/// The lp__ column of a chain's rows (see log_posterior_column.h): from the binned exact
/// posterior for the mixture, from full-data passes otherwise. Empty when neither is known, when
/// `stop` is requested, or when the passes would cost too much (rows read in place from a file,
/// or more than kLogPosteriorColumnBudget points): then `whyOmitted`, when given, receives the
/// reason a samples file states in its `lp_omitted` line.
std::vector<double> logPosteriorOf(const RunOutcome &outcome, const ChainResult &chain, std::stop_token stop = {},
                                   std::string *whyOmitted = nullptr);

/// A samples file made by `run --resume` (its first draws from the cut run, the rest appended
/// by `outcome`'s run) rewritten, atomically, with the lp__ column a finished file has, computed
/// as writeRunSamples() computes it from the file's draws. Returns the reason lp__ stays out
/// (the file is then left as it is), or empty when it was added.
std::string addLogPosteriorToResumedSamples(const RunOutcome &outcome, const std::string &path,
                                            std::stop_token stop = {});

/// Writes every chain's samples CSV. Returns the paths written. Throws std::invalid_argument
/// when the outcome has no chains or kept no samples, std::runtime_error (path and reason) on
/// the first failure.
std::vector<std::string> writeRunSamples(const RunOutcome &outcome, const std::string &path,
                                         const std::string &program, std::stop_token stop = {});

/// The summary of a run as JSON. NaN figures (a metric the run does not have) are null.
nlohmann::ordered_json runSummaryJson(const RunOutcome &outcome, const std::string &program);
void writeRunSummary(const RunOutcome &outcome, const std::string &path, const std::string &program);

/// Logistic regression (Seita et al., "Minibatch Acceptance Test" (later version), Sec. 6.2, Fig.
/// 3): test accuracy and mean test log-likelihood every config.traceStride samples against the data
/// consumed so far, with the mean training log-likelihood. Throws std::invalid_argument for other
/// datasets.
void writeClassifierTrace(const RunOutcome &outcome, const ChainReport &chain, const std::string &path);

} // namespace core
