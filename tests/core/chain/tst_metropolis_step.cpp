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

// Always proposes `target`, symmetric by fiat; counts `reads` as its own when set.
class FixedProposal final : public Proposal {
public:
    FixedProposal(Vector target, std::int64_t reads = -1) : m_target(std::move(target)), m_reads(reads) {}
    void propose(const Vector &, Vector &to, double, Rng &) const override { to = m_target; }
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    double step() const override { return 1.0; }
    std::unique_ptr<Proposal> withStep(double) const override { return std::make_unique<FixedProposal>(m_target); }
    MoveCost lastMoveCost() const override { return {m_reads, 0}; }

private:
    Vector m_target;
    std::int64_t m_reads;
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
    return GaussianMeanModel(x, 1.0, 0.0, 4.0); // a proper prior: log p0 is -inf at an infinite θ
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
    const Vector from = scalar(0.3), to = scalar(0.55);
    const double delta = (data.logPrior(to) - data.logPrior(from))
                         + (data.logLikelihoodSum(to) - data.logLikelihoodSum(from)) / temperature;
    const double exact = std::min(1.0, std::exp(delta));
    BOOST_TEST_REQUIRE(exact > 0.05);
    BOOST_TEST_REQUIRE(exact < 0.95); // a move whose outcome is in doubt
    const FixedProposal proposal(to);
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
}

BOOST_AUTO_TEST_CASE(aCandidateOutsideThePriorIsRefusedUnread)
{
    const GaussianMeanModel data = model();
    const FixedProposal proposal(scalar(std::numeric_limits<double>::infinity()));
    MetropolisTest test;
    Rng rng(1);
    ChainState state{scalar(0.2), data.logPrior(scalar(0.2)), Vector(1)};
    const StepOutcome step = metropolisStep(data, proposal, test, state, 1.0, rng);
    BOOST_TEST(!step.accepted);
    BOOST_TEST(step.decision.pointsUsed == 0);
    BOOST_TEST(state.current[0] == 0.2);
}

BOOST_AUTO_TEST_CASE(aMoveWithoutATestCountsItsOwnReads)
{
    const GaussianMeanModel data = model();
    const FixedProposal proposal(scalar(0.4), 37);
    TestlessMove test;
    Rng rng(1);
    ChainState state{scalar(0.2), data.logPrior(scalar(0.2)), Vector(1)};
    const StepOutcome step = metropolisStep(data, proposal, test, state, 1.0, rng);
    BOOST_TEST(step.accepted);
    BOOST_TEST(step.decision.pointsUsed == 37);
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
    BOOST_TEST(result.brightPoints.empty());
}
