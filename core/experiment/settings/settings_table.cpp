#include "core/experiment/settings/settings_table.h"

#include "core/experiment/settings/prose.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/data/classification_data.h"
#include "core/data/data_file.h"
#include "core/data/data_formats.h"
#include "core/data/delimited_text.h"
#include "core/experiment/settings/presets.h"
#include "core/io/number_format.h"

namespace core {
namespace {

// `convert` must read the whole text (std::stoll and friends report how much they read).
template <typename Convert>
auto parseWhole(const std::string &name, const std::string &text, const char *expected, Convert convert)
{
    std::size_t used = 0;
    decltype(convert(text, &used)) value{};
    try {
        value = convert(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw std::invalid_argument(name + ": expected " + expected + "; got '" + text + "'");
    return value;
}

// Whole numbers as people write them: 1000000, 1e6 or 1_000_000.
std::int64_t parseInteger(const std::string &name, const std::string &text)
{
    std::string digits;
    for (char c : text)
        if (c != '_')
            digits += c;
    // Plain digits are read exactly: through a double, whole numbers above 2^53 would change
    // (a session saved and read back would not be the same session).
    const std::size_t signs = !digits.empty() && (digits[0] == '-' || digits[0] == '+') ? 1 : 0;
    if (digits.size() > signs
        && std::all_of(digits.begin() + static_cast<std::ptrdiff_t>(signs), digits.end(),
                       [](char c) { return c >= '0' && c <= '9'; }))
        return parseWhole(name, digits, "a whole number",
                          [](const std::string &t, std::size_t *used) { return std::int64_t{std::stoll(t, used)}; });
    const double value = parseWhole(name, digits, "a whole number",
                                    [](const std::string &t, std::size_t *used) { return std::stod(t, used); });
    if (value != static_cast<double>(static_cast<std::int64_t>(value)) || std::abs(value) > 9.0e18)
        throw std::invalid_argument(name + ": expected a whole number; got '" + text + "'");
    return static_cast<std::int64_t>(value);
}

std::uint64_t parseSeed(const std::string &name, const std::string &text)
{
    // stoull reads "-1" as 2^64 - 1: a seed never has a sign.
    if (!text.empty() && (text.front() == '-' || text.front() == '+'))
        throw std::invalid_argument(name + ": expected a non-negative whole number; got '" + text + "'");
    return parseWhole(name, text, "a non-negative whole number",
                      [](const std::string &t, std::size_t *used) { return std::uint64_t{std::stoull(t, used)}; });
}

double parseReal(const std::string &name, const std::string &text)
{
    return parseWhole(name, text, "a number", [](const std::string &t, std::size_t *used) { return std::stod(t, used); });
}

bool parseFlag(const std::string &name, const std::string &text)
{
    if (text == "1" || text == "true")
        return true;
    if (text == "0" || text == "false")
        return false;
    throw std::invalid_argument(name + ": expected 0 or 1; got '" + text + "'");
}

// `field(config)` gives the member, const or not.
template <typename Field>
SettingSpec integer(std::string key, std::string flag, std::string help, Field field)
{
    SettingSpec spec{std::move(key), std::move(flag), std::move(help), SettingType::Integer, SettingScope::Every, false, {}, {}, {}, {}};
    spec.get = [field](const RunConfig &c) { return SettingValue(static_cast<std::int64_t>(field(c))); };
    spec.set = [field](RunConfig &c, const std::string &name, const std::string &text) {
        using Target = std::remove_reference_t<decltype(field(c))>;
        const std::int64_t value = parseInteger(name, text);
        if (value < std::numeric_limits<Target>::min() || value > std::numeric_limits<Target>::max())
            throw std::invalid_argument(name + " must be in [" + std::to_string(std::numeric_limits<Target>::min())
                                        + ", " + std::to_string(std::numeric_limits<Target>::max()) + "]; got " + text);
        field(c) = static_cast<Target>(value);
    };
    return spec;
}

// A setting stored as read: `parse(name, text)` gives the member's value.
template <typename Field, typename Parse>
SettingSpec parsed(std::string key, std::string flag, std::string help, SettingType type, Field field, Parse parse)
{
    SettingSpec spec{std::move(key), std::move(flag), std::move(help), type, SettingScope::Every, false, {}, {}, {}, {}};
    spec.get = [field](const RunConfig &c) { return SettingValue(field(c)); };
    spec.set = [field, parse](RunConfig &c, const std::string &name, const std::string &text) {
        field(c) = parse(name, text);
    };
    return spec;
}

template <typename Field>
SettingSpec seed(std::string key, std::string flag, std::string help, Field field)
{
    return parsed(std::move(key), std::move(flag), std::move(help), SettingType::Seed, field, parseSeed);
}

template <typename Field>
SettingSpec real(std::string key, std::string flag, std::string help, Field field)
{
    return parsed(std::move(key), std::move(flag), std::move(help), SettingType::Real, field, parseReal);
}

template <typename Field>
SettingSpec text(std::string key, std::string flag, std::string help, Field field)
{
    return parsed(std::move(key), std::move(flag), std::move(help), SettingType::Text, field,
                  [](const std::string &, const std::string &value) { return value; });
}

/// A setting held in another form than its text (an enum, a pair): `show` writes it, `read`
/// parses it and throws std::invalid_argument naming the allowed values.
SettingSpec named(std::string key, std::string flag, std::string help,
                  std::function<std::string(const RunConfig &)> show,
                  std::function<void(RunConfig &, const std::string &)> read)
{
    SettingSpec spec{std::move(key), std::move(flag), std::move(help), SettingType::Text, SettingScope::Every, false, {}, {}, {}, {}};
    spec.get = [show = std::move(show)](const RunConfig &c) { return SettingValue(show(c)); };
    spec.set = [read = std::move(read)](RunConfig &c, const std::string &, const std::string &value) { read(c, value); };
    return spec;
}

/// A setting kept as its text, which `check(text)` vets first (it throws std::invalid_argument
/// naming the accepted values).
template <typename Field, typename Check>
SettingSpec checkedText(std::string key, std::string flag, std::string help, Field field, Check check)
{
    return parsed(std::move(key), std::move(flag), std::move(help), SettingType::Text, field,
                  [check](const std::string &, const std::string &value) {
                      check(value);
                      return value;
                  });
}

/// A boolean setting; `switchValue` is what the bare command-line flag sets it to.
template <typename Field>
SettingSpec flag(std::string key, std::string flagName, std::string help, bool switchValue, Field field)
{
    SettingSpec spec{std::move(key), std::move(flagName), std::move(help), SettingType::Flag, SettingScope::Every,
                     false, switchValue ? "1" : "0", {}, {}, {}};
    spec.get = [field](const RunConfig &c) { return SettingValue(static_cast<bool>(field(c))); };
    spec.set = [field](RunConfig &c, const std::string &name, const std::string &value) {
        field(c) = parseFlag(name, value);
    };
    return spec;
}

/// The spec, offered only where `scope` says (a dataset's or a model's own setting).
SettingSpec inScope(SettingScope scope, SettingSpec spec)
{
    spec.scope = scope;
    return spec;
}

/// What --step means for this run's method and proposal: a note that files carry for readers,
/// since several methods read the step as something other than a random-walk sd.
std::string stepMeaning(const RunConfig &c)
{
    if (c.method == TestMethod::Sgld)
        return std::string("SGLD noise standard deviation h per coordinate: epsilon = h^2, drift epsilon/2 times "
                           "the minibatch gradient, no accept step");
    if (c.method == TestMethod::ZigZag)
        return std::string(c.zigzagSpacing > 0.0 ? "not used: the Zig-Zag skeleton is read off every zigzag_spacing"
                                                 : "a tenth of the time between the Zig-Zag skeleton's "
                                                   "outputs (speed 1 per coordinate)");
    if (c.method == TestMethod::Sghmc)
        return std::string("SGHMC time step h: learning rate epsilon = h^2, momentum noise variance 2 alpha "
                           "epsilon, no accept step");
    switch (c.proposal) {
    case ProposalKind::Langevin:
        return std::string("Langevin noise standard deviation h per coordinate (drift h^2/2 times the gradient)");
    case ProposalKind::LaplaceLangevin:
        return std::string("initial Langevin noise standard deviation h; the Laplace covariance preconditions it "
                           "and the burn-in adapts h");
    case ProposalKind::LaplaceHamiltonian:
        return std::string("not used: the leapfrog step starts at d^(-1/4) in the units the Laplace covariance "
                           "whitens and the burn-in adapts it");
    case ProposalKind::LaplaceCrankNicolson:
        return std::string("not used: the Crank-Nicolson scale s starts at 1 (independent draws from the Laplace "
                           "approximation) and the burn-in adapts it within (0, 1]");
    case ProposalKind::AdaptiveLangevin:
        return std::string("initial Langevin noise standard deviation h; the burn-in adapts it and a diagonal "
                           "preconditioner");
    case ProposalKind::Adaptive:
        return std::string("initial proposal standard deviation per coordinate; the burn-in adapts it");
    case ProposalKind::RandomWalk: break;
    }
    return std::string("proposal standard deviation per coordinate");
}

/// The run's identity: preset, dataset, method, length, seeds, temperature and step.
void appendRunRows(std::vector<SettingSpec> &table)
{
    table.push_back(named(
        "preset", "preset",
        "recommended (a proposal that mixes on the dataset, its burn-in and enough samples for thousands of "
        "effective draws; logreg: a N(0, I) prior; tall-logreg: taylor2 control variates; worst-case: N = 100000) or paper (Seita et al. "
        "Sec. 6's settings: 3000 random-walk samples; every reproduction of their figures names it); fills only "
        "the settings not given [recommended]",
        [](const RunConfig &c) { return presetName(c.preset); },
        [](RunConfig &c, const std::string &value) { c.preset = parsePreset(value); }));
    std::vector<std::string_view> datasetHelps;
    for (const DatasetEntry &entry : datasetTable())
        datasetHelps.push_back(entry.help);
    std::string datasetHelp = joinAsProse(datasetHelps);
    datasetHelp += " [gmm]";
    SettingSpec dataset = text("dataset", "dataset", datasetHelp,
                               [](auto &c) -> auto & { return c.dataset; });
    table.push_back(dataset);
    table.push_back(named(
        "method", "method", methodNames("or") + " [minibatch]",
        [](const RunConfig &c) { return methodName(c.method); },
        [](RunConfig &c, const std::string &value) {
            // "sgld+taylor1" names the method and its control variates at once, as --methods does.
            const auto [method, controlVariates] = parseMethodVariant(value);
            c.method = method;
            if (controlVariates)
                c.controlVariates = *controlVariates;
        }));
    table.push_back(integer("samples", "samples", "iterations per chain [paper 3000; recommended: gmm 100000, tall-logreg 20000, logreg images 10000 (2 chains), worst-case 10000, when every method reads a minibatch (" + methodNames("and", [](const MethodEntry &row) { return row.readsSmallMinibatch; }) + "); flymc on tall data, alone or with methods that read a minibatch, 150000]", [](auto &c) -> auto & { return c.samples; }));
    table.push_back(seed("seed", "seed", "the chain's random stream (chain k uses seed + k) [1]",
                         [](auto &c) -> auto & { return c.seed; }));
    // The data seed also seeds the logistic-regression split and augmentation; files record
    // those two as well (split_seed, augment_seed, later in the table) and read them back last.
    SettingSpec dataSeed = seed("data_seed", "data-seed", "the generated data, the same for every chain and method [1]",
                                [](auto &c) -> auto & { return c.dataSeed; });
    dataSeed.set = [](RunConfig &c, const std::string &name, const std::string &value) {
        c.dataSeed = c.logreg.splitSeed = c.logreg.augmentSeed = parseSeed(name, value);
    };
    table.push_back(dataSeed);
    table.push_back(real("temperature", "temperature", "T > 0: divides every log-likelihood [1e4; worst-case and tall-logreg 1, logreg 100 (recommended for a --csv table: 1)]",
                         [](auto &c) -> auto & { return c.temperature; }));
    table.push_back(real("step", "step", "proposal standard deviation per coordinate (langevin, sgld: its noise sd h; sghmc: its time step h) [0.15; worst-case and tall-logreg 1/sqrt(N), logreg 0.05]",
                         [](auto &c) -> auto & { return c.step; }));
    SettingSpec meaning = named("step_meaning", "", "", stepMeaning,
                                [](RunConfig &, const std::string &) {}); // a note for readers
    meaning.noteOnly = true;
    table.push_back(meaning);
}

/// The burn-in, the proposal and the control variates.
void appendProposalRows(std::vector<SettingSpec> &table)
{
    table.push_back(integer("burn_in", "burn-in", "first B of the samples are a burn-in at --temperature (or --anneal-from): not written, not counted [paper 0; recommended: samples/10 for a proposal that learns, logreg samples/6]",
                            [](auto &c) -> auto & { return c.burnIn; }));
    table.push_back(integer("checkpoint_every", "checkpoint-every",
                            "restart the random stream every K draws after the burn-in, so that a run cut short "
                            "continues exactly with run --resume FILE (not flymc) [0: one stream]",
                            [](auto &c) -> auto & { return c.checkpointEvery; }));
    table.push_back(real("anneal_from", "anneal-from", "anneal the burn-in from temperature T0 > 0 [0: burn-in at --temperature]",
                         [](auto &c) -> auto & { return c.annealFrom; }));
    table.push_back(real("burn_in_step", "burn-in-step", "burn-in proposal sd [0: --step]",
                         [](auto &c) -> auto & { return c.burnInStep; }));
    table.push_back(named(
        "proposal", "proposal",
        "rw (Gaussian random walk), langevin (minibatch-gradient Langevin, see --grad-batch) adaptive (random walk "
        "whose covariance and scale are learned during --burn-in, then frozen) adaptive-langevin (Langevin whose "
        "diagonal preconditioner and step are learned during --burn-in, then frozen) or laplace-langevin (logreg: "
        "Langevin preconditioned by the Laplace approximation's covariance, its step learned during --burn-in) or "
        "laplace-cn (logreg: Crank-Nicolson moves around the Laplace approximation, exact for any fit since the "
        "test weighs the posterior against it; their scale learned during --burn-in) or laplace-hmc (logreg: "
        "Hamiltonian trajectories of --leapfrog-steps steps with the Laplace covariance as inverse mass matrix, "
        "their step learned during --burn-in) [paper rw; recommended: gmm adaptive, logreg laplace-hmc (a --csv table: laplace-cn), tall-logreg laplace-cn, worst-case rw]",
        [](const RunConfig &c) { return proposalName(c.proposal); },
        [](RunConfig &c, const std::string &value) { c.proposal = parseProposal(value); }));
    table.push_back(real("adapt_target", "adapt-target",
                         "adaptive, adaptive-langevin, laplace-langevin, laplace-cn, laplace-hmc: acceptance rate the burn-in tunes the proposal's scale toward, in (0, 0.5) for Barker-type tests, (0, 1) otherwise [0.3]",
                         [](auto &c) -> auto & { return c.adaptTarget; }));
    table.push_back(integer("grad_batch", "grad-batch", "langevin and hmc proposals, sgld and sghmc: rows of the gradient's minibatch, in [1, N], or 0: N/30 within 100..400 [100; recommended on logreg images: 0]",
                            [](auto &c) -> auto & { return c.gradBatch; }));
    table.push_back(integer("leapfrog_steps", "leapfrog-steps", "laplace-hmc: mean leapfrog steps per trajectory (each draws 1 to 2K-1), in [1, 1000] [4]",
                            [](auto &c) -> auto & { return c.leapfrogSteps; }));
    table.push_back(named(
        "control_variates", "control-variates",
        "auto, none, taylor1 or taylor2: Taylor proxies around the posterior mode as control variates for "
            + methodNames("and", takesControlVariates)
            + "; the minibatch estimates only their residuals (sgld, sghmc and zigzag: first order only) [auto: taylor2 for "
            + methodNames("and", [](const MethodEntry &row) {
                  return controlVariatesOnByDefault(row) && row.maxControlVariateOrder >= 2;
              })
            + ", taylor1 for "
            + methodNames("and", [](const MethodEntry &row) {
                  return controlVariatesOnByDefault(row) && row.maxControlVariateOrder < 2;
              })
            + ", none otherwise; recommended preset on tall-logreg: taylor2 when every method takes it]",
        [](const RunConfig &c) { return controlVariatesName(resolvedControlVariates(c)); },
        [](RunConfig &c, const std::string &value) { c.controlVariates = parseControlVariates(value); }));
}

/// The acceptance tests' own settings: the minibatch test, its correction and the baselines.
void appendTestRows(std::vector<SettingSpec> &table)
{
    // m is the baselines' first batch too, unless a file says otherwise (austere_batch and
    // sublhd_batch come later in the table).
    SettingSpec batch = integer("batch", "batch", "initial minibatch m >= 2, for every method [100]",
                                [](auto &c) -> auto & { return c.minibatch.initialBatch; });
    batch.set = [](RunConfig &c, const std::string &name, const std::string &value) {
        const std::int64_t m = parseInteger(name, value);
        if (m < 2 || m > std::numeric_limits<std::int32_t>::max())
            throw std::invalid_argument(name + " must be in [2, 2147483647]; got " + value);
        c.minibatch.initialBatch = c.austere.batch = c.sublhd.batch = static_cast<DataIndex>(m);
    };
    table.push_back(batch);
    table.push_back(integer("batch_growth", "batch-growth", "minibatch growth per step [100]",
                            [](auto &c) -> auto & { return c.minibatch.batchGrowth; }));
    table.push_back(real("delta", "delta", "CLT error bound of Corollary 1 [0: off]",
                         [](auto &c) -> auto & { return c.minibatch.cltBound; }));
    table.push_back(flag("finite_population_correction", "no-fpc",
                         "draw with replacement and test s^2/b instead of the finite-population factor", false,
                         [](auto &c) -> auto & { return c.minibatch.finitePopulationCorrection; }));
    table.push_back(real("sigma", "sigma", "correction noise sd in (0, 1.8138) [1]",
                         [](auto &c) -> auto & { return c.correction.sigma; }));
    table.push_back(real("lambda", "lambda", "correction ridge penalty >= 0 [10]",
                         [](auto &c) -> auto & { return c.correction.lambda; }));
    table.push_back(named(
        "solver", "solver", "correction solver: nnls or ridge (the paper's) [nnls]",
        [](const RunConfig &c) { return solverName(c.correction.solver); },
        [](RunConfig &c, const std::string &value) { c.correction.solver = parseSolver(value); }));
    table.push_back(integer("grid", "grid", "correction grid points N in [10, 10000] [4000]",
                            [](auto &c) -> auto & { return c.correction.grid; }));
    table.push_back(real("range", "range", "correction support [-V, V] [20]",
                         [](auto &c) -> auto & { return c.correction.range; }));
    table.push_back(integer("austere_batch", "", "", [](auto &c) -> auto & { return c.austere.batch; }));
    table.push_back(real("epsilon", "epsilon", "AustereMH(c) test level [0.005]",
                         [](auto &c) -> auto & { return c.austere.epsilon; }));
    table.push_back(integer("sublhd_batch", "", "", [](auto &c) -> auto & { return c.sublhd.batch; }));
    table.push_back(real("error_bound", "error-bound", "AustereMH: design (m, epsilon) under this mean |dP| [0: off; recommended when austere-nc runs: 0.05]",
                         [](auto &c) -> auto & { return c.austereErrorBound; }));
    table.push_back(real("gamma", "gamma", "MHSubLhd batch growth factor [1.5]", [](auto &c) -> auto & { return c.sublhd.gamma; }));
    table.push_back(real("sublhd_p", "sublhd-p", "MHSubLhd p [2]", [](auto &c) -> auto & { return c.sublhd.p; }));
    table.push_back(real("sublhd_delta", "sublhd-delta", "MHSubLhd delta [0.01]",
                         [](auto &c) -> auto & { return c.sublhd.delta; }));
    table.push_back(flag("sublhd_model_bound", "sublhd-model-bound", "MHSubLhd: the model's closed-form range bound",
                         true, [](auto &c) -> auto & { return c.sublhd.useModelBound; }));
    table.push_back(integer("pilot", "pilot", "AustereMH(c) design: pilot proposals [200]",
                            [](auto &c) -> auto & { return c.austerePilot; }));
    table.push_back(integer("trace_every", "trace-every", "logreg: evaluate the test set every K samples [10]",
                            [](auto &c) -> auto & { return c.traceStride; }));
}

/// Where the data come from: generated sizes, files and their parsing, the split.
void appendDataRows(std::vector<SettingSpec> &table)
{
    SettingSpec nData = integer("n_data_requested", "n-data", "generated data size N [1000000; recommended worst-case 100000]",
                                [](auto &c) -> auto & { return c.nData; });
    nData.scope = SettingScope::GeneratedData;
    table.push_back(nData);
    SettingSpec dimension = integer("dimension", "dimension",
                                    "tall-logreg, tall-glm: the model's weights d, the bias included, in [2, 10000] [20]",
                                    [](auto &c) -> auto & { return c.dimension; });
    dimension.scope = SettingScope::TallLogreg;
    table.push_back(dimension);
    table.push_back(inScope(SettingScope::Logreg, text("source", "source", "logreg: image source name [auto]",
                                    [](auto &c) -> auto & { return c.logreg.source; })));
    table.push_back(inScope(SettingScope::Logreg, text("images", "images", "logreg: IDX image file (with --labels)",
                                    [](auto &c) -> auto & { return c.logreg.images; })));
    table.push_back(inScope(SettingScope::FileData, text("labels", "labels", "logreg: label file, IDX (with --images, or IDX --data) or .npy (with .npy --data); glm: the response file of an .npy --data",
                                    [](auto &c) -> auto & { return c.logreg.labels; })));
    table.push_back(inScope(SettingScope::Logreg, text("csv", "csv", "logreg: CSV of label + features",
                                    [](auto &c) -> auto & { return c.logreg.csv; })));
    table.push_back(inScope(SettingScope::FileData, text("data", "data",
                                    "logreg: your data file, CSV, LIBSVM/svmlight, NumPy .npy (with --labels, or "
                                    "--label-column) or IDX images (with --labels), gzipped or not; glm: a CSV, "
                                    "LIBSVM or .npy file with a numeric response",
                                    [](auto &c) -> auto & { return c.logreg.data; })));
    table.push_back(inScope(SettingScope::FileData, checkedText("format", "format", "logreg, glm --data: " + dataFormatNames() + " [auto: from the file's content]",
                                           [](auto &c) -> auto & { return c.logreg.format; },
                                           [](const std::string &value) { parseDataFormat(value); })));
    table.push_back(inScope(SettingScope::Logreg, text("label_column", "label-column",
                                    "logreg --csv or --data: the label's column, a header name or a number (1 = first, -1 = "
                                    "last) [the column named label, else the first]",
                                    [](auto &c) -> auto & { return c.logreg.labelColumn; })));
    SettingSpec responseColumn = text("response_column", "response-column",
                                      "glm: the response's column of a CSV (a header name or a number, 1 = first, -1 = "
                                      "last) or an .npy array (a number) [CSV: the column named response or y, else the "
                                      "first]",
                                      [](auto &c) -> auto & { return c.responseColumn; });
    responseColumn.scope = SettingScope::FileRegression;
    table.push_back(responseColumn);
    table.push_back(inScope(SettingScope::FileData, checkedText("delimiter", "delimiter",
                                           "logreg, glm CSV: the field separator, auto (, ; or tab, from the first line), "
                                           "tab or one character [auto]",
                                           [](auto &c) -> auto & { return c.logreg.delimiter; },
                                           [](const std::string &value) { parseDelimiter(value); })));
    table.push_back(inScope(SettingScope::FileData, flag("drop_missing", "drop-missing",
                                    "logreg, glm CSV: leave out rows with a missing value (empty, NA, NaN, NULL, ?) and "
                                    "count them, instead of stopping at the first",
                                    true, [](auto &c) -> auto & { return c.logreg.dropMissing; })));
    table.push_back(inScope(SettingScope::Logreg, checkedText("memory_map", "memory-map",
                                           "logreg --data .npy: read the features in place through a memory map, for "
                                           "files larger than memory: auto (an uncompressed float32 array of 1 GiB or "
                                           "more), on or off [auto]",
                                           [](auto &c) -> auto & { return c.logreg.memoryMap; },
                                           [](const std::string &value) { parseMemoryMap(value); })));
    SettingSpec standardize = inScope(SettingScope::FileData, flag(
        "standardize", "standardize",
        "logreg, glm: centre and scale each feature by the training rows' mean and sd (--no-standardize: as read) [on for "
        "a table (--csv, or --data that is not IDX), off for images]",
        true, [](auto &c) -> auto & { return c.logreg.standardize; }));
    standardize.offFlag = "no-standardize";
    table.push_back(standardize);
    table.push_back(inScope(SettingScope::Logreg, named(
        "classes", "classes", "logreg: two image classes, the first labelled 0 [1,7]",
        [](const RunConfig &c) {
            return std::to_string(c.logreg.classes.first) + "," + std::to_string(c.logreg.classes.second);
        },
        [](RunConfig &c, const std::string &value) { c.logreg.classes = parseClassPair(value); })));
    table.push_back(inScope(SettingScope::LogisticModel, integer("test_size", "test-size",
                                       "logreg, tall-logreg: rows held out for testing, at most --test-fraction of them (tall-logreg: generated apart) [1000]",
                                       [](auto &c) -> auto & { return c.logreg.testSize; })));
    table.push_back(inScope(SettingScope::Logreg, real("test_fraction", "test-fraction",
                                    "logreg: hold out at most this share of the rows, in (0, 1) [0.5]",
                                    [](auto &c) -> auto & { return c.logreg.testFraction; })));
    table.push_back(inScope(SettingScope::Logreg, seed("split_seed", "", "", [](auto &c) -> auto & { return c.logreg.splitSeed; })));
    table.push_back(inScope(SettingScope::Logreg, seed("augment_seed", "", "", [](auto &c) -> auto & { return c.logreg.augmentSeed; })));
    table.push_back(inScope(SettingScope::Logreg, integer("augment_to", "augment-to", "logreg: augment the training images to N rows [0: off]",
                                       [](auto &c) -> auto & { return c.logreg.augmentTo; })));
}

/// The model's settings and the tall-data methods' own.
void appendModelRows(std::vector<SettingSpec> &table)
{
    table.push_back(inScope(SettingScope::RegressionModel, real("prior_sd", "prior-sd", "logreg, tall-logreg, tall-glm, glm: Gaussian prior sd [tall data 1; logreg: paper 0 (flat), recommended 1]",
                                    [](auto &c) -> auto & { return c.logreg.model.priorSd; })));
    table.push_back(inScope(SettingScope::RegressionModel, real("tuna_chi", "tuna-chi",
                                       "tunamh: chi > 0, the batch spent for an acceptance nearer Metropolis' (expected "
                                       "batch chi C^2 M^2 + C M); 0 chooses it from TunaMH's forecast once the data "
                                       "are loaded [1e-05; recommended on tall data: 0]",
                                       [](auto &c) -> auto & { return c.tunaChi; })));
    table.push_back(inScope(SettingScope::RegressionModel, named(
        "smh_bound", "smh-bound",
        "smh: the remainder bound its points are drawn by, auto (per move the smaller of Cornish et al.'s l1 form and "
        "the margin form |x_i|_2^(k+1) |theta - theta_hat|_2^(k+1), for models of one margin) or l1 [auto]",
        [](const RunConfig &c) { return smhBoundName(c.smhBound); },
        [](RunConfig &c, const std::string &value) { c.smhBound = parseSmhBound(value); })));
    table.push_back(inScope(SettingScope::RegressionModel, real("flymc_qdb", "flymc-qdb",
                                       "flymc: probability in (0, 1] that a dark point is proposed bright in each "
                                       "z-update (about qdb N likelihoods an iteration) [0.001]",
                                       [](auto &c) -> auto & { return c.flymcDarkToBright; })));
    table.push_back(real("sghmc_friction", "sghmc-friction",
                         "sghmc: the friction alpha in (0, 1], the share of the momentum lost per step [0.1]",
                         [](auto &c) -> auto & { return c.sghmcFriction; }));
    table.push_back(real("sg_decay", "sg-decay",
                         "sgld, sghmc: the step schedule's exponent gamma in [0, 1], h^2 (1 + t/t0)^(-gamma) at move t "
                         "(Welling & Teh 2011); 0: a constant step [0]",
                         [](auto &c) -> auto & { return c.sgDecay; }));
    table.push_back(real("sg_decay_from", "sg-decay-from",
                         "sgld, sghmc: t0 > 0, the moves over which a decreasing step falls by 2^gamma [1000]",
                         [](auto &c) -> auto & { return c.sgDecayFrom; }));
    table.push_back(real("sg_step_bias", "sg-step-bias",
                         "sgld, sghmc: 0 runs them at the --step; b in (0, 1] takes, once the data are loaded, the "
                         "largest step whose forecast sds are within b of the posterior's (0.1: 10 %), where an "
                         "effective draw then costs under ten times full-data Metropolis' [0; recommended on tall "
                         "data: 0.1 unless --step is given]",
                         [](auto &c) -> auto & { return c.sgStepBias; }));
    table.push_back(real("zigzag_spacing", "zigzag-spacing",
                         "zigzag: the time between the Zig-Zag skeleton's outputs, > 0, or 0: ten times the --step [0]",
                         [](auto &c) -> auto & { return c.zigzagSpacing; }));
    SettingSpec bias = inScope(SettingScope::LogisticModel, flag("bias", "bias", "logreg: add a bias weight (--no-bias: none; always on for tall-logreg, whose --dimension counts it) [paper off; recommended on for --csv]", true,
                                          [](auto &c) -> auto & { return c.logreg.model.bias; }));
    bias.offFlag = "no-bias";
    table.push_back(bias);
    const std::vector<std::string_view> models(glmFamilyNames().begin(), glmFamilyNames().end());
    table.push_back(inScope(SettingScope::ChosenModel, checkedText(
        "model", "model", "tall-glm, glm: the model, " + joinAsProse(models, "or") + " [robust-linear]",
        [](auto &c) -> auto & { return c.glm.name; }, [](const std::string &value) {
            GlmFamilySpec spec;
            spec.name = value;
            makeGlmFamily(spec);
        })));
    table.push_back(inScope(SettingScope::ChosenModel, text("model_plugin", "model-plugin",
                                     "tall-glm, glm: a model of your own, a shared library built against mhx_model_plugin.h "
                                     "(docs/models.md); replaces --model [none]",
                                     [](auto &c) -> auto & { return c.glm.plugin; })));
    table.push_back(inScope(SettingScope::ChosenModel, real("nu", "nu", "tall-glm, glm --model robust-linear: the Student-t's degrees of freedom > 0 [4]",
                                     [](auto &c) -> auto & { return c.glm.nu; })));
    table.push_back(inScope(SettingScope::ChosenModel, real("noise_scale", "noise-scale",
                                     "tall-glm, glm: the noise's sd (linear) or the Student-t's scale (robust-linear), > 0 [1]",
                                     [](auto &c) -> auto & { return c.glm.noiseScale; })));
}

std::vector<SettingSpec> makeTable()
{
    std::vector<SettingSpec> table;
    appendRunRows(table);
    appendProposalRows(table);
    appendTestRows(table);
    appendDataRows(table);
    appendModelRows(table);
    return table;
}

} // namespace

const std::vector<SettingSpec> &settingsTable()
{
    static const std::vector<SettingSpec> table = makeTable();
    return table;
}

bool appliesTo(const SettingSpec &spec, const std::string &dataset)
{
    const DatasetEntry *entry = findDataset(dataset);
    const bool readsFiles = entry && !entry->generated;
    switch (spec.scope) {
    case SettingScope::Every: return true;
    case SettingScope::Logreg: return readsFiles && !modelIsChosen(*entry);
    case SettingScope::FileData: return readsFiles;
    case SettingScope::FileRegression: return readsFiles && modelIsChosen(*entry);
    case SettingScope::LogisticModel: return isLogisticDataset(dataset);
    case SettingScope::GeneratedData: return !readsFiles;
    case SettingScope::TallLogreg: return entry && entry->dimensionSetting;
    case SettingScope::RegressionModel: return isLogisticDataset(dataset) || (entry && modelIsChosen(*entry));
    case SettingScope::ChosenModel: return entry && modelIsChosen(*entry);
    }
    return true;
}

const SettingSpec *findSettingByKey(std::string_view key)
{
    for (const SettingSpec &spec : settingsTable())
        if (spec.key == key)
            return &spec;
    return nullptr;
}

std::string settingText(const SettingValue &value)
{
    if (const auto *s = std::get_if<std::string>(&value))
        return *s;
    if (const auto *d = std::get_if<double>(&value))
        return formatRoundTrip(*d);
    if (const auto *i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    if (const auto *u = std::get_if<std::uint64_t>(&value))
        return std::to_string(*u);
    return std::get<bool>(value) ? "1" : "0";
}

std::vector<SettingDifference> settingDifferences(const RunConfig &shown, const RunConfig &wanted)
{
    std::vector<SettingDifference> differences;
    for (const SettingSpec &spec : settingsTable()) {
        if (spec.noteOnly || !(appliesTo(spec, shown.dataset) || appliesTo(spec, wanted.dataset)))
            continue;
        std::string before = settingText(spec.get(shown));
        std::string after = settingText(spec.get(wanted));
        if (before != after)
            differences.push_back({&spec, std::move(before), std::move(after)});
    }
    return differences;
}

} // namespace core
