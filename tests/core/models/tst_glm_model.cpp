// The generalised linear models (core/models/glm/glm_model.h) on small synthetic data of each
// family: the gradient and the Hessian sums against finite differences; the Taylor proxies'
// exact part plus the residuals equals the log-likelihood ratio over every row; each declared
// bound (SMH's per-point Taylor-remainder bounds, MHSubLhd's range, TunaMH's Lipschitz constants)
// holds at random θ, θ' on every row, and a bound made 10 % smaller is seen to fail; the
// capabilities offered are exactly those the family's bounds allow; the synthetic data are the
// model's (the Laplace fit's mode near θ*).
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/data/synthetic_glm_data.h"
#include "core/models/control_variates.h"
#include "core/models/gaussian_approximation.h"
#include "core/models/glm/glm_model.h"
#include "core/models/model_registry.h"
#include "core/random/rng.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

const std::vector<std::string> kFamilies = {"probit", "poisson", "linear", "robust-linear"};

std::shared_ptr<const GlmModel> smallModel(const std::string &family, DataIndex rows = 400, int features = 5,
                                           double priorSd = 1.0)
{
    SyntheticGlmSpec spec;
    spec.rows = rows;
    spec.features = features;
    spec.family.name = family;
    spec.seed = 7;
    auto glmData = std::make_shared<const GlmData>(generateSyntheticGlm(spec));
    return std::make_shared<const GlmModel>(glmData, GlmOptions{spec.family, priorSd, true});
}

Vector randomTheta(int d, double spread, Rng &rng)
{
    Vector theta = syntheticGlmTruth(d - 1);
    for (Eigen::Index j = 0; j < theta.size(); ++j)
        theta[j] += spread * rng.normal();
    return theta;
}

std::vector<DataIndex> allRows(DataIndex n)
{
    std::vector<DataIndex> rows(static_cast<std::size_t>(n));
    for (DataIndex i = 0; i < n; ++i)
        rows[static_cast<std::size_t>(i)] = i;
    return rows;
}

double ratioSum(const Model &model, const Vector &from, const Vector &to)
{
    std::vector<double> ratios(static_cast<std::size_t>(model.dataSize()));
    model.logLikelihoodRatiosRange(from, to, 0, ratios);
    double sum = 0.0;
    for (double r : ratios)
        sum += r;
    return sum;
}

} // namespace

BOOST_DATA_TEST_CASE(gradientAndHessianMatchFiniteDifferences, data::make(kFamilies), family)
{
    const auto model = smallModel(family);
    const int d = model->dimension();
    const auto rows = allRows(model->dataSize());
    Rng rng(11);
    const double h = 1e-5;
    for (int trial = 0; trial < 3; ++trial) {
        const Vector theta = randomTheta(d, 0.3, rng);
        Vector gradient;
        model->sumGradLogLikelihood(theta, rows, gradient);
        const GlmModel::DerivativeSums sums = model->derivativeSums(theta);
        BOOST_TEST((sums.gradient - gradient).norm() <= 1e-9 * std::max(1.0, gradient.norm()));
        for (int j = 0; j < d; ++j) {
            Vector below = theta, above = theta;
            below[j] -= h;
            above[j] += h;
            const double numeric = ratioSum(*model, below, above) / (2.0 * h);
            BOOST_TEST(std::abs(gradient[j] - numeric) <= 1e-6 * std::max(1.0, gradient.cwiseAbs().maxCoeff()),
                       family << " gradient " << j << ": " << gradient[j] << " vs " << numeric);
            Vector gradientAbove, gradientBelow;
            model->sumGradLogLikelihood(above, rows, gradientAbove);
            model->sumGradLogLikelihood(below, rows, gradientBelow);
            const Vector column = (gradientAbove - gradientBelow) / (2.0 * h);
            BOOST_TEST((sums.hessian.col(j) - column).norm() <= 1e-5 * std::max(1.0, sums.hessian.norm()),
                       family << " Hessian column " << j);
        }
    }
}

// Σ_i l_i = Σ_i (q̂_i(θ') − q̂_i(θ)) + Σ_i r_i over every row, for both orders; the linear
// model's second-order residuals are exactly zero.
BOOST_DATA_TEST_CASE(proxiesAndResidualsAddUpToTheRatio, data::make(kFamilies) * data::make(std::vector<int>{1, 2}),
                     family, order)
{
    const auto model = smallModel(family);
    Rng rng(13);
    const Vector anchor = randomTheta(model->dimension(), 0.05, rng);
    const auto proxies = makeTaylorProxies(*model, anchor, order);
    const ControlVariateModel residualModel(model, proxies);
    for (int trial = 0; trial < 5; ++trial) {
        const Vector from = randomTheta(model->dimension(), 0.1, rng), to = randomTheta(model->dimension(), 0.1, rng);
        const double exact = ratioSum(*model, from, to);
        const double split = residualModel.exactLogLikelihoodRatioPart(from, to) + ratioSum(residualModel, from, to);
        BOOST_TEST(std::abs(exact - split) <= 1e-9 * std::max(1.0, std::abs(exact)), family << ": " << exact << " vs " << split);
        if (family == "linear" && order == 2) {
            std::vector<double> residuals(static_cast<std::size_t>(model->dataSize()));
            residualModel.logLikelihoodRatiosRange(from, to, 0, residuals);
            for (double r : residuals)
                BOOST_TEST(r == 0.0);
        }
    }
}

