// mh-explorer-cli: headless runs, correction tables, data export and benchmarks.
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/data/full_pass_notice.h"
#include "core/experiment/settings/method_registry.h"
#include "core/install/install_layout.h"

namespace {

const char *kUsageTemplate =
    "usage: mh-explorer-cli <command> [options]\n"
    "       mh-explorer-cli --help | --version\n"
    "\n"
    "commands:\n"
    "  run         sample a posterior with one acceptance test\n"
    "              --preset {recommended,paper} (settings not given: mixing ones, or Seita et al.'s)\n"
    "              --dataset {gmm,worst-case,logreg,tall-logreg}\n"
    "              --method {@METHODS@}\n"
    "              --samples S --seed K\n"
    "              [--n-data N --data-seed K --temperature T --step s --batch m --batch-growth g\n"
    "               --sigma S --lambda L --solver {ridge,nnls} --grid N --range V --delta D --no-fpc\n"
    "               --epsilon E --error-bound B --pilot P --gamma G --sublhd-p P --sublhd-delta D\n"
    "               --sublhd-model-bound --burn-in B --anneal-from T0 --burn-in-step s0\n"
    "               --proposal {rw,langevin,adaptive,adaptive-langevin,laplace-langevin,laplace-cn,\n"
    "               laplace-hmc} --grad-batch B --leapfrog-steps K --adapt-target A]\n"
    "              logreg: --source NAME | --images F --labels F | --csv F, --classes 1,7 --test-size K\n"
    "               --augment-to N --prior-sd S --bias --trace trace.csv --trace-every K\n"
    "              [--chains K [--parallel | --threads N]] [--out samples.csv] [--summary summary.json]\n"
    "              (with K chains, samples.csv becomes samples-<method>-chain<k>.csv)\n"
    "              --from samples.csv: the settings in that file's header (the same chain again)\n"
    "              --resume samples.csv: continue a cut-short run written with --checkpoint-every K\n"
    "              --burn-in B: the first B samples warm up at T (or at --anneal-from T0); they are not\n"
    "               counted in ESS, R-hat or the acceptance figures, and without --anneal-from not written\n"
    "              ESS per second = min bulk ESS / the chain's whole wall time, burn-in included;\n"
    "              data points per ESS = every point the chain read, burn-in included / min bulk ESS;\n"
    "              with --chains K, also pooled over the K chains (the summary's \"pooled\")\n"
    "  compare     several methods on the same data and seeds K..K+trials-1, as a Markdown table\n"
    "              --methods minibatch,austere-c,sublhd,barker --trials K --out table.md [--csv table.csv]\n"
    "              [--summary summary.json] [--threads N: trials in parallel] and any run option\n"
    "  sweep       one numeric setting over a range, the same methods and trials at every point\n"
    "              --vary NAME=FROM:TO:COUNT [--log] --methods minibatch,barker [--trials K]\n"
    "              [--csv rows.csv] [--summary summary.json] [--threads N: points in parallel, 0 = all cores]\n"
    "              and any run option but the varied one\n"
    "  austere-design  choose AustereMH's (m, epsilon) under --error-bound B from --pilot P proposals\n"
    "              (any run option; --csv candidates.csv --summary design.json)\n"
    "  correction  solve the correction distribution X_corr\n"
    "              --sigma S --lambda L --grid N --range V --solver {ridge,nnls} [--no-cache]\n"
    "              [--out table.csv] [--summary s.json]\n"
    "  dataset     export generated data: --dataset gmm --seed K [--n-data N] --out data.csv\n"
    "              --dataset tall-logreg --n-data N --dimension d [--data-seed S] --out rows.npy|rows.csv\n"
    "              (the label in the last column; written as a stream, larger than memory too)\n"
    "              --data your.csv|your.svm [--label-column C] --out rows.npy: your CSV or LIBSVM\n"
    "              file as an array a run reads in place (two passes, a line at a time)\n"
    "  diagnose    posterior summary of samples CSVs (ours or CmdStan's), one chain per file: mean,\n"
    "              sd, MCSE, 5/50/95% quantiles, bulk and tail ESS, split R-hat; with --reference\n"
    "              (one per reference chain), each parameter's mean shift in reference sds and MCSEs\n"
    "              and its sd ratio against them\n"
    "              FILE... [--reference REF.csv]... [--summary summary.json]\n"
    "  bench       iterations/s of minibatch vs full-data tests on the same data\n"
    "              [--n-data N --minibatch-iterations I --full-iterations J --seed K] [--summary b.json]\n"
    "\n"
    "Each command lists its options with --help (mh-explorer-cli run --help).\n"
    "\n"
    "Defaults follow the paper's Gaussian-mixture experiment: N = 1e6, T = 1e4, step 0.15 (the\n"
    "proposal's standard deviation), m = 100, growth 100, sigma = 1, NNLS correction\n"
    "(--solver ridge --lambda 10 is the paper's solver).\n";

// The usage text with the method table's names in place of @METHODS@.
std::string usage()
{
    std::string names;
    // Appended piece by piece: GCC 12 takes "+" on std::string for an overlapping memcpy
    // (-Wrestrict).
    for (const core::TestMethod method : core::allMethods()) {
        if (!names.empty())
            names += ',';
        names += core::methodName(method);
    }
    std::string text = kUsageTemplate;
    const std::string slot = "@METHODS@";
    text.replace(text.find(slot), slot.size(), names);
    return text;
}

using CommandHandler = int (*)(int, char **);
constexpr std::pair<const char *, CommandHandler> kCommands[] = {
    {"run", cli::runCommand},         {"compare", cli::compareCommand},
    {"sweep", cli::sweepCommand},     {"austere-design", cli::austereDesignCommand},
    {"correction", cli::correctionCommand}, {"dataset", cli::datasetCommand},
    {"diagnose", cli::diagnoseCommand}, {"bench", cli::benchCommand},
};

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0
        || std::strcmp(argv[1], "help") == 0) {
        std::fputs(usage().c_str(), argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0) {
        std::printf("mh-explorer-cli %s\n", core::projectVersion().c_str());
        return 0;
    }
    const std::string command = argv[1];
    // Passes over a file read in place take minutes; say so before each starts.
    core::setFullPassListener([](const std::string &text) { std::fprintf(stderr, "mh-explorer-cli: %s\n", text.c_str()); });
    try {
        for (const auto &[name, handler] : kCommands)
            if (command == name)
                return handler(argc, argv);
        std::string names;
        for (const auto &entry : kCommands)
            names += (names.empty() ? "" : ", ") + std::string(entry.first);
        std::fprintf(stderr, "mh-explorer-cli: unknown command '%s' (%s)\n", command.c_str(), names.c_str());
        return 2;
    } catch (const cli::HelpRequested &help) {
        std::fputs(help.text.c_str(), stdout);
        return 0;
    } catch (const cli::UsageError &error) {
        std::fprintf(stderr, "mh-explorer-cli %s: %s\n", command.c_str(), error.what());
        return 2;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "mh-explorer-cli %s: %s\n", command.c_str(), error.what());
        return 1;
    }
}
