// Which settings two configurations disagree on: what the desktop app's "these results are not
// the form's settings" banner lists.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/experiment/settings/settings_table.h"

using namespace core;

namespace {

RunConfig configForDataset(const std::string &dataset)
{
    RunConfig config;
    config.dataset = dataset;
    applyDatasetDefaults(config, false, false);
    return config;
}

std::vector<std::string> keys(const std::vector<SettingDifference> &differences)
{
    std::vector<std::string> result;
    for (const SettingDifference &difference : differences)
        result.push_back(difference.spec->key);
    return result;
}

} // namespace

BOOST_AUTO_TEST_CASE(equalConfigurationsDifferInNothing)
{
    const RunConfig config = configForDataset("gmm");
    BOOST_TEST(settingDifferences(config, config).empty());
}

BOOST_AUTO_TEST_CASE(listsEachChangedSettingWithBothValuesInTableOrder)
{
    const RunConfig shown = configForDataset("gmm");
    RunConfig wanted = shown;
    wanted.correction.sigma = 0.5;
    wanted.temperature = 1000.0;
    const auto differences = settingDifferences(shown, wanted);
    BOOST_TEST(keys(differences) == (std::vector<std::string>{"temperature", "sigma"}), boost::test_tools::per_element());
    BOOST_TEST(differences[0].before == "10000");
    BOOST_TEST(differences[0].after == "1000");
    BOOST_TEST(differences[1].before == "1");
    BOOST_TEST(differences[1].after == "0.5");
}

BOOST_AUTO_TEST_CASE(settingsOfAnotherDatasetCountWhenEitherSideUsesThem)
{
    // The logistic-regression settings are irrelevant to two mixture runs…
    RunConfig shown = configForDataset("gmm");
    RunConfig wanted = shown;
    wanted.logreg.testSize = shown.logreg.testSize + 1;
    BOOST_TEST(settingDifferences(shown, wanted).empty());
    // …but a switch to logistic regression lists them with the dataset itself.
    wanted = configForDataset("logreg");
    wanted.logreg.testSize = shown.logreg.testSize + 1;
    const auto changed = keys(settingDifferences(shown, wanted));
    BOOST_TEST(changed.front() == "dataset");
    BOOST_TEST((std::find(changed.begin(), changed.end(), "test_size") != changed.end()));
}

// Whole numbers are read exactly, beyond the 2^53 a double holds, so that a setting written and
// read back is the same setting (a session file round trip depends on it).
BOOST_AUTO_TEST_CASE(wholeNumbersAreReadExactly)
{
    const SettingSpec *spec = findSettingByKey("trace_every");
    BOOST_TEST_REQUIRE(spec != nullptr);
    RunConfig config;
    spec->set(config, "trace_every", "10888888888888881");
    BOOST_TEST(settingText(spec->get(config)) == "10888888888888881");
    spec->set(config, "trace_every", "1e6"); // as people write them, still
    BOOST_TEST(settingText(spec->get(config)) == "1000000");
    spec->set(config, "trace_every", "1_000");
    BOOST_TEST(settingText(spec->get(config)) == "1000");
    BOOST_CHECK_THROW(spec->set(config, "trace_every", "99999999999999999999"), std::invalid_argument);
}
