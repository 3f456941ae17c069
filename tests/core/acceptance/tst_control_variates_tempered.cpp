// The approximate minibatch kernels on Taylor-proxy control variates (Bardenet et al. 2017,
// "On MCMC methods for tall data", Sec. 7; the proxies of control_variates.h) at T ≠ 1. The 1/T
// enters twice, in the proxies' exact sum and in the residuals' N/T, and each kernel must carry
// both:
//  - acceptance against the exact formula on 4-covariate tall logistic data, anchor at the
//    tempered mode, moves scaled by √T: the naive test (Barker smeared by its Δ*'s spread) at
//    T = 1, 0.5, 20, 100; MHSubLhd (Metropolis within δ; N = 5,000) and AustereMH(c) (Metropolis
//    plus the error its dynamic program predicts for the residuals) at T = 0.5, 20, 100, orders 1
//    and 2, and AustereMH(nc) on second-order ones (the design it chose, with its predicted error
//    and batch) at T = 1, 0.5, 20, 100, on moves oriented downhill with Metropolis' probability
//    in [0.02, 0.9], so that a wrong scale shows.
//    Resolution: 4.9 binomial standard errors over 10,000–40,000 repetitions plus the kernel's
//    own allowance (named at each check);
//  - chains against the tempered grid posterior of one weight (N = 3000) at T = 0.5, 20 and 100
//    for the minibatch test and AustereMH(c) on first- and second-order proxies and MHSubLhd (range
//    from the remainder bound) on both, and at T = 20 for AustereMH(nc) on second-order ones: KS,
//    mean and the variance's χ² on the ESS (grid_chain_check.h: an sd 5 % off at the edge, 10 %
//    rejected).
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <algorithm>
#include <memory>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/acceptance/austere_adaptive_test.h"
#include "core/acceptance/austere_design.h"
#include "core/acceptance/austere_designer.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "core/acceptance/sequential_tests.h"
#include "core/correction/correction_distribution.h"
#include "core/models/control_variates.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/grid_chain_check.h"
#include "tests/support/solved_correction.h"
#include "tests/support/tempered_kernels.h"
#include "tests/support/small_logistic_models.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

using teststats::fullSum;
using teststats::perturbed;

