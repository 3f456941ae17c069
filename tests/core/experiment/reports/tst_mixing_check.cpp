// The mixing rule every front end prints beside a run's figures (Vehtari et al. 2021, Sec. 4:
// split R-hat ≤ 1.01 and a bulk ESS of at least 100 a chain), its two levels at their
// boundaries, and the per-method lines of a compare. Real runs of each level are in
// tst_setting_presets (the recommended mixture run mixes, the paper's does not).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/experiment/reports/mixing_check.h"

using namespace core;

namespace {

ChainReport chainWith(double rhat, double essMin, TestMethod method = TestMethod::Minibatch, int chainIndex = 0)
{
    ChainReport chain;
    chain.method = method;
    chain.chainIndex = chainIndex;
    chain.splitRhat = rhat;
    chain.essBulkMin = essMin;
    return chain;
}

} // namespace

BOOST_AUTO_TEST_CASE(theLevelsChangeAtTheRulesBoundaries)
{
    BOOST_TEST((checkMixing(chainWith(1.01, 100.0)).level == Mixing::Mixed));
    BOOST_TEST(checkMixing(chainWith(1.01, 100.0)).figures.empty());
    BOOST_TEST((checkMixing(chainWith(1.0101, 100.0)).level == Mixing::NotConverged));
    BOOST_TEST((checkMixing(chainWith(1.1, 5000.0)).level == Mixing::NotConverged));
    BOOST_TEST((checkMixing(chainWith(1.1001, 5000.0)).level == Mixing::NotMixed));
    BOOST_TEST((checkMixing(chainWith(1.0, 99.9)).level == Mixing::NotMixed));
    BOOST_TEST((checkMixing(chainWith(std::nan(""), std::nan(""))).level == Mixing::Unmeasured));
    // One figure measured is enough for a verdict.
    BOOST_TEST((checkMixing(chainWith(std::nan(""), 20.0)).level == Mixing::NotMixed));
    BOOST_TEST((checkMixing(chainWith(1.0, std::nan(""))).level == Mixing::Mixed));
}

BOOST_AUTO_TEST_CASE(theFiguresNameWhatBrokeTheRule)
{
    BOOST_TEST(checkMixing(chainWith(2.1201, 1.0)).figures == "split R-hat 2.1201 > 1.01; min bulk ESS 1 < 100");
    BOOST_TEST(checkMixing(chainWith(1.036, 192.0)).figures == "split R-hat 1.0360 > 1.01");
    BOOST_TEST(checkMixing(chainWith(1.002, 14.0)).figures == "min bulk ESS 14 < 100");
    BOOST_TEST(mixingName(Mixing::NotConverged) == "not converged");
    BOOST_TEST(mixingName(Mixing::Unmeasured).empty());
}

BOOST_AUTO_TEST_CASE(aCompareNamesEachMethodOnceByItsWorstChain)
{
    RunOutcome outcome;
    outcome.chains = {chainWith(1.002, 4000.0, TestMethod::Scalable, 0),
                      chainWith(1.05, 300.0, TestMethod::Tuna, 0),
                      chainWith(1.05, 3.0, TestMethod::Tuna, 1),
                      chainWith(1.3, 900.0, TestMethod::Firefly, 0)};
    const std::vector<std::string> lines = unmixedMethods(outcome);
    BOOST_REQUIRE_EQUAL(lines.size(), 2u);
    BOOST_TEST(lines[0] == "tunamh: not mixed, split R-hat 1.0500 > 1.01; min bulk ESS 3 < 100 (chain 2)");
    BOOST_TEST(lines[1] == "flymc: not mixed, split R-hat 1.3000 > 1.01 (chain 1)");

    outcome.chains = {chainWith(1.0, 4000.0)};
    BOOST_TEST(unmixedMethods(outcome).empty());
}

BOOST_AUTO_TEST_CASE(theAdviceFitsTheMethodAndTheProposal)
{
    RunConfig tuna;
    tuna.method = TestMethod::Tuna;
    tuna.proposal = ProposalKind::LaplaceCrankNicolson;
    BOOST_TEST(mixingAdvice(tuna).find("--tuna-chi") != std::string::npos);
    RunConfig paper; // the paper's random walk
    BOOST_TEST(mixingAdvice(paper).find("--preset recommended") != std::string::npos);
    RunConfig adaptive;
    adaptive.proposal = ProposalKind::Adaptive;
    BOOST_TEST(mixingAdvice(adaptive).find("--samples") != std::string::npos);
}
