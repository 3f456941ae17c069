// The acceptance probabilities of the kernels the generalised linear models allow, at
// T = 1, 0.5, 20 and 100, against their exact formulas on synthetic data of each family (two
// covariates and the intercept), around the tempered mode:
//  - SMH-1 and SMH-2 (probit, linear and robust linear regression, whose Taylor remainders are
//    bounded): min(1, e^{a₀}) Π_i min(1, e^{r_i/T}) (Cornish et al. 2019, Sec. 3.1), on 2,000 rows,
//    moves downhill from near the anchor of 0.5 and 1 (SMH-2: 1 and 1.5) Laplace sds per coordinate (so that Δ and
//    the residuals over T stay in one range at every T), each with an exact probability in
//    [0.02, 0.98];
//    4.9 binomial standard errors over 100,000 repetitions (±0.0077 at p = ½);
//  - the minibatch Barker test on second-order control variates (every family, Poisson
//    included): Barker's probability of the exact Δ within 4.9 standard errors over 40,000
//    repetitions plus the correction's L∞ error, on 50,000 rows, moves of 0.2 and 0.4 Laplace sds.
// The chains' stationary laws are tst_glm_exact_chains'; TunaMH's exact probability (a sum over
// every count of every group of equal rows) needs rows in a few groups, which these data are not:
// its robust-linear chains are tested there.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/acceptance/exact_minibatch_tests.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/correction/correction_distribution.h"
#include "core/data/synthetic_glm_data.h"
#include "core/models/control_variates.h"
#include "core/models/glm/glm_model.h"
#include "core/models/posterior_mode.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/exact_minibatch_probability.h"
#include "tests/support/solved_correction.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

std::shared_ptr<const GlmModel> syntheticGlm(const std::string &family, std::int64_t rows, std::uint64_t seed)
{
    SyntheticGlmSpec spec;
    spec.rows = rows;
    spec.features = 2;
    spec.family.name = family;
    spec.seed = seed;
    auto table = std::make_shared<const GlmData>(generateSyntheticGlm(spec));
    return std::make_shared<const GlmModel>(table, GlmOptions{spec.family, 1.0, true});
}

double fullSum(const Model &model, const Vector &from, const Vector &to)
{
    const std::vector<double> ratios = teststats::allRatios(model, from, to);
    return std::accumulate(ratios.begin(), ratios.end(), 0.0);
}

} // namespace

BOOST_DATA_TEST_CASE(smhOnTheGlmsAcceptsWithItsFactorisedProbability,
                     data::make(std::vector<std::string>{"probit", "linear", "robust-linear"})
                         * data::make(std::vector<double>{1.0, 0.5, 20.0, 100.0}),
                     family, temperature)
{
    const auto model = syntheticGlm(family, 2000, 7);
    const Vector anchor = findPosteriorMode(*model, temperature).mode;
    // Each coordinate's Laplace sd at T: moves of a fixed number of them keep Δ and the residuals
    // over T in the same range at every T and in every family.
    const Vector laplaceSd =
        (-makeTaylorProxies(*model, anchor, 2)->hessianSum().diagonal().array() / temperature + 1.0).rsqrt().matrix();
    Rng rng(21 + static_cast<std::uint64_t>(temperature));
    for (int order : {1, 2}) {
        const ControlVariateModel cv(model, makeTaylorProxies(*model, anchor, order));
        for (double scale : {order == 1 ? 0.5 : 1.0, order == 1 ? 1.0 : 1.5}) {
            // Downhill, away from the anchor.
            Vector from = anchor, to = anchor;
            for (Eigen::Index j = 0; j < anchor.size(); ++j) {
                from[j] -= 0.5 * scale * laplaceSd[j];
                to[j] += scale * laplaceSd[j] * (j % 2 ? 1.0 : -1.0);
            }
            const TestProblem problem{cv, from, to, temperature, model->logPrior(to) - model->logPrior(from) + 0.3};
            ScalableMetropolisTest test;
            const teststats::Frequency f = teststats::acceptanceFrequency(test, problem, rng);
            const double exact = teststats::smhProbability(cv, problem);
            std::ostringstream figures;
            figures << family << " SMH-" << order << " at T " << temperature << ", scale " << scale << ": " << f.rate
                    << " vs " << exact << ", mean points " << f.meanPoints << ", fallbacks " << f.fallbacks;
            BOOST_TEST_MESSAGE(figures.str());
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(exact > 0.02); // a move the kernel can get wrong either way
            BOOST_TEST(exact < 0.98);
            BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, 100'000));
            BOOST_TEST(f.violations == 0);
            BOOST_TEST(f.fallbacks == 0);
        }
    }
}

BOOST_DATA_TEST_CASE(minibatchTestOnGlmControlVariatesHasBarkersProbability,
                     data::make(std::vector<std::string>{"probit", "poisson", "linear", "robust-linear"})
                         * data::make(std::vector<double>{1.0, 0.5, 20.0, 100.0}),
                     family, temperature)
{
    const auto correction = teststats::solvedCorrection();
    const auto model = syntheticGlm(family, 50'000, 9);
    const Vector anchor = findPosteriorMode(*model, temperature).mode;
    const auto proxies = makeTaylorProxies(*model, anchor, 2);
    const ControlVariateModel cv(model, proxies);
    // Each coordinate's Laplace sd at T, so that Δ is of order 1 in every family.
    const Vector laplaceSd = (-proxies->hessianSum().diagonal().array() / temperature + 1.0).rsqrt().matrix();
    Rng rng(31 + static_cast<std::uint64_t>(temperature));
    const int repetitions = 40000;
    for (double scale : {0.2, 0.4}) {
        Vector from = anchor, to = anchor;
        for (Eigen::Index j = 0; j < anchor.size(); ++j) {
            from[j] += scale * laplaceSd[j] * rng.normal();
            to[j] = from[j] + scale * laplaceSd[j] * rng.normal();
        }
        const double logPrior = model->logPrior(to) - model->logPrior(from);
        const double delta = fullSum(*model, from, to) / temperature + logPrior;
        MinibatchBarkerTest test(correction, MinibatchSettings{});
        const teststats::AcceptanceOutcome outcome = [&] {
            teststats::AcceptanceOutcome o;
            int accepted = 0;
            const TestProblem problem{cv, from, to, temperature, logPrior};
            for (int r = 0; r < repetitions; ++r) {
                const Decision d = test.decide(problem, rng);
                accepted += d.accepted;
                o.meanPoints += static_cast<double>(d.pointsUsed) / repetitions;
            }
            o.rate = static_cast<double>(accepted) / repetitions;
            return o;
        }();
        const double exact = teststats::barkerProbability(delta);
        std::ostringstream figures;
        figures << family << " minibatch+taylor2 at T " << temperature << ", scale " << scale << ": delta " << delta
                << ", " << outcome.rate << " vs " << exact << ", mean batch " << outcome.meanPoints;
        BOOST_TEST_MESSAGE(figures.str());
        BOOST_TEST_INFO(figures.str());
        BOOST_TEST(std::abs(outcome.rate - exact)
                   <= teststats::acceptanceTolerance(exact, correction->linfError(), repetitions));
        BOOST_TEST(outcome.meanPoints < 10'000.0); // a minibatch, not the data
    }
}
