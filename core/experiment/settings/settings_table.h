#pragma once
/// Every setting of a run in one table, in the spirit of Stan's defaults: its key (samples-file
/// headers, summaries), its command-line flag, its help text and how to read and write it. The
/// CLI's options, the `# key = value` header a samples file carries and the reading back of
/// that header all come from this table, so a setting added here is recorded, re-read and
/// offered everywhere at once. Ranges are checked by validate(RunConfig), whose messages name
/// the flag.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/experiment/settings/run_config.h"

namespace core {

using SettingValue = std::variant<std::string, double, std::int64_t, std::uint64_t, bool>;

enum class SettingType { Text, Integer, Seed, Real, Flag };

/// Which runs a setting belongs to: headers list a setting only for its runs. Logreg: the
/// image and file data of "logreg"; FileData: how a user's file is read, for "logreg" and "glm"
/// alike; FileRegression: the response of a regression on a file ("glm"); LogisticModel: the logistic model's options and test
/// split, for "logreg" and "tall-logreg" alike; GeneratedData: every dataset made from a seed
/// (all but "logreg"); TallLogreg: the tall synthetic data ("tall-logreg", "tall-glm"), whose
/// dimension a setting chooses; RegressionModel: the prior and the exact methods' settings, for
/// "logreg", "tall-logreg", "tall-glm" and "glm"; ChosenModel: the model and its noise, for the
/// datasets whose model --model chooses ("tall-glm", "glm").
enum class SettingScope {
    Every,
    Logreg,
    FileData,
    FileRegression,
    LogisticModel,
    GeneratedData,
    TallLogreg,
    RegressionModel,
    ChosenModel
};

struct SettingSpec {
    std::string key;      ///< snake_case: headers, summaries
    std::string flag;     ///< command-line option without "--"; empty when it has none
    std::string help;     ///< one line for --help, with the default where it helps
    SettingType type = SettingType::Text;
    SettingScope scope = SettingScope::Every;
    /// A note for readers of a samples file (what `step` means), not a setting to read back.
    bool noteOnly = false;
    /// Flag type: the option is a bare switch, and giving it sets this value ("0" for --no-fpc).
    std::string switchValue;
    std::function<SettingValue(const RunConfig &)> get;
    /// Parses `text` into the setting; throws std::invalid_argument starting with `name` (the
    /// key or "--flag", whichever the reader knows it by) when the text does not parse.
    std::function<void(RunConfig &, const std::string &name, const std::string &text)> set;
    /// Flag type: a second bare switch that sets the other value ("no-standardize"); empty when
    /// the setting has none. Its help is help's, read as the negation.
    std::string offFlag;
    /// Whether `name` (without "--") is this setting's flag or its off switch.
    bool hasFlag(std::string_view name) const { return !name.empty() && (name == flag || name == offFlag); }
};

/// In the order headers list them.
const std::vector<SettingSpec> &settingsTable();

/// Whether `spec` belongs to a run on `dataset`.
bool appliesTo(const SettingSpec &spec, const std::string &dataset);

/// The setting with this key, or null.
const SettingSpec *findSettingByKey(std::string_view key);

/// The value as header text: numbers in round-trip form, booleans as 0/1.
std::string settingText(const SettingValue &value);

/// One setting that two configurations disagree on, as header text.
struct SettingDifference {
    const SettingSpec *spec = nullptr;
    std::string before; ///< in `shown`
    std::string after;  ///< in `wanted`
};

/// The settings of the table (notes aside) in which `wanted` differs from `shown`, in table
/// order; a setting counts when it belongs to a run on either configuration's dataset. This is
/// how a front end tells that the results it shows are no longer those of the settings on
/// display.
std::vector<SettingDifference> settingDifferences(const RunConfig &shown, const RunConfig &wanted);

} // namespace core
