#include "core/proposals/stochastic_gradient_dynamics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/models/control_variates.h"
#include "core/validation/range_checks.h"

namespace core {

DataIndex gradientBatchSize(DataIndex requested, DataIndex dataSize)
{
    if (requested > 0)
        return requested;
    return std::min(dataSize, std::clamp<DataIndex>(dataSize / 30, 100, 400));
}

StochasticGradientDynamics::StochasticGradientDynamics(const Model &model, double step,
                                                       StochasticGradientSettings settings,
                                                       const TaylorProxies *controlVariates)
    : m_model(model), m_step(step), m_settings(settings), m_proxies(controlVariates)
{
    requireFinitePositive("step", step);
    const DataIndex n = model.dataSize();
    if (settings.gradBatch < 1 || settings.gradBatch > n)
        throw std::invalid_argument("grad-batch must be in [1, " + std::to_string(n) + "] (the data size); got "
                                    + std::to_string(settings.gradBatch));
    if (!(settings.friction > 0.0 && settings.friction <= 1.0))
        throw std::invalid_argument("sghmc-friction must be in (0, 1]; got " + std::to_string(settings.friction));
    if (!(settings.decay >= 0.0 && settings.decay <= 1.0))
        throw std::invalid_argument("sg-decay must be in [0, 1]; got " + std::to_string(settings.decay));
    requireFinitePositive("sg-decay-from", settings.decayFrom);
    if (!model.hasGradient())
        throw std::invalid_argument("stochastic-gradient dynamics need gradients, which the model '" + model.name()
                                    + "' does not provide");
    const int dim = model.dimension();
    if (controlVariates && controlVariates->anchor().size() != dim)
        throw std::invalid_argument("the control variates' anchor does not have the model's dimension");
    if (settings.gradBatch == n) {
        m_allRows.resize(static_cast<std::size_t>(n));
        std::iota(m_allRows.begin(), m_allRows.end(), DataIndex{0});
    } else {
        m_sampler.reset(n);
    }
    m_gradient.resize(dim);
    m_rowSum.resize(dim);
    m_anchorRowSum.resize(dim);
    m_momentum = Vector::Zero(dim);
    m_lastEnd.resize(dim);
}

double StochasticGradientDynamics::nextStepSize() const
{
    const double epsilon = m_step * m_step;
    if (m_settings.decay == 0.0)
        return epsilon;
    return epsilon * std::pow(1.0 + static_cast<double>(m_moves) / m_settings.decayFrom, -m_settings.decay);
}

void StochasticGradientDynamics::gradientEstimate(const Vector &theta, double temperature,
                                                  std::span<const DataIndex> rows, Vector &out) const
{
    m_model.gradLogPrior(theta, out);
    const double perRow = static_cast<double>(m_model.dataSize()) / (temperature * static_cast<double>(rows.size()));
    m_model.sumGradLogLikelihood(theta, rows, m_rowSum);
    if (m_proxies) {
        // G + (N/B) Σ_S (∇ℓ_i(θ) − ∇ℓ_i(θ̂)), all over T.
        m_model.sumGradLogLikelihood(m_proxies->anchor(), rows, m_anchorRowSum);
        m_rowSum -= m_anchorRowSum;
        out += (1.0 / temperature) * m_proxies->gradientSum();
    }
    out += perRow * m_rowSum;
}

void StochasticGradientDynamics::propose(const Vector &from, Vector &to, double temperature, Rng &rng) const
{
    std::span<const DataIndex> rows = m_allRows;
    if (m_allRows.empty()) {
        m_sampler.beginTest();
        rows = m_sampler.drawMore(m_settings.gradBatch, rng);
    }
    gradientEstimate(from, temperature, rows, m_gradient);
    m_lastBatch = static_cast<std::int64_t>(rows.size());
    const double epsilon = nextStepSize();
    ++m_moves;
    if (m_settings.dynamics == GradientDynamics::Langevin) {
        const double noise = std::sqrt(epsilon);
        for (Eigen::Index k = 0; k < from.size(); ++k)
            to[k] = from[k] + 0.5 * epsilon * m_gradient[k] + noise * rng.normal();
        return;
    }
    // SGHMC: the momentum belongs to the end of the last move; from anywhere else it starts at 0
    // (the first move, a move after a proposal outside the prior's support was refused).
    if (!m_haveMomentum || from != m_lastEnd)
        m_momentum.setZero();
    const double alpha = m_settings.friction;
    const double noise = std::sqrt(2.0 * alpha * epsilon);
    for (Eigen::Index k = 0; k < from.size(); ++k) {
        m_momentum[k] = (1.0 - alpha) * m_momentum[k] + epsilon * m_gradient[k] + noise * rng.normal();
        to[k] = from[k] + m_momentum[k];
    }
    m_lastEnd = to;
    m_haveMomentum = true;
}

std::unique_ptr<Proposal> StochasticGradientDynamics::withStep(double step) const
{
    auto copy = std::make_unique<StochasticGradientDynamics>(m_model, step, m_settings, m_proxies);
    copy->m_moves = m_moves; // the schedule goes on where it was
    return copy;
}

} // namespace core
