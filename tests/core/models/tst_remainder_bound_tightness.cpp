// Logistic regression's global residual bound (what MHSubLhd with control variates takes as its
// range, Bardenet et al. 2017, Sec. 7): |r_i| ≤ U (‖θ − θ̂‖₁^{k+1} + ‖θ′ − θ̂‖₁^{k+1}) / (k+1)!,
// U = sup|ψ^{(k+1)}| · max|x|^{k+1}, ψ = log σ. Random rows and moves leave it slack (a bound
// 20 % too small would still hold there), so this suite builds the data where it is tight: every
// row has |x| = max|x| = 1.5, and the labels put each row's margin at the anchor (the mode) where
// |ψ^{(k+1)}| is largest: 0 for k = 1 (ψ'' = −¼ there; half the rows agree with their sign), and
// ±log(2 + √3) ≈ ±1.317 for k = 2 (|ψ'''| = 1/(6√3); 78.9 % agree). From θ = θ̂ to θ′ = θ̂ + h
// the largest |r_i| must then reach at least 99 % of the bound (it is below by O((|x| h)²), about
// 1e-4 here) and never pass it: a bound 1 % too small is caught. Longer moves (margins far from
// the maximiser) must stay within it.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <vector>

#include "core/models/control_variates.h"
#include "core/models/posterior_mode.h"
#include "core/random/rng.h"
#include "tests/support/small_logistic_models.h"

using namespace core;

namespace {

constexpr double kFeature = 1.5;

// N rows with x = ±1.5 (random signs), the label agreeing with the sign on `agreeing` of them.
std::shared_ptr<const LogisticRegressionModel> equalMagnitudeRows(int rows, int agreeing, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<float> x(static_cast<std::size_t>(rows));
    std::vector<int> y(static_cast<std::size_t>(rows));
    for (int i = 0; i < rows; ++i) {
        const bool positive = rng.uniformIndex(2) == 1;
        x[static_cast<std::size_t>(i)] = static_cast<float>(positive ? kFeature : -kFeature);
        const bool agrees = i < agreeing;
        y[static_cast<std::size_t>(i)] = (positive == agrees) ? 1 : 0;
    }
    return testdata::oneFeatureLogistic(x, y, 1.0);
}

struct Tightness {
    double largest = 0.0;
    double bound = 0.0;
    double ratio() const { return largest / bound; }
};

Tightness measure(const TaylorProxies &proxies, const Model &model, const Vector &from, const Vector &to)
{
    std::vector<double> residuals(static_cast<std::size_t>(model.dataSize()));
    proxies.residualsRange(from, to, 0, residuals);
    Tightness t;
    for (double r : residuals)
        t.largest = std::max(t.largest, std::abs(r));
    t.bound = *proxies.residualBound(from, to);
    return t;
}

} // namespace

BOOST_AUTO_TEST_CASE(theGlobalResidualBoundIsReachedWhereTheMarginsSitAtTheMaximiser)
{
    const int rows = 10000;
    const double maximiser = std::log(2.0 + std::sqrt(3.0)); // where |ψ'''| = 1/(6√3)
    for (const int order : {1, 2}) {
        // The mode's condition Σ x (y − σ(xθ)) = θ (prior N(0, 1)) puts the agreeing fraction at
        // σ(margin) + θ/(N |x|): the count is rounded, so the margin lands within about 1e-3.
        const double margin = order == 1 ? 0.0 : maximiser;
        const double theta = margin / kFeature;
        const auto agreeing = static_cast<int>(
            std::lround(rows * (1.0 / (1.0 + std::exp(-margin)) + theta / (rows * kFeature))));
        const auto model = equalMagnitudeRows(rows, agreeing, 5 + static_cast<std::uint64_t>(order));
        const Vector anchor = findPosteriorMode(*model, 1.0).mode;
        const auto proxies = makeTaylorProxies(*model, anchor, order);
        BOOST_TEST_INFO("order " << order << ": anchor margin " << kFeature * anchor[0] << " (aimed at " << margin
                                 << ")");
        BOOST_TEST(std::abs(kFeature * anchor[0] - margin) < 0.01);
        for (const double h : {0.01, -0.01, 0.002}) {
            const Tightness tight = measure(*proxies, *model, anchor, anchor + Vector::Constant(1, h));
            BOOST_TEST_MESSAGE("order " << order << ", h " << h << ": max |r| / bound = " << std::setprecision(9)
                                        << tight.ratio());
            BOOST_TEST_INFO("order " << order << ", h " << h << ": max |r| " << tight.largest << ", bound "
                                     << tight.bound << ", ratio " << tight.ratio());
            BOOST_TEST(tight.ratio() <= 1.0 + 1e-9); // rounding only: the residuals are differences of sums
            BOOST_TEST(tight.ratio() >= 0.99);
        }
        // Far from the anchor, on both sides, the bound still holds (with slack).
        for (const double h : {0.3, 1.0, 3.0}) {
            const Tightness loose = measure(*proxies, *model, anchor - Vector::Constant(1, 0.5 * h),
                                            anchor + Vector::Constant(1, h));
            BOOST_TEST_INFO("order " << order << ", long move " << h << ": ratio " << loose.ratio());
            BOOST_TEST(loose.ratio() <= 1.0);
        }
    }
}
