// The method table (method_registry.h): one row per method, and every trait a row states is
// what the code does with that method: its test's name and restartability, the settings the
// validation accepts and refuses, and the correction a run solves. The rows' presence in the
// help, the docs and the app's boxes is checked by tst_cli and tst_main_window.
#include <boost/test/unit_test.hpp>

#include <set>
#include <stdexcept>
#include <string>

#include "core/acceptance/acceptance_test.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/settings/dataset_registry.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/run_config.h"
#include "tests/support/validation_probe.h"

using namespace core;

namespace {

using testsupport::validates;

// Settings every method can run with: tall logistic data (the only data with per-point
// bounds), an AustereMH error bound where austere-nc needs one, the paper's random walk.
RunConfig runnableConfig(const MethodEntry &row)
{
    RunConfig config;
    config.method = row.method;
    config.dataset = "tall-logreg";
    config.nData = 1000;
    config.dimension = 3;
    if (row.method == TestMethod::AustereNonConservative)
        config.austereErrorBound = 0.01; // it designs its test every iteration, under this bound
    config.controlVariates = ControlVariates::Auto;
    return config;
}

} // namespace

BOOST_AUTO_TEST_CASE(everyMethodHasExactlyOneRowAndItsNameParses)
{
    std::set<TestMethod> methods;
    std::set<std::string> names;
    for (const MethodEntry &row : methodTable()) {
        BOOST_TEST_INFO(row.name);
        BOOST_TEST(methods.insert(row.method).second);
        BOOST_TEST(names.insert(std::string(row.name)).second);
        BOOST_TEST((parseMethod(std::string(row.name)) == row.method));
        BOOST_TEST(methodName(row.method) == std::string(row.name));
        BOOST_TEST(&methodRow(row.method) == &row);
        // The label starts with the name the command line uses, and the description cites a
        // paper's section.
        BOOST_TEST(row.label.substr(0, row.name.size()) == row.name);
        BOOST_TEST(row.description.find("Sec.") != std::string_view::npos);
    }
    // Every enumerator, the first to the last, has its row.
    for (int k = static_cast<int>(TestMethod::Metropolis); k <= static_cast<int>(TestMethod::Firefly); ++k)
        BOOST_TEST(methods.count(static_cast<TestMethod>(k)) == 1u, "enumerator " << k);
    BOOST_CHECK_THROW(parseMethod("metropolis"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(namesAsProseJoinTheRowsInOrder)
{
    std::string expected;
    const auto &table = methodTable();
    for (std::size_t k = 0; k < table.size(); ++k)
        expected += (k == 0 ? "" : k + 1 == table.size() ? " or " : ", ") + std::string(table[k].name);
    BOOST_TEST(methodNames() == expected);
    BOOST_TEST(methodNames("and", [](const MethodEntry &row) { return row.method == TestMethod::Barker; }) == "barker");
}

// A row's factory makes the test of that name, restartable at a checkpoint unless the row says
// it carries state between iterations.
BOOST_AUTO_TEST_CASE(everyFactoryMakesItsOwnTest)
{
    CorrectionParams small;
    small.grid = 200;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(small));
    for (const MethodEntry &row : methodTable()) {
        BOOST_TEST_INFO(row.name);
        const RunConfig config = runnableConfig(row);
        if (needsAustereDesign(config)) {
            // AustereMH(nc) designs its test every iteration: without a design grid it refuses.
            BOOST_CHECK_THROW(makeAcceptanceTest(config, nullptr, nullptr), std::invalid_argument);
            continue;
        }
        const std::unique_ptr<AcceptanceTest> test =
            makeAcceptanceTest(config, row.needsCorrection ? correction : nullptr, nullptr);
        BOOST_TEST_REQUIRE(test != nullptr);
        BOOST_TEST(test->name() == std::string(row.name));
        BOOST_TEST(test->restartable() == !row.carriesStateBetweenIterations);
        BOOST_TEST(needsCorrection(row.method) == row.needsCorrection);
    }
}

// What validation accepts and refuses follows the row's traits.
BOOST_AUTO_TEST_CASE(validationFollowsTheTraits)
{
    for (const MethodEntry &row : methodTable()) {
        BOOST_TEST_INFO(row.name);
        RunConfig config = runnableConfig(row);
        BOOST_TEST(validates(config));

        // Control variates: refused where the row says never, required where it says so, on by
        // default where it says required or by default.
        RunConfig withProxies = config;
        withProxies.controlVariates = ControlVariates::Taylor2;
        BOOST_TEST(validates(withProxies)
                   == (row.controlVariates != ControlVariatePolicy::Never && row.maxControlVariateOrder >= 2));
        RunConfig firstOrder = config;
        firstOrder.controlVariates = ControlVariates::Taylor1;
        BOOST_TEST(validates(firstOrder) == (row.controlVariates != ControlVariatePolicy::Never));
        RunConfig without = config;
        without.controlVariates = ControlVariates::None;
        BOOST_TEST(validates(without) == (row.controlVariates != ControlVariatePolicy::Required));
        BOOST_TEST((resolvedControlVariates(config) != ControlVariates::None)
                   == (row.controlVariates == ControlVariatePolicy::Required
                       || row.controlVariates == ControlVariatePolicy::ByDefault));
        // Only a method whose default has them names their absence: "zigzag+none", but "mh".
        BOOST_TEST((methodVariantName(without).find("+none") != std::string::npos)
                   == (row.controlVariates == ControlVariatePolicy::ByDefault));

        // The mixture lacks every per-point bound: a method that needs one is refused.
        RunConfig mixture = config;
        mixture.dataset = "gmm";
        mixture.nData = 1000;
        mixture.controlVariates = ControlVariates::Auto;
        if (row.controlVariates == ControlVariatePolicy::Required || row.controlVariates == ControlVariatePolicy::ByDefault)
            mixture.controlVariates = row.maxControlVariateOrder >= 2 ? ControlVariates::Taylor2 : ControlVariates::Taylor1;
        BOOST_TEST(validates(mixture) == row.needs.missingFrom(modelOf(datasetEntry("gmm")).capabilities).empty());

        // Checkpoints: refused for a test that carries state between iterations.
        RunConfig checkpointed = config;
        checkpointed.checkpointEvery = 100;
        BOOST_TEST(validates(checkpointed) == !row.carriesStateBetweenIterations);

        // An adaptive target of 0.6: beyond what a Barker-type test can accept at stationarity.
        RunConfig target = config;
        target.adaptTarget = 0.6;
        BOOST_TEST(validates(target) == (row.rule == AcceptRule::Metropolis));
    }
}
