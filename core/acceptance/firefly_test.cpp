#include "core/acceptance/firefly_test.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/models/collapsible_bound.h"
#include "core/models/model_registry.h"
#include "core/models/posterior_mode.h"

namespace core {

FireflyTest::FireflyTest(FireflySettings settings) : m_settings(settings)
{
    if (!(settings.darkToBright > 0.0 && settings.darkToBright <= 1.0))
        throw std::invalid_argument("flymc-qdb must be in (0, 1]; got " + std::to_string(settings.darkToBright));
}

DataIndex FireflyTest::dataSize() const { return m_model->dataSize(); }

double FireflyTest::logBrightWeight(DataIndex i, const Vector &theta) const
{
    const double g = m_bound->logGap(i, theta) / m_temperature;
    return g + std::log(-std::expm1(-g)); // −∞ at g = 0: a point whose bound is exact is never bright
}

void FireflyTest::addBright(DataIndex i, double logWeight)
{
    m_position[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(m_bright.size());
    m_bright.push_back(i);
    m_brightLogWeight.push_back(logWeight);
}

void FireflyTest::initialize(const Model &model, const TestProblem &problem, Rng &rng, Decision &decision)
{
    if (model.dataSize() > std::numeric_limits<std::int32_t>::max())
        throw std::invalid_argument("flymc keeps 12 bytes of state for each data point and numbers its bright points in "
                                    "32 bits: at most 2147483647 points, and these data have "
                                    + std::to_string(model.dataSize()) + "; smh and tunamh keep no state per point");
    const auto start = std::chrono::steady_clock::now();
    // Forget the last model first: a failure below leaves no bound, and the next decision
    // starts again instead of reading one built for other data (and the old ξ are freed before
    // the new ones are made).
    m_model = nullptr;
    m_bound.reset();
    // decide() reaches a new model only through here.
    requireCapability(model, ModelCapability::CollapsibleLowerBound, "flymc");
    PosteriorMode mode;
    if (m_givenAnchor.size() == model.dimension() && problem.temperature == m_anchorTemperature)
        mode.mode = m_givenAnchor;
    else
        mode = findPosteriorMode(model, problem.temperature);
    const auto n = static_cast<std::size_t>(model.dataSize());
    m_bright.clear();
    m_brightLogWeight.clear();
    m_position.assign(n, -1);
    m_brightened.assign(n, 0);
    m_sweep = 0;
    // Two passes: the bounds at the mode, then z_i ~ Bernoulli(1 − e^{−g_i}) at the chain's θ.
    const auto notice = model.announceFullPass("FlyMC's bounds at the mode and its first brightness draw", 2);
    m_temperature = problem.temperature;
    m_bound = model.collapsibleLowerBound(mode.mode);
    if (!m_bound)
        throw std::invalid_argument("flymc: the model '" + model.name()
                                    + "' declares a collapsible lower bound but built none");
    for (std::size_t i = 0; i < n; ++i) {
        const double logWeight = logBrightWeight(static_cast<DataIndex>(i), problem.current);
        // P(bright | θ) = L̃/(1 + L̃), its log written so that neither exp can overflow.
        const double logBright = logWeight > 0.0 ? -std::log1p(std::exp(-logWeight))
                                                 : logWeight - std::log1p(std::exp(logWeight));
        if (std::log(rng.uniformOpen01()) < logBright)
            addBright(static_cast<DataIndex>(i), logWeight);
    }
    m_at = problem.current;
    m_model = &model;
    m_proposedLogWeight.reserve(m_bright.capacity());
    // The mode's passes (none when it was given) and the two passes above.
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
    Decision decision;
    decision.looks = 1;
    if (&problem.model != m_model || problem.temperature != m_temperature)
        initialize(problem.model, problem, rng, decision);
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
                   + (m_bound->logProduct(problem.proposed) - m_bound->logProduct(problem.current)) / problem.temperature;
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