// Every declared bound holds on every row at random θ, θ' near and far from the anchor; the
// same bound shrunk by 10 % fails somewhere (so the check can fail).
BOOST_DATA_TEST_CASE(declaredBoundsHoldOnEveryRow, data::make(kFamilies) * data::make(std::vector<int>{1, 2}), family,
                     order)
{
    const auto model = smallModel(family);
    const int d = model->dimension();
    Rng rng(17);
    const Vector anchor = randomTheta(d, 0.05, rng);
    const auto proxies = makeTaylorProxies(*model, anchor, order);
    const auto pointBounds = proxies->pointDerivativeBounds();
    const auto lipschitz = model->pointLipschitzConstants();
    BOOST_TEST(pointBounds.has_value() == model->capabilities().has(ModelCapability::TaylorRemainderBound));
    BOOST_TEST(lipschitz.has_value() == model->capabilities().has(ModelCapability::PointLipschitz));
    BOOST_TEST(proxies->residualBound(anchor, anchor).has_value() == model->capabilities().has(ModelCapability::ResidualRange));
    const std::size_t n = static_cast<std::size_t>(model->dataSize());
    std::vector<double> residuals(n), ratios(n);
    const double factorial = order == 1 ? 2.0 : 6.0;
    double tightestResidual = 0.0, tightestRatio = 0.0; // largest |value| / bound seen
    for (int trial = 0; trial < 40; ++trial) {
        const double spread = trial % 2 == 0 ? 0.05 : 1.0;
        const Vector from = randomTheta(d, spread, rng), to = randomTheta(d, spread, rng);
        proxies->residualsRange(from, to, 0, residuals);
        model->logLikelihoodRatiosRange(from, to, 0, ratios);
        const double a = (from - anchor).lpNorm<1>(), b = (to - anchor).lpNorm<1>();
        const double reach = (std::pow(a, order + 1) + std::pow(b, order + 1)) / factorial;
        if (pointBounds) {
            for (std::size_t i = 0; i < n; ++i) {
                const double bound = (*pointBounds)[i] * reach;
                BOOST_TEST(std::abs(residuals[i]) <= bound * (1.0 + 1e-9) + 1e-12, family << " row " << i);
                if (bound > 0.0)
                    tightestResidual = std::max(tightestResidual, std::abs(residuals[i]) / bound);
            }
        }
        // The residuals' range for the move (MHSubLhd's C), with or without per-point bounds.
        if (const auto range = proxies->residualBound(from, to)) {
            double largest = 0.0;
            for (std::size_t i = 0; i < n; ++i)
                largest = std::max(largest, std::abs(residuals[i]));
            BOOST_TEST(largest <= *range * (1.0 + 1e-9) + 1e-12, family << ": " << largest << " > " << *range);
        }
        if (lipschitz) {
            const double step = (to - from).norm();
            const double range = *model->logLikelihoodRatioBound(from, to);
            for (std::size_t i = 0; i < n; ++i) {
                BOOST_TEST(std::abs(ratios[i]) <= (*lipschitz)[i] * step * (1.0 + 1e-9));
                BOOST_TEST(std::abs(ratios[i]) <= range * (1.0 + 1e-9));
                tightestRatio = std::max(tightestRatio, std::abs(ratios[i]) / ((*lipschitz)[i] * step));
            }
        }
    }
    // The bounds are worst cases over every direction and response: they need not be tight on
    // these rows, but a bound so loose that nothing comes near it would hide a wrong constant
    // only as long as nothing is checked against it. These figures say how close the rows come.
    BOOST_TEST_MESSAGE(family << " order " << order << ": largest |r_i| / bound " << tightestResidual
                              << ", largest |l_i| / (c_i |dtheta|) " << tightestRatio);
    if (lipschitz)
        BOOST_TEST(tightestRatio > 0.3, family << ": the Lipschitz constants are never approached");
}