const std::shared_ptr<const LogisticRegressionModel> &tallLogistic()
{
    static const auto model = testdata::syntheticLogistic(200'000, 4, true, 33);
    return model;
}

// MHSubLhd reads a fixed fraction of the data at these moves (its range bound against Δ): a
// smaller population keeps its rows fast.
const std::shared_ptr<const LogisticRegressionModel> &smallerTallLogistic()
{
    static const auto model = testdata::syntheticLogistic(5'000, 4, true, 34);
    return model;
}

// One move θ → θ′ near the tempered mode of the tall data, with its exact Δ.
struct TemperedMove {
    Vector from, to;
    double logPrior = 0.0;
    double delta = 0.0;
};
// Oriented downhill (Δ ≤ 0), where Metropolis' probability is below 1 and a wrong rate shows,
// and drawn again until that probability lies in [0.02, 0.9] (Δ in [−3.9, −0.105]): a move whose
// probability is near 1 (or 0) is one a kernel with a wrong scale on its residuals or exact part
// still gets right.
TemperedMove moveNear(const Model &model, const Vector &anchor, double scale, double temperature, Rng &rng)
{
    for (int attempt = 0; attempt < 1000; ++attempt) {
        TemperedMove move;
        move.from = perturbed(anchor, scale, rng);
        move.to = perturbed(move.from, scale, rng);
        move.logPrior = model.logPrior(move.to) - model.logPrior(move.from);
        move.delta = fullSum(model, move.from, move.to) / temperature + move.logPrior;
        if (move.delta > 0.0) {
            std::swap(move.from, move.to);
            move.logPrior = -move.logPrior;
            move.delta = -move.delta;
        }
        const double metropolis = teststats::metropolisProbability(move.delta);
        if (metropolis >= 0.02 && metropolis <= 0.9)
            return move;
    }
    throw std::runtime_error("no move with Metropolis' probability in [0.02, 0.9] at this scale");
}

} // namespace

// The naive test on the control-variate estimate Δ* = exact part / T + prior + (N/(T b)) Σ_B r_i,
// with σ = 1.8: the residuals' spread is small enough that its batch seldom grows (on a few per
// cent of decisions, checked; heavy-tailed residuals now and then inflate s²), so Δ* is Δ
// plus a mean of b = 100 residuals drawn without replacement, sd s = (N/T) sd_r
// √((N − b)/((N − 1) b)), and the test accepts with Barker's probability smeared by N(0, s²). The
// move θ̂ + (c ∓ 1) v lies along one direction, |v| scaled until s ≈ 1 and the offset c until
// Δ ≈ −1.3, where Barker's curvature makes the smear visible (about 0.05; checked to exceed twice
// the tolerance, so that a Δ* with a wrong N/T on its residuals would show too). Allowance: 0.003
// for Δ*'s departure from normality at b = 100.
BOOST_DATA_TEST_CASE(naiveTestWithControlVariatesHasTheSmearedBarkerProbability, data::make({1.0, 0.5, 20.0, 100.0}),
                     temperature)
{
    const auto &logistic = tallLogistic();
    const Vector anchor = findPosteriorMode(*logistic, temperature).mode;
    Rng rng(71 + static_cast<std::uint64_t>(temperature));
    const int repetitions = 40000;
    const auto n = static_cast<double>(logistic->dataSize());
    MinibatchSettings settings; // b = 100, growing by 100 while s² > σ²
    const double b = static_cast<double>(settings.initialBatch);
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        const Vector direction = perturbed(Vector::Zero(anchor.size()), 1.0, rng).normalized();
        Vector from, to;
        const auto place = [&](double length, double offset) {
            from = anchor + (offset - 1.0) * length * direction;
            to = anchor + (offset + 1.0) * length * direction;
        };
        const auto spread = [&] {
            const double residualSd = cv.logLikelihoodRatioMoments(from, to).second;
            return (n / temperature) * residualSd * std::sqrt((n - b) / ((n - 1.0) * b));
        };
        const auto exactDelta = [&] {
            return fullSum(*logistic, from, to) / temperature + logistic->logPrior(to) - logistic->logPrior(from);
        };
        double length = 0.01 * std::sqrt(temperature), offset = 0.0;
        for (int rescale = 0; rescale < 6; ++rescale) {
            place(length, offset);
            length *= std::cbrt(1.0 / spread()); // the residuals grow about as |v|³
            place(length, offset);
            const double atOffset = exactDelta();
            place(length, offset + 0.1);
            const double slope = (exactDelta() - atOffset) / 0.1; // Δ is nearly linear in the offset
            offset += (-1.3 - atOffset) / slope;
        }
        place(length, offset);
        const double s = spread(), delta = exactDelta();
        const double logPrior = logistic->logPrior(to) - logistic->logPrior(from);
        NaiveMinibatchBarkerTest naive(1.8, settings);
        const teststats::AcceptanceOutcome tally = teststats::repeatDecision(naive, TestProblem{cv, from, to, temperature, logPrior}, rng, repetitions);
        const double smeared = teststats::smearedBarkerProbability(delta, s);
        const double barker = teststats::barkerProbability(delta);
        const double tolerance = teststats::acceptanceTolerance(smeared, 0.003, repetitions);
        std::ostringstream figures;
        figures << "T " << temperature << ", order " << order << ", |v| " << length << ", offset " << offset
                << ", delta " << delta << ", s " << s << ": " << tally.rate << " vs smeared " << smeared
                << " (Barker " << barker << "), mean batch " << tally.meanPoints;
        BOOST_TEST_MESSAGE(figures.str());
        BOOST_TEST_INFO(figures.str());
        BOOST_TEST(std::abs(tally.rate - smeared) <= tolerance);
        BOOST_TEST(std::abs(smeared - barker) > 2.0 * tolerance); // the smear is resolved
        BOOST_TEST(std::abs(s - 1.0) < 0.15);
        BOOST_TEST(tally.meanPoints < 1.03 * b); // it grew on a few per cent of decisions: Δ*'s spread is the s above
    }
}

