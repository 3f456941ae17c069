#pragma once
// Reading a RunConfig from the command line, and getting a correction table with progress.
#include <memory>
#include <initializer_list>
#include <set>
#include <string>

#include "app/cli/arguments.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/run_request.h"
#include "core/experiment/settings/settings_table.h"

namespace cli {

/// Options shared by `run`, `compare` and `bench`.
const std::set<std::string> &runValueOptions();
/// `options` without `unused`: a command rejects the run options it would otherwise ignore.
std::set<std::string> without(std::set<std::string> options, std::initializer_list<const char *> unused);

/// Flags shared by them (the table's switches and --no-cache).
const std::set<std::string> &runFlags();

/// --methods as a list of methods, each optionally with its control variates
/// ("minibatch,minibatch+taylor2,mh"), into request.methods and, when any names control
/// variates, request.controlVariates (the others taking --control-variates). `fallback` is the
/// list when --methods is not given. Sets request.config.method to the first.
void readMethods(const Arguments &args, const std::string &fallback, core::RunRequest &request);

/// Reads and validates; a core validation failure becomes a UsageError naming the --option.
/// `notSettings`: setting flags the command takes for something else (sweep's --csv is its
/// output, not the logistic-regression data), left at their defaults. Settings not given come
/// from --preset, or `defaultPreset` without it, for the methods of --methods, or of
/// `methodsFallback` (a comma list) without it, or of --method when both are empty.
core::RunConfig readRunConfig(const Arguments &args, const std::set<std::string> &notSettings = {},
                              const std::string &methodsFallback = {},
                              core::Preset defaultPreset = core::Preset::Recommended);

/// Sets `spec` from its --flag when given (the table's parser; errors name the --flag).
void readSetting(const Arguments &args, const core::SettingSpec &spec, core::RunConfig &config);

/// Reads --sigma --lambda --grid --range --solver into `params` and validates them.
void readCorrectionParams(const Arguments &args, core::CorrectionParams &params);

/// Loads the table from the cache or solves it, with a progress bar; Ctrl-C cancels.
std::shared_ptr<const core::CorrectionDistribution> obtainCorrection(const core::CorrectionParams &params,
                                                                     bool useCache, bool *fromCache = nullptr);

/// Checks before any work that --`option` names a creatable file; UsageError if not.
void requireWritable(const std::string &option, const std::string &path);
/// For the commands whose --csv is an output table (compare, sweep, austere-design): with
/// logistic regression, where `run --csv FILE` reads FILE as the data, refuses a FILE that
/// exists, so that a user who meant "my data" never has the table written over it.
void refuseCsvOverData(const core::RunConfig &config, const std::string &csvPath);

/// Runs `check` and turns std::invalid_argument into a UsageError prefixed with "--".
template <typename Check>
void asUsage(Check &&check)
{
    try {
        check();
    } catch (const std::invalid_argument &error) {
        throw UsageError(std::string("--") + error.what());
    } catch (const std::domain_error &error) {
        throw UsageError(std::string("--") + error.what());
    }
}

} // namespace cli
