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
//    included, and the example complementary log-log plugin): Barker's probability of the exact Δ within 4.9 standard errors over 40,000
//    repetitions plus the correction's L∞ error, on 50,000 rows, moves of 0.2 and 0.4 Laplace sds.
//  - TunaMH on robust linear regression (the one family whose log-likelihood is Lipschitz), at
//    the same temperatures: its exact probability is a sum over every Poisson count of every
//    group of equal rows, so the rows here are three distinct ones, each 4·max(1, T) times,
//    and no prior (so that the data decide at every T); 4.9 binomial standard errors over 100,000
//    repetitions, and detailed balance of the exact probabilities to 1e-9.
// The chains' stationary laws are tst_glm_exact_chains'.
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
#include "core/acceptance/full_data_tests.h"
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
    if (family == "cloglog") // the example plugin (examples/cloglog-plugin), built for the tests
        spec.family.plugin = std::string(MHX_TEST_PLUGIN_DIR) + "/test_cloglog_plugin.so";
    else
        spec.family.name = family;
    spec.seed = seed;
    auto table = std::make_shared<const GlmData>(generateSyntheticGlm(spec));
    return std::make_shared<const GlmModel>(table, GlmOptions{spec.family, 1.0, true});
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
                     data::make(std::vector<std::string>{"probit", "poisson", "linear", "robust-linear", "cloglog"})
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
        const double delta = teststats::fullSum(*model, from, to) / temperature + logPrior;
        MinibatchBarkerTest test(correction, MinibatchSettings{});
        const teststats::AcceptanceOutcome outcome =
            teststats::repeatDecision(test, TestProblem{cv, from, to, temperature, logPrior}, rng, repetitions);
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

namespace {

/// Robust linear regression, one coefficient, no intercept, no prior: rows (0.7, 1.5),
/// (−1.3, 0.4) and (2.1, −2.0), each `copies` times. Equal rows have equal keep-probabilities, so
/// TunaMH's exact probability is a sum over three Poisson counts.
std::shared_ptr<const GlmModel> threeDistinctRobustRows(int copies)
{
    const std::vector<std::pair<float, double>> rows = {{0.7F, 1.5}, {-1.3F, 0.4}, {2.1F, -2.0}};
    auto table = std::make_shared<GlmData>();
    table->features.resize(static_cast<Eigen::Index>(rows.size()) * copies, 1);
    for (int c = 0; c < copies; ++c)
        for (std::size_t r = 0; r < rows.size(); ++r) {
            table->features(static_cast<Eigen::Index>(table->response.size()), 0) = rows[r].first;
            table->response.push_back(rows[r].second);
        }
    table->description = "three distinct rows";
    GlmFamilySpec family;
    family.name = "robust-linear";
    return std::make_shared<const GlmModel>(table, GlmOptions{family, 0.0, false});
}

} // namespace

// TunaMH (χ = 0.05) on robust linear regression at T = 1, 0.5, 20 and 100: moves of 1 and 2.5
// of the tempered posterior's Laplace sds across the mode, both directions (the lower of the two
// exact probabilities within [0.02, 0.98]), against the exact
// probability. A kernel whose c_i or ratios lack the 1/T, or whose keep-probability lacks its
// λ term, accepts with another probability (tst_exact_minibatch has their figures on logistic
// regression).
BOOST_DATA_TEST_CASE(tunaOnRobustLinearRegressionAcceptsWithItsExactProbability,
                     data::make(std::vector<double>{1.0, 0.5, 20.0, 100.0}), temperature)
{
    // Four copies of each row per unit of T above 1, so that N/T, and with it how much the data
    // weigh against the move, is the same at every T above 1.
    const auto model = threeDistinctRobustRows(static_cast<int>(4.0 * std::max(1.0, temperature)));
    BOOST_TEST_REQUIRE(model->capabilities().has(ModelCapability::PointLipschitz));
    const Vector mode = findPosteriorMode(*model, temperature).mode;
    const double laplaceSd = std::sqrt(-temperature / makeTaylorProxies(*model, mode, 2)->hessianSum()(0, 0));
    Rng rng(61 + static_cast<std::uint64_t>(temperature));
    const double chi = 0.05;
    for (double scale : {1.0, 2.5}) {
        const Vector from = mode.array() - 0.3 * scale * laplaceSd, to = mode.array() + 0.7 * scale * laplaceSd;
        for (const auto &[a, b] : {std::pair{from, to}, std::pair{to, from}}) {
            const TestProblem problem{*model, a, b, temperature, 0.0};
            const TestProblem reverse{*model, b, a, temperature, 0.0};
            TunaTest test(chi, false); // 12·max(1, T) rows: the formula of the kernel without its cap at N
            const teststats::Frequency f = teststats::acceptanceFrequency(test, problem, rng);
            const double exact = teststats::tunaProbability(*model, problem, chi);
            const double back = teststats::tunaProbability(*model, reverse, chi);
            std::ostringstream figures;
            figures << "TunaMH on robust linear regression at T " << temperature << ", " << a[0] << " -> " << b[0]
                    << ": " << f.rate << " vs " << exact << " (Metropolis "
                    << teststats::metropolisProbability(fullDataDelta(problem)) << "), mean points " << f.meanPoints;
            BOOST_TEST_MESSAGE(figures.str());
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(f.rate - exact) <= teststats::acceptanceTolerance(exact, 0.0, 100'000));
            BOOST_TEST(f.violations == 0);
            BOOST_TEST(std::min(exact, back) > 0.02); // each move one the kernel can get wrong either way
            BOOST_TEST(std::min(exact, back) < 0.98);
            BOOST_TEST(exact == back * std::exp(fullDataDelta(problem)), boost::test_tools::tolerance(1e-9));
        }
    }
}
