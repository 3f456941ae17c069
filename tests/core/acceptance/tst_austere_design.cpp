// The AustereMH dynamic program (Korattikara et al., "Austerity in MCMC Land", supplement Sec. A,
// Eq. 18–20) agrees with simulation of the actual sequential t-test, as the supplement's Figure 10
// shows for data usage.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <ostream>
#include <vector>

#include "core/acceptance/austere_design.h"
#include "core/acceptance/sequential_tests.h"
#include "tests/support/population_model.h"

using namespace core;
namespace data = boost::unit_test::data;

struct MuStdRow {
    double muStd;
};
std::ostream &operator<<(std::ostream &out, const MuStdRow &row) { return out << "muStd=" << row.muStd; }

const std::vector<MuStdRow> kMuStdRows = {{0.25}, {1.0}, {2.0}, {4.0}};

BOOST_DATA_TEST_CASE(dynamicProgramMatchesSimulation, data::make(kMuStdRows), row)
{
    const double muStd = row.muStd;
    const DataIndex n = 20000, m = 100;
    const double epsilon = 0.01, sd = 30.0, mean = 2.0;
    const auto model = teststats::PopulationModel::make(n, mean / n, sd / n, 0, 77); // Λ_i: mean 2, sd 30
    const double psi = mean - muStd * sd / std::sqrt(n - 1.0);
    AustereSettings settings;
    settings.batch = m;
    settings.epsilon = epsilon;
    AustereTest test(settings);
    Rng rng(5);
    const Vector a = Vector::Zero(1), b = Vector::Ones(1);
    const TestProblem problem{model, a, b, 1.0, 0.0};
    const int repetitions = 20000;
    int wrong = 0, all = 0;
    double fraction = 0.0;
    for (int r = 0; r < repetitions; ++r) {
        const Decision decision = test.decideAgainst(problem, psi, rng);
        wrong += !decision.accepted; // μ > μ₀: accepting is right
        all += decision.pointsUsed == n;
        fraction += static_cast<double>(decision.pointsUsed) / n / repetitions;
    }
    const SequentialTestProfile dp = austereProfile(muStd, n, m, epsilon, 120);
    const double simulatedError = static_cast<double>(wrong) / repetitions;
    const double errorTolerance = 4.9 * std::sqrt(std::max(dp.error * (1 - dp.error), 1e-4) / repetitions) + 0.01;
    BOOST_TEST(std::abs(simulatedError - dp.error) <= errorTolerance,
               "error: simulated " << simulatedError << ", dynamic program " << dp.error);
    const double usageTolerance = 0.05 * dp.dataFraction + 4.9 * 0.5 / std::sqrt(double(repetitions));
    BOOST_TEST(std::abs(fraction - dp.dataFraction) <= usageTolerance,
               "data usage: simulated " << fraction << ", dynamic program " << dp.dataFraction);
    const double simulatedAll = static_cast<double>(all) / repetitions;
    BOOST_TEST(std::abs(simulatedAll - dp.allDataProbability)
                   <= 4.9 * std::sqrt(std::max(dp.allDataProbability, 1e-4) / repetitions) + 0.01,
               "all-N: simulated " << simulatedAll << ", dynamic program " << dp.allDataProbability);
}

// The worst case μ_std → 0: the error is half the probability of stopping early (Eq. 20),
// and data usage is largest there.
BOOST_AUTO_TEST_CASE(worstCaseIsTheMaximum)
{
    const auto zero = austereProfile(1e-12, 100000, 100, 0.005, 80);
    const auto near = austereProfile(0.5, 100000, 100, 0.005, 80);
    const auto far = austereProfile(5.0, 100000, 100, 0.005, 80);
    BOOST_TEST((zero.error > near.error && near.error > far.error));
    BOOST_TEST((zero.dataFraction > near.dataFraction && near.dataFraction > far.dataFraction));
    BOOST_TEST(zero.allDataProbability > 0.0085); // Lemma 1's constant is easily exceeded here
    BOOST_CHECK_THROW(austereProfile(0.0, 100, 200, 0.01), std::invalid_argument);
    BOOST_CHECK_THROW(austereProfile(0.0, 100, 10, 0.6), std::invalid_argument);
}