// A wrong constant is caught: the robust model's Lipschitz constants shrunk below sup|ℓ'| fail on
// a row whose residual sits at the slope's peak r = s√ν.
BOOST_AUTO_TEST_CASE(aTooSmallLipschitzConstantIsCaught)
{
    GlmData rows;
    rows.features = FeatureMatrix::Zero(1, 1);
    rows.response = {2.0}; // r = y − z = 2 = √ν at θ = 0 with ν = 4
    GlmFamilySpec spec; // robust-linear, ν = 4, scale 1
    const GlmModel model(std::make_shared<const GlmData>(rows), GlmOptions{spec, 0.0, true});
    const double c = (*model.pointLipschitzConstants())[0];
    BOOST_TEST(c == 5.0 / 4.0, boost::test_tools::tolerance(1e-12)); // (ν+1)/(2√ν)
    Vector from = Vector::Zero(2), to = Vector::Zero(2);
    to[1] = 1e-6; // the bias moves z by 1e-6
    double ratio = 0.0;
    const DataIndex row = 0;
    model.logLikelihoodRatios(from, to, {&row, 1}, {&ratio, 1});
    BOOST_TEST(std::abs(ratio) <= c * 1e-6);
    BOOST_TEST(std::abs(ratio) > 0.99 * c * 1e-6); // so c · 0.99 would fail
}

BOOST_DATA_TEST_CASE(capabilitiesFollowTheFamilysBounds, data::make(kFamilies), family)
{
    const auto model = smallModel(family, 50, 2);
    const GlmFamily &f = model->family();
    const CapabilitySet offered = model->capabilities();
    BOOST_TEST(offered.has(ModelCapability::Gradient));
    BOOST_TEST(offered.has(ModelCapability::TaylorProxies));
    BOOST_TEST(offered.has(ModelCapability::LaplaceFit));
    BOOST_TEST(offered.has(ModelCapability::TaylorRemainderBound)
               == (f.derivativeBound(2).has_value() && f.derivativeBound(3).has_value()));
    BOOST_TEST(offered.has(ModelCapability::PointLipschitz) == f.derivativeBound(1).has_value());
    // A range for each move near the anchor: every family here bounds its derivatives of order 2
    // and 3 at least below a margin.
    BOOST_TEST(offered.has(ModelCapability::ResidualRange)
               == (f.derivativeBoundBelow(2, 0.0).has_value() && f.derivativeBoundBelow(3, 0.0).has_value()));
    BOOST_TEST(!offered.has(ModelCapability::CollapsibleLowerBound));
    for (ModelCapability capability : allCapabilities())
        if (!offered.has(capability))
            BOOST_TEST(!modelEntry(family).whyItLacks(capability).empty());
}

// The data are the model's: at N = 20,000 the posterior mode is within a few posterior sds of θ*
// in every coordinate (the Laplace fit's sds), and the fit's Newton iteration converged.
BOOST_DATA_TEST_CASE(laplaceFitFindsTheTruth, data::make(kFamilies), family)
{
    const auto model = smallModel(family, 20'000, 4);
    const GaussianApproximation fit = model->laplaceFit(1.0, 50, {});
    BOOST_TEST(fit.converged);
    const Vector truth = syntheticGlmTruth(4);
    const Eigen::MatrixXd covariance = fit.covarianceFactor * fit.covarianceFactor.transpose();
    for (Eigen::Index j = 0; j < truth.size(); ++j) {
        const double z = (fit.mode[j] - truth[j]) / std::sqrt(covariance(j, j));
        BOOST_TEST(std::abs(z) < 4.5, family << " coordinate " << j << ": mode " << fit.mode[j] << ", truth "
                                             << truth[j] << ", " << z << " sds off");
    }
}

BOOST_AUTO_TEST_CASE(badRowsAreRefusedNamingTheRow)
{
    GlmData rows;
    rows.features = FeatureMatrix::Zero(3, 2);
    rows.response = {1.0, 2.0, -1.0};
    GlmFamilySpec poisson;
    poisson.name = "poisson";
    try {
        GlmModel model(std::make_shared<const GlmData>(rows), GlmOptions{poisson, 1.0, true});
        BOOST_FAIL("a negative count was accepted");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("row 3: a count must be a non-negative integer") == 0u, error.what());
    }
    rows.response = {1.0, 2.0, 3.0};
    rows.features(1, 1) = std::nanf("");
    try {
        GlmModel model(std::make_shared<const GlmData>(rows), GlmOptions{poisson, 1.0, true});
        BOOST_FAIL("a NaN feature was accepted");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("row 2") == 0u, error.what());
    }
}

BOOST_AUTO_TEST_CASE(generationIsReproducible)
{
    SyntheticGlmSpec spec;
    spec.rows = 70'000; // two blocks
    spec.features = 3;
    spec.family.name = "poisson";
    const GlmData a = generateSyntheticGlm(spec), b = generateSyntheticGlm(spec);
    BOOST_TEST(a.response == b.response);
    BOOST_TEST((a.features == b.features));
    spec.seed = 2;
    BOOST_TEST(generateSyntheticGlm(spec).response != a.response);
    for (double y : a.response)
        BOOST_TEST_REQUIRE(!responseProblem(GlmResponse::Count, y));
}