// MHSubLhd with control variates at T = 0.5, 20 and 100: its range is the remainder bound's (no
// pass over the data) and it accepts with Metropolis' probability within its δ = 0.01 (the
// allowance).
BOOST_DATA_TEST_CASE(subLhdWithControlVariatesHasMetropolisProbabilityAtOtherTemperatures,
                     data::make({0.5, 20.0, 100.0}), temperature)
{
    const auto &logistic = smallerTallLogistic();
    const Vector anchor = findPosteriorMode(*logistic, temperature).mode;
    Rng rng(81 + static_cast<std::uint64_t>(temperature));
    const int repetitions = 10000; // ±0.024 at p = ½, plus δ
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        // Short moves: the remainder bound grows as |v|^(k+1) and MHSubLhd reads until its range
        // allows a decision (at order 1 about a quarter of the data).
        for (double scale : {order == 1 ? 0.008 : 0.016, order == 1 ? 0.012 : 0.024}) {
            const TemperedMove move = moveNear(*logistic, anchor, scale * std::sqrt(temperature), temperature, rng);
            SubLhdSettings settings;
            settings.useModelBound = true;
            SubLhdTest test(settings);
            const teststats::AcceptanceOutcome tally = teststats::repeatDecision(test, TestProblem{cv, move.from, move.to, temperature, move.logPrior}, rng, repetitions);
            const double exact = teststats::metropolisProbability(move.delta);
            std::ostringstream figures;
            figures << "T " << temperature << ", order " << order << ", delta " << move.delta << ": " << tally.rate
                    << " vs " << exact << ", mean batch " << tally.meanPoints;
            BOOST_TEST_MESSAGE(figures.str());
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(tally.rate - exact) <= teststats::acceptanceTolerance(exact, settings.delta, repetitions));
            BOOST_TEST(tally.meanFullScan == 0.0);
        }
    }
}

// AustereMH(c) with control variates at T = 0.5, 20 and 100: the residuals' Λ_i = (N/T) r_i
// against ψ = log u − (prior ratio + proxies' sum / T); its rate is Metropolis' probability of
// the exact Δ plus the error the dynamic program (Korattikara et al., supplement Eq. 18–21)
// predicts for that population, within 0.005 for the program's grid.
BOOST_DATA_TEST_CASE(austereWithControlVariatesHasThePredictedProbabilityAtOtherTemperatures,
                     data::make({0.5, 20.0, 100.0}), temperature)
{
    const auto &logistic = tallLogistic();
    const Vector anchor = findPosteriorMode(*logistic, temperature).mode;
    Rng rng(91 + static_cast<std::uint64_t>(temperature));
    const int repetitions = 20000;
    AustereSettings settings;
    settings.epsilon = 0.01;
    static const AustereDesignTable errorTable(tallLogistic()->dataSize(), settings.batch, settings.epsilon);
    const auto scale = static_cast<double>(logistic->dataSize()) / temperature;
    for (int order : {1, 2}) {
        const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, order));
        for (double step : {0.003, 0.006}) {
            const TemperedMove move = moveNear(*logistic, anchor, step * std::sqrt(temperature), temperature, rng);
            const TestProblem problem{cv, move.from, move.to, temperature, move.logPrior};
            const auto [residualMean, residualSd] = cv.logLikelihoodRatioMoments(move.from, move.to);
            const double predicted = teststats::metropolisProbability(move.delta)
                                     + errorTable.acceptanceError(scale * residualMean, scale * residualSd,
                                                                  problem.exactPart());
            AustereTest test(settings);
            const teststats::AcceptanceOutcome tally = teststats::repeatDecision(test, problem, rng, repetitions);
            std::ostringstream figures;
            figures << "T " << temperature << ", order " << order << ", delta " << move.delta << ": " << tally.rate
                    << " vs predicted " << predicted << " (Metropolis " << teststats::metropolisProbability(move.delta)
                    << "), mean batch " << tally.meanPoints;
            BOOST_TEST_MESSAGE(figures.str());
            BOOST_TEST_INFO(figures.str());
            BOOST_TEST(std::abs(tally.rate - predicted) <= teststats::acceptanceTolerance(predicted, 0.005, repetitions));
            BOOST_TEST(tally.meanFullScan == 0.0);
        }
    }
}

