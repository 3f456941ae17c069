#include "core/acceptance/firefly_test.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/models/logistic_regression_model.h"
#include "core/models/model_registry.h"
#include "core/models/posterior_mode.h"

namespace core {
namespace {

// a(ξ) = tanh(ξ/2)/(4ξ) = (σ(ξ) − ½)/(2ξ): even in ξ, ⅛ at 0 (its series there, where the
// quotient loses its digits).
double jaakkolaJordanCurvature(double xi)
{
    const double x = std::abs(xi);
    if (x < 1e-4)
        return 0.125 - x * x / 96.0;
    return std::tanh(0.5 * x) / (4.0 * x);
}

// log B(u) for the bound tuned at ξ.
double logBound(double u, double xi)
{
    return LogisticRegressionModel::logSigmoid(xi) + 0.5 * (u - xi) - jaakkolaJordanCurvature(xi) * (u * u - xi * xi);
}

} // namespace

FireflyTest::FireflyTest(FireflySettings settings) : m_settings(settings)
{
    if (!(settings.darkToBright > 0.0 && settings.darkToBright <= 1.0))
        throw std::invalid_argument("flymc-qdb must be in (0, 1]; got " + std::to_string(settings.darkToBright));
}

DataIndex FireflyTest::dataSize() const { return m_model->dataSize(); }

double FireflyTest::logBrightWeight(DataIndex i, const Vector &theta) const
{
    const ClassificationData &data = m_model->data();
    const int features = data.featureCount();
    double margin = data.mapped ? data.dotRow(i, theta.data()) : data.features.row(i).cast<double>().dot(theta.head(features));
    if (m_model->options().bias)
        margin += theta[features];
    const double u = data.labels[static_cast<std::size_t>(i)] ? margin : -margin;
    const double xi = m_xi[static_cast<std::size_t>(i)];
    const double g = std::max(0.0, (LogisticRegressionModel::logSigmoid(u) - logBound(u, xi)) / m_temperature);
    return g + std::log(-std::expm1(-g)); // −∞ at g = 0: a point whose bound is exact is never bright
}

double FireflyTest::boundProductLog(const Vector &theta) const
{
    // Plain loops: nothing allocated (A·θ would be a temporary).
    double quadratic = 0.0;
    const Eigen::Index d = theta.size();
    for (Eigen::Index j = 0; j < d; ++j) {
        double column = 0.0;
        for (Eigen::Index k = 0; k < d; ++k)
            column += m_a(k, j) * theta[k];
        quadratic += column * theta[j];
    }
    return 0.5 * m_b.dot(theta) - quadratic;
}

void FireflyTest::addBright(DataIndex i, double logWeight)
{
    m_position[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(m_bright.size());
    m_bright.push_back(i);
    m_brightLogWeight.push_back(logWeight);
}

void FireflyTest::initialize(const LogisticRegressionModel &model, const TestProblem &problem, Rng &rng,
                             Decision &decision)
{
    if (model.dataSize() > std::numeric_limits<std::int32_t>::max())
        throw std::invalid_argument("flymc keeps 12 bytes of state for each data point and numbers its bright points in "
                                    "32 bits: at most 2147483647 points, and these data have "
                                    + std::to_string(model.dataSize()) + "; smh and tunamh keep no state per point");
    const auto start = std::chrono::steady_clock::now();
    m_model = &model;
    m_temperature = problem.temperature;
    PosteriorMode mode;
    if (m_givenAnchor.size() == model.dimension() && problem.temperature == m_anchorTemperature)
        mode.mode = m_givenAnchor;
    else
        mode = findPosteriorMode(model, problem.temperature);
    const ClassificationData &data = model.data();
    const auto n = static_cast<std::size_t>(data.size());
    const int features = data.featureCount();
    const int d = model.dimension();
    const bool bias = model.options().bias;
    m_xi.resize(n);
    m_b = Vector::Zero(d);
    m_a = Eigen::MatrixXd::Zero(d, d);
    m_bright.clear();
    m_brightLogWeight.clear();
    m_position.assign(n, -1);
    m_brightened.assign(n, 0);
    m_sweep = 0;
    // One pass: ξ_i, the sums b and A (blocks of rows widened to double, A += Xᵀ diag(a) X), and
    // z_i ~ Bernoulli(1 − e^{−g_i}) at the chain's θ.
    constexpr std::size_t kBlock = 256;
    Eigen::MatrixXd block(kBlock, d), weighted(kBlock, d);
    Eigen::VectorXd rowValues(features);
    const auto notice = model.announceFullPass("FlyMC's bounds at the mode and its first brightness draw", 2);
    for (std::size_t first = 0; first < n; first += kBlock) {
        const std::size_t rows = std::min(kBlock, n - first);
        for (std::size_t r = 0; r < rows; ++r) {
            const auto i = static_cast<Eigen::Index>(first + r);
            data.copyRow(static_cast<DataIndex>(i), rowValues.data());
            block.row(static_cast<Eigen::Index>(r)).head(features) = rowValues.transpose();
            if (bias)
                block(static_cast<Eigen::Index>(r), features) = 1.0;
            const double sign = data.labels[first + r] ? 1.0 : -1.0;
            const float xi = static_cast<float>(sign * block.row(static_cast<Eigen::Index>(r)).dot(mode.mode));
            m_xi[first + r] = xi;
            m_b += sign * block.row(static_cast<Eigen::Index>(r)).transpose();
            weighted.row(static_cast<Eigen::Index>(r)) = jaakkolaJordanCurvature(xi) * block.row(static_cast<Eigen::Index>(r));
        }
        const auto r = static_cast<Eigen::Index>(rows);
        m_a.noalias() += block.topRows(r).transpose() * weighted.topRows(r);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const double logWeight = logBrightWeight(static_cast<DataIndex>(i), problem.current);
        // P(bright | θ) = L̃/(1 + L̃), its log written so that neither exp can overflow.
        const double logBright = logWeight > 0.0 ? -std::log1p(std::exp(-logWeight))
                                                 : logWeight - std::log1p(std::exp(logWeight));
        if (std::log(rng.uniformOpen01()) < logBright)
            addBright(static_cast<DataIndex>(i), logWeight);
    }
    m_at = problem.current;
    m_proposedLogWeight.reserve(m_bright.capacity());
    // The mode's passes (none when it was given) and this pass, which reads every row twice.
    decision.fullScanPoints = (mode.passes + 2) * static_cast<std::int64_t>(n);
    decision.fullScanSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void FireflyTest::refreshBrightWeights(const Vector &theta)
{
    for (std::size_t k = 0; k < m_bright.size(); ++k)
        m_brightLogWeight[k] = logBrightWeight(m_bright[k], theta);
    m_at = theta;
}

std::int64_t FireflyTest::brightenDarkPoints(const Vector &theta, Rng &rng)
{
    const double q = m_settings.darkToBright;
    const double logQ = std::log(q);
    const double logStay = std::log1p(-q); // −∞ at q = 1: every point is proposed
    const auto n = static_cast<std::int64_t>(dataSize());
    std::int64_t evaluated = 0;
    // Each index is proposed independently with probability q: the gap to the next one is
    // geometric, ⌊log U / log(1 − q)⌋. It is compared with the indices left before it is made an
    // integer: for a tiny q it can exceed 2⁶³, which no cast may be given.
    const auto gap = [&] { return q >= 1.0 ? 0.0 : std::floor(std::log(rng.uniformOpen01()) / logStay); };
    const double first = gap();
    if (first >= static_cast<double>(n))
        return 0;
    for (std::int64_t i = static_cast<std::int64_t>(first); i < n;) {
        const auto index = static_cast<DataIndex>(i);
        if (!isBright(index)) {
            const double logWeight = logBrightWeight(index, theta);
            ++evaluated;
            if (std::log(rng.uniformOpen01()) < logWeight - logQ) {
                addBright(index, logWeight);
                m_brightened[static_cast<std::size_t>(i)] = m_sweep;
            }
        }
        const double next = gap();
        if (next >= static_cast<double>(n - i))
            break;
        i += 1 + static_cast<std::int64_t>(next);
    }
    return evaluated;
}

void FireflyTest::darkenBrightPoints(Rng &rng)
{
    const double logQ = std::log(m_settings.darkToBright);
    // From the back, so that moving the last bright point into a freed slot never skips one.
    for (std::size_t k = m_bright.size(); k-- > 0;) {
        const DataIndex i = m_bright[k];
        if (m_brightened[static_cast<std::size_t>(i)] == m_sweep)
            continue; // brightened in this sweep: each point is updated once
        if (std::log(rng.uniformOpen01()) < logQ - m_brightLogWeight[k]) {
            const DataIndex last = m_bright.back();
            m_bright[k] = last;
            m_brightLogWeight[k] = m_brightLogWeight.back();
            m_position[static_cast<std::size_t>(last)] = static_cast<std::int32_t>(k);
            m_bright.pop_back();
            m_brightLogWeight.pop_back();
            m_position[static_cast<std::size_t>(i)] = -1;
        }
    }
}

Decision FireflyTest::decide(const TestProblem &problem, Rng &rng)
{
    requireCapability(problem.model, ModelCapability::CollapsibleLowerBound, "flymc");
    const auto *model = dynamic_cast<const LogisticRegressionModel *>(&problem.model);
    if (!model)
        throw std::invalid_argument("flymc needs the logistic-regression model without control variates (its bounds "
                                    "are Jaakkola and Jordan's for log sigma)");
    Decision decision;
    decision.looks = 1;
    if (model != m_model || problem.temperature != m_temperature)
        initialize(*model, problem, rng, decision);
    else if (problem.current != m_at) {
        refreshBrightWeights(problem.current); // the chain was moved from outside (a new lap's start)
        decision.pointsUsed += brightCount();
    }

    // The z-update at θ, each point once: the dark ones first, then the bright ones that were
    // bright before it.
    ++m_sweep;
    decision.pointsUsed += brightenDarkPoints(problem.current, rng);
    darkenBrightPoints(rng);

    // The θ-move on the joint target with z fixed.
    double delta = problem.exactPart()
                   + (boundProductLog(problem.proposed) - boundProductLog(problem.current)) / problem.temperature;
    m_proposedLogWeight.resize(m_bright.size());
    for (std::size_t k = 0; k < m_bright.size(); ++k) {
        m_proposedLogWeight[k] = logBrightWeight(m_bright[k], problem.proposed);
        delta += m_proposedLogWeight[k] - m_brightLogWeight[k];
    }
    decision.pointsUsed += brightCount();
    decision.brightPoints = brightCount();
    decision.deltaEstimate = delta;
    decision.accepted = std::log(rng.uniformOpen01()) < delta;
    if (decision.accepted) {
        m_brightLogWeight.swap(m_proposedLogWeight);
        m_at = problem.proposed;
    }
    return decision;
}

} // namespace core
