// One Metropolis–Hastings step on its own (core/chain/metropolis_step.h), without the loop's
// layers: from a fixed θ to a fixed θ′ it accepts with Metropolis's probability min(1, e^Δ),
// Δ the exact log posterior ratio at T, and moves θ only when it accepts; a candidate outside
// the prior's support is refused without reading a point; a move that counts its own reads
// has them recorded.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>

#include "core/acceptance/full_data_tests.h"
#include "core/chain/chain_runner.h"
#include "core/chain/metropolis_step.h"
#include "core/models/gaussian_mean_model.h"

using namespace core;

namespace {

// Always proposes `target`, with log q(from | to) − log q(to | from) = `logRatio` (as if it
// were an asymmetric proposal); counts `reads` and `violations` as its own moves' cost.
class FixedProposal final : public Proposal {
public:
    explicit FixedProposal(Vector target, double logRatio = 0.0, std::int64_t reads = -1, std::int64_t violations = 0)
        : m_target(std::move(target)), m_logRatio(logRatio), m_reads(reads), m_violations(violations)
    {
    }
    void propose(const Vector &, Vector &to, double, Rng &) const override { to = m_target; }
    double logProposalRatio(const Vector &, const Vector &) const override { return m_logRatio; }
    double step() const override { return 1.0; }
    std::unique_ptr<Proposal> withStep(double) const override { return std::make_unique<FixedProposal>(*this); }
    MoveCost lastMoveCost() const override { return {m_reads, m_violations}; }

private:
    Vector m_target;
    double m_logRatio;
    std::int64_t m_reads;
    std::int64_t m_violations;
};

// Accepts every move and reads nothing a proposal's cost would not replace.
class TestlessMove final : public AcceptanceTest {
public:
    std::string name() const override { return "testless"; }
    bool readsProposalRatio() const override { return false; }
    Decision decide(const TestProblem &, Rng &) override
    {
        Decision decision;
        decision.accepted = true;
        return decision;
    }
};

GaussianMeanModel model()
{
    Rng rng(3);
    Eigen::VectorXd x(500);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x[i] = 0.3 + rng.normal();
    // A prior that pulls (sd 0.2 around 0), so that a step that drops or mis-scales its term
    // moves the acceptance well beyond the check's tolerance; log p0 is -inf at an infinite θ.
    return GaussianMeanModel(x, 1.0, 0.0, 0.04);
}

Vector scalar(double value)
{
    Vector v(1);
    v[0] = value;
    return v;
}

} // namespace

BOOST_AUTO_TEST_CASE(aStepAcceptsWithMetropolissProbability)
{
    const GaussianMeanModel data = model();
    const double temperature = 20.0;
    const Vector from = scalar(0.3), to = scalar(0.45);
    // The proposal's own share of the ratio, so that a step that leaves it out is caught too.
    const double logProposalRatio = 0.4;
    const double delta = (data.logPrior(to) - data.logPrior(from))
                         + (data.logLikelihoodSum(to) - data.logLikelihoodSum(from)) / temperature + logProposalRatio;
    const double exact = std::min(1.0, std::exp(delta));
    BOOST_TEST_REQUIRE(exact > 0.05);
    BOOST_TEST_REQUIRE(exact < 0.95); // a move whose outcome is in doubt
    const FixedProposal proposal(to, logProposalRatio);
    MetropolisTest test;
    Rng rng(11);
    constexpr int kSteps = 40'000;
    int accepted = 0;
    for (int k = 0; k < kSteps; ++k) {
        ChainState state{from, data.logPrior(from), Vector(1)};
        const StepOutcome step = metropolisStep(data, proposal, test, state, temperature, rng);
        BOOST_TEST(step.decision.pointsUsed == data.dataSize());
        BOOST_TEST(state.current[0] == (step.accepted ? to[0] : from[0]));
        BOOST_TEST(state.currentLogPrior == data.logPrior(state.current));
        accepted += step.accepted ? 1 : 0;
    }
    // Two-sided binomial check at α = 10⁻⁴.
    const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), 0.5e-4));
    const double sd = std::sqrt(exact * (1.0 - exact) / kSteps);
    BOOST_TEST(std::abs(static_cast<double>(accepted) / kSteps - exact) < z * sd,
               "acceptance " << static_cast<double>(accepted) / kSteps << " against exact " << exact);
    // Each of the three terms of Δ moves the acceptance by more than the tolerance: a step that
    // drops one (or scales the prior or the ratio by 1/T) cannot pass.
    const double priorTerm = data.logPrior(to) - data.logPrior(from);
    for (const double without : {delta - priorTerm, delta - logProposalRatio, delta - priorTerm * (1.0 - 1.0 / temperature)})
        BOOST_TEST(std::abs(std::min(1.0, std::exp(without)) - exact) > 2.0 * z * sd);
}

BOOST_AUTO_TEST_CASE(aCandidateOutsideThePriorIsRefusedUnread)
{
    const GaussianMeanModel data = model();
    const FixedProposal proposal(scalar(std::numeric_limits<double>::infinity()));
    MetropolisTest test;
    Rng rng(1), untouched(1);
    ChainState state{scalar(0.2), data.logPrior(scalar(0.2)), Vector(1)};
    const StepOutcome step = metropolisStep(data, proposal, test, state, 1.0, rng);
    BOOST_TEST(!step.accepted);
    BOOST_TEST(step.decision.pointsUsed == 0);
    BOOST_TEST(state.current[0] == 0.2);
    // Nothing was drawn for the test: the chain's later draws are those of a chain that never
    // proposed it.
    BOOST_TEST(rng.uniform01() == untouched.uniform01());
}

BOOST_AUTO_TEST_CASE(aMoveWithoutATestCountsItsOwnReads)
{
    const GaussianMeanModel data = model();
    const FixedProposal proposal(scalar(0.4), 0.0, 37, 2);
    TestlessMove test;
    Rng rng(1);
    ChainState state{scalar(0.2), data.logPrior(scalar(0.2)), Vector(1)};
    const StepOutcome step = metropolisStep(data, proposal, test, state, 1.0, rng);
    BOOST_TEST(step.accepted);
    BOOST_TEST(step.decision.pointsUsed == 37);
    BOOST_TEST(step.decision.boundViolations == 2);
    BOOST_TEST(state.current[0] == 0.4);

    // And the row it makes.
    ChainResult result;
    result.samples.resize(2, 1);
    result.batchSize.resize(2);
    result.fullScanPoints.resize(2);
    result.accepted.resize(2);
    result.fullDataFallback.resize(2);
    recordIteration(result, 1, state.current, step);
    BOOST_TEST(result.samples(1, 0) == 0.4);
    BOOST_TEST(result.batchSize[1] == 37);
    BOOST_TEST(result.accepted[1] == 1);
    BOOST_TEST(result.completed == 2);
    BOOST_TEST(result.boundViolations == 2);
    BOOST_TEST(result.brightPoints.empty());
}
