// The Zig-Zag process's path, what the app draws between the draws, and the run settings of
// --method zigzag: the quick checks, with no long statistical chain, so that the sanitizer stage
// runs them (the statistical ones: tst_zig_zag_process).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/acceptance/accept_every_move.h"
#include "core/chain/chain_runner.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/control_variates.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/zig_zag_process.h"
#include "tests/support/logistic_with_proxies.h"

using namespace core;

// The path between the draws (what the app draws): every straight run between two corners moves
// each coordinate by the same distance (unit speed in every coordinate), the runs add up to the
// outputs' time, each output's end is a corner, and the next stretch joins on where the last ended.
// Through the chain, every draw of a progress report's rows is a corner of its path.
BOOST_AUTO_TEST_CASE(itsPathRunsDiagonallyBetweenItsCorners)
{
    const LogisticWithProxies p; // 2,000 rows, proxies at the mode
    const double spacing = 2.0 * p.sd;
    const ZigZagProcess process(*p.residualModel, p.proxies.get(), spacing);
    Rng rng(5);
    Vector from = p.anchor, to(p.anchor.size());
    std::vector<Vector> ends;
    for (int k = 0; k < 50; ++k) {
        process.propose(from, to, 1.0, rng);
        ends.push_back(to);
        from = to;
    }
    std::vector<Vector> path;
    process.takeRecentPath(path);
    BOOST_REQUIRE(path.size() >= 51);
    BOOST_TEST((path.front() - p.anchor).norm() == 0.0);
    BOOST_TEST((path.back() - ends.back()).norm() == 0.0);
    double travelled = 0.0;
    for (std::size_t k = 1; k < path.size(); ++k) {
        const Eigen::ArrayXd step = (path[k] - path[k - 1]).array().abs();
        BOOST_TEST(step.maxCoeff() - step.minCoeff() <= 1e-12 * (1.0 + step.maxCoeff()), "corner " << k);
        travelled += step.maxCoeff();
    }
    BOOST_TEST(travelled == 50.0 * spacing, boost::test_tools::tolerance(1e-9));
    std::size_t found = 0;
    for (const Vector &end : ends)
        found += std::count_if(path.begin(), path.end(), [&](const Vector &c) { return (c - end).norm() == 0.0; }) > 0;
    BOOST_TEST(found == ends.size());
    // The next stretch starts at the last corner taken.
    process.propose(from, to, 1.0, rng);
    std::vector<Vector> next;
    process.takeRecentPath(next);
    BOOST_REQUIRE(next.size() >= 2);
    BOOST_TEST((next.front() - path.back()).norm() == 0.0);
    // A long stretch keeps the latest corners only.
    for (int k = 0; k < 20000; ++k) {
        process.propose(from, to, 1.0, rng);
        from = to;
    }
    process.takeRecentPath(next);
    BOOST_TEST(next.size() == ZigZagProcess::kPathCorners);
    BOOST_TEST((next.back() - to).norm() == 0.0);

    // Through the chain: the draws of each report's new rows lie on the path it carries.
    AcceptEveryMove test("zigzag", false);
    ChainSettings settings;
    settings.initialTheta = p.anchor;
    settings.seed = 76;
    settings.samples = 3000;
    settings.progressInterval = std::chrono::milliseconds(0);
    const ZigZagProcess chained(*p.residualModel, p.proxies.get(), spacing);
    std::int64_t checked = 0, missing = 0, reports = 0;
    runChain(*p.residualModel, chained, test, settings, {},
             [&](const ChainResult &result, std::int64_t first, std::int64_t last) {
                 ++reports;
                 for (std::int64_t t = first; t < last; ++t) {
                     const Vector draw = result.samples.row(t).transpose();
                     ++checked;
                     missing += std::none_of(result.recentPath.begin(), result.recentPath.end(),
                                             [&](const Vector &c) { return (c - draw).norm() == 0.0; });
                 }
             });
    BOOST_TEST(reports > 1);
    BOOST_TEST(checked == 3000);
    BOOST_TEST(missing == 0);
}

BOOST_AUTO_TEST_CASE(itsRunSettingsAreChecked)
{
    RunConfig config;
    config.dataset = "tall-logreg";
    config.method = TestMethod::ZigZag;
    BOOST_TEST((resolvedControlVariates(config) == ControlVariates::Taylor1));
    BOOST_CHECK_NO_THROW(validate(config));
    config.zigzagSpacing = -1.0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.zigzagSpacing = 0.0;
    config.controlVariates = ControlVariates::None;
    BOOST_CHECK_NO_THROW(validate(config)); // zigzag+none: logistic points are Lipschitz
    BOOST_TEST((parseMethodVariant("zigzag+none").second == std::optional(ControlVariates::None)));
    config.dataset = "worst-case"; // a Gaussian mean: its gradient bounds are relative, not global
    try {
        validate(config);
        BOOST_FAIL("zigzag+none on a Gaussian mean was not refused");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("zigzag+none needs per-point Lipschitz constants") != std::string::npos,
                   error.what());
    }
    config.controlVariates = ControlVariates::Auto;
    config.dataset = "tall-logreg";
    config.checkpointEvery = 10;
    try {
        validate(config);
        BOOST_FAIL("zigzag with checkpoints was not refused");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("carries its velocity") != std::string::npos, error.what());
    }
    config.checkpointEvery = 0;
    config.dataset = "gmm";
    BOOST_CHECK_THROW(validate(config), std::invalid_argument); // the mixture has no gradient bounds
}
