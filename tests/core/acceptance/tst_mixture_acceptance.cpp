// The approximate minibatch kernels through the Gaussian mixture's own log-likelihood ratios, at
// the temperature its runs default to: the paper's data (Seita et al., "Minibatch Acceptance
// Test", Sec. 6.1: N = 10⁶ points of ½N(θ₁, 2) + ½N(θ₁ + θ₂, 2)), T = 10⁴ and a slider's 3·10⁴,
// moves of the default step 0.15 (scaled by √(T/10⁴)) from near the tempered mode. Each kernel's
// acceptance frequency over 20,000 repetitions must be its exact formula's within 4.9 binomial
// standard errors (±0.017 at p = ½) plus its own allowance:
//  - the corrected minibatch test, plain and on second-order control variates: Barker's
//    probability of the exact Δ, plus the correction's L∞ error;
//  - AustereMH(c) (m = 10,000, ε = 0.01: a hundred looks, so that its error table is quick to
//    build): Metropolis' probability plus the error its dynamic program predicts for the
//    population's (N/T)-scaled mean and sd, plus 0.005 for the program's grid.
// The population tests (tst_acceptance_probability, tst_sequential_tests) pin the same formulas
// on synthetic ratios up to T = 100; this suite checks them through a real model at T = 10⁴.
// MHSubLhd is left out: without a bound on the mixture's ratios it scans all 10⁶ points for its
// range at every decision (its formula is pinned on those populations and its chains run to
// T = 100 in tst_logistic_chains_tempered).
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/acceptance/austere_design.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/acceptance/sequential_tests.h"
#include "core/correction/correction_distribution.h"
#include "core/data/gaussian_mixture_data.h"
#include "core/models/control_variates.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/models/posterior_mode.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/exact_minibatch_probability.h"
#include "tests/support/solved_correction.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

const std::shared_ptr<const GaussianMixtureModel> &paperMixture()
{
    static const auto model = std::make_shared<const GaussianMixtureModel>(generateGaussianMixture(GaussianMixtureSpec{}));
    return model;
}

struct Move {
    Vector from, to;
    double logPrior = 0.0;
    double delta = 0.0;
};

Move moveAt(const Vector &mode, double temperature, Rng &rng)
{
    const Model &model = *paperMixture();
    const double step = 0.15 * std::sqrt(temperature / 1e4);
    Move move;
    move.from = mode;
    move.to = mode;
    for (Eigen::Index j = 0; j < mode.size(); ++j) {
        move.from[j] += step * rng.normal();
        move.to[j] = move.from[j] + step * rng.normal();
    }
    const std::vector<double> ratios = teststats::allRatios(model, move.from, move.to);
    move.logPrior = model.logPrior(move.to) - model.logPrior(move.from);
    move.delta = std::accumulate(ratios.begin(), ratios.end(), 0.0) / temperature + move.logPrior;
    return move;
}

} // namespace

BOOST_DATA_TEST_CASE(kernelsOnTheMixtureHaveTheirExactProbabilities, data::make({1e4, 3e4}), temperature)
{
    const auto &mixture = paperMixture();
    const Vector mode = findPosteriorMode(*mixture, temperature, (Vector(2) << 0.0, 1.0).finished()).mode;
    const auto proxies = makeTaylorProxies(*mixture, mode, 2);
    const ControlVariateModel cv(mixture, proxies);
    Rng rng(17 + static_cast<std::uint64_t>(temperature / 1e4));
    const int repetitions = 20000;
    const auto n = static_cast<double>(mixture->dataSize());
    AustereSettings austere;
    austere.batch = 10000;
    austere.epsilon = 0.01;
    static const AustereDesignTable austereTable(mixture->dataSize(), austere.batch, austere.epsilon);
    for (int m = 0; m < 3; ++m) {
        const Move move = moveAt(mode, temperature, rng);
        const TestProblem plain{*mixture, move.from, move.to, temperature, move.logPrior};
        const TestProblem withProxies{cv, move.from, move.to, temperature, move.logPrior};
        const auto [mean, sd] = mixture->logLikelihoodRatioMoments(move.from, move.to);
        struct Row {
            std::string name;
            std::unique_ptr<AcceptanceTest> test;
            const TestProblem *problem;
            double exact;
            double allowance;
        };
        std::vector<Row> rows;
        rows.push_back({"minibatch", std::make_unique<MinibatchBarkerTest>(teststats::solvedCorrection(), MinibatchSettings{}), &plain,
                        teststats::barkerProbability(move.delta), teststats::solvedCorrection()->linfError()});
        rows.push_back({"minibatch+taylor2", std::make_unique<MinibatchBarkerTest>(teststats::solvedCorrection(), MinibatchSettings{}),
                        &withProxies, teststats::barkerProbability(move.delta), teststats::solvedCorrection()->linfError()});
        rows.push_back({"austere-c", std::make_unique<AustereTest>(austere), &plain,
                        teststats::metropolisProbability(move.delta)
                            + austereTable.acceptanceError(n / temperature * mean, n / temperature * sd, move.logPrior),
                        0.005});
        for (Row &row : rows) {
            const teststats::Frequency f = teststats::acceptanceFrequency(*row.test, *row.problem, rng, repetitions);
            std::ostringstream figures;
            figures << row.name << " at T " << temperature << ", delta " << move.delta << ": " << f.rate << " vs "
                    << row.exact << ", mean batch " << f.meanPoints;
            BOOST_TEST_MESSAGE(figures.str());
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(f.rate - row.exact) <= teststats::acceptanceTolerance(row.exact, row.allowance, repetitions));
        }
    }
}