// AustereMH(nc) with control variates at T = 1, 0.5, 20 and 100 (N = 5,000, designs m = 200 with
// ε = 0.001 or 0.05, bound 0.005): at each decision it reads the residuals' full moments, picks
// the cheapest design whose predicted |ΔP| is within the bound, and runs it, so its rate is
// Metropolis' probability plus that design's predicted error (within 0.005 for the program's
// grid). On these small residuals both designs stop at or near their first look (201–262 points
// against 200–227), so the mean batch, checked against the chosen design's, cannot tell which ran:
// the plain kernel's test in tst_sequential_tests does that.
BOOST_DATA_TEST_CASE(austereNonConservativeWithControlVariatesHasItsPredictedProbability,
                     data::make({1.0, 0.5, 20.0, 100.0}), temperature)
{
    const auto &logistic = smallerTallLogistic();
    const Vector anchor = findPosteriorMode(*logistic, temperature).mode;
    const auto n = static_cast<double>(logistic->dataSize());
    static const auto designer = std::make_shared<const AustereDesigner>(
        logistic->dataSize(), std::vector<std::int64_t>{200}, std::vector<double>{0.001, 0.05});
    Rng rng(101 + static_cast<std::uint64_t>(temperature));
    const int repetitions = 10000;
    const ControlVariateModel cv(logistic, makeTaylorProxies(*logistic, anchor, 2));
    for (double step : {0.016, 0.024}) {
        const TemperedMove move = moveNear(*logistic, anchor, step * std::sqrt(temperature), temperature, rng);
        const TestProblem problem{cv, move.from, move.to, temperature, move.logPrior};
        const auto [residualMean, residualSd] = cv.logLikelihoodRatioMoments(move.from, move.to);
        const ProposalMoments moments{n / temperature * residualMean, n / temperature * residualSd, problem.exactPart()};
        const std::size_t chosen = designer->choose(moments, 0.005);
        const AustereDesignTable &table = designer->tables()[chosen];
        const double otherBatch = designer->tables()[1 - chosen].expectedDataFraction(
                                      moments.meanLambda, moments.sdLambda, moments.logPriorProposalRatio) * n;
        const double predicted = teststats::metropolisProbability(move.delta)
                                 + table.acceptanceError(moments.meanLambda, moments.sdLambda, moments.logPriorProposalRatio);
        const double batch = table.expectedDataFraction(moments.meanLambda, moments.sdLambda, moments.logPriorProposalRatio) * n;
        AustereAdaptiveTest test(designer, 0.005);
        const teststats::AcceptanceOutcome tally = teststats::repeatDecision(test, problem, rng, repetitions);
        std::ostringstream figures;
        figures << "T " << temperature << ", delta " << move.delta << ": " << tally.rate << " vs predicted " << predicted
                << " (design epsilon " << table.epsilon() << "), mean batch " << tally.meanPoints << " vs " << batch
                << " (the other design " << otherBatch << ")";
        BOOST_TEST_MESSAGE(figures.str());
        BOOST_TEST_INFO(figures.str());
        BOOST_TEST(std::abs(tally.rate - predicted) <= teststats::acceptanceTolerance(predicted, 0.005, repetitions));
        BOOST_TEST(std::abs(tally.meanPoints - batch) <= 4.9 * 0.5 * n / std::sqrt(repetitions) + 0.02 * n);
    }
}

namespace {

struct ChainRow {
    std::string kernel;
    int order;
    double temperature;
};
std::ostream &operator<<(std::ostream &out, const ChainRow &row)
{
    return out << row.kernel << "+taylor" << row.order << " at T=" << row.temperature;
}

std::vector<ChainRow> chainRows()
{
    std::vector<ChainRow> rows;
    for (double temperature : {0.5, 20.0, 100.0}) {
        for (int order : {1, 2}) {
            rows.push_back({"minibatch", order, temperature});
            rows.push_back({"austere-c", order, temperature});
            rows.push_back({"sublhd", order, temperature});
        }
    }
    rows.push_back({"austere-nc", 2, 20.0}); // a design chosen every step: about 15 s a chain
    return rows;
}

constexpr DataIndex kChainRows = 3000;

} // namespace

BOOST_DATA_TEST_CASE(controlVariateChainsHaveTheTemperedGridPosterior, data::make(chainRows()), row)
{
    static const auto model = testdata::syntheticLogistic(kChainRows, 1, false, 51);
    const teststats::TemperedGrid grid(*model, row.temperature);
    const ControlVariateModel cv(model, makeTaylorProxies(*model, grid.mode, row.order));
    const std::unique_ptr<AcceptanceTest> kernel = teststats::makeTemperedKernel(row.kernel, kChainRows, true);
    const auto seed = static_cast<std::uint64_t>(61 + row.temperature * 2 + row.order) + 1000 * teststats::kernelNumber(row.kernel);
    const teststats::GridChainFigures figures = teststats::runAgainstGrid(cv, *kernel, grid, seed);
    teststats::expectGridPosterior(row.kernel + "+taylor" + std::to_string(row.order), figures, grid);
}
