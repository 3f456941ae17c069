#pragma once
// The subcommands of mh-explorer-cli. Each returns the process exit code; bad arguments
// throw UsageError (exit 2), failures while running throw std::runtime_error (exit 1).
#include <stop_token>

namespace cli {

int runCommand(int argc, char **argv);
int correctionCommand(int argc, char **argv);
int datasetCommand(int argc, char **argv);
int benchCommand(int argc, char **argv);
int compareCommand(int argc, char **argv);
int sweepCommand(int argc, char **argv);
int austereDesignCommand(int argc, char **argv);
int diagnoseCommand(int argc, char **argv);

/// A stop token that is triggered by Ctrl-C (SIGINT) or SIGTERM.
std::stop_token interruptToken();
/// Turns a pending signal into a stop request at once (a watcher thread does so within 20 ms).
void pollInterrupt();

} // namespace cli
