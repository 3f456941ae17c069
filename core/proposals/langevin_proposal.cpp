#include "core/proposals/langevin_proposal.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace core {

LangevinProposal::LangevinProposal(const Model &model, double step, DataIndex gradBatch)
    : m_model(model), m_step(step), m_gradBatch(gradBatch)
{
    if (!(step > 0.0) || !std::isfinite(step))
        throw std::invalid_argument("step must be finite and > 0; got " + std::to_string(step));
    const DataIndex n = model.dataSize();
    if (gradBatch < 1 || gradBatch > n)
        throw std::invalid_argument("grad-batch must be in [1, " + std::to_string(n) + "] (the data size); got "
                                    + std::to_string(gradBatch));
    if (!model.hasGradient())
        throw std::invalid_argument("the Langevin proposal needs gradients, which the model '" + model.name()
                                    + "' does not provide");
    if (gradBatch == n) {
        m_allRows.resize(static_cast<std::size_t>(n));
        std::iota(m_allRows.begin(), m_allRows.end(), DataIndex{0});
    } else {
        m_sampler.reset(n);
    }
    const int dim = model.dimension();
    m_from.resize(dim);
    m_gradientFrom.resize(dim);
    m_gradientTo.resize(dim);
    m_likelihoodSum.resize(dim);
}

void LangevinProposal::gradientEstimate(const Vector &theta, double temperature, std::span<const DataIndex> rows,
                                        Vector &out) const
{
    m_model.gradLogPrior(theta, out);
    if (rows.empty())
        return;
    m_model.sumGradLogLikelihood(theta, rows, m_likelihoodSum);
    const double scale = static_cast<double>(m_model.dataSize()) / (temperature * static_cast<double>(rows.size()));
    out += scale * m_likelihoodSum;
}

void LangevinProposal::propose(const Vector &from, Vector &to, double temperature, Rng &rng) const
{
    if (m_allRows.empty()) {
        m_sampler.beginTest();
        m_subset = m_sampler.drawMore(m_gradBatch, rng);
    } else {
        m_subset = m_allRows;
    }
    m_temperature = temperature;
    m_from = from;
    gradientEstimate(from, temperature, m_subset, m_gradientFrom);
    const double drift = 0.5 * m_step * m_step;
    for (Eigen::Index k = 0; k < from.size(); ++k)
        to[k] = from[k] + drift * m_gradientFrom[k] + m_step * rng.normal();
}

double LangevinProposal::logProposalRatio(const Vector &from, const Vector &to) const
{
    if (!(m_temperature > 0.0))
        throw std::logic_error("logProposalRatio needs a propose() call first: it reuses that call's minibatch");
    if (from != m_from) { // a caller asking about another point: same S, its own gradient
        m_from = from;
        gradientEstimate(from, m_temperature, m_subset, m_gradientFrom);
    }
    gradientEstimate(to, m_temperature, m_subset, m_gradientTo);
    const double drift = 0.5 * m_step * m_step;
    // log q(b | a) = −‖b − a − (h²/2) ĝ(a)‖² / (2h²) + const; the constants cancel.
    double forward = 0.0, backward = 0.0;
    for (Eigen::Index k = 0; k < from.size(); ++k) {
        const double ahead = to[k] - from[k] - drift * m_gradientFrom[k];
        const double back = from[k] - to[k] - drift * m_gradientTo[k];
        forward += ahead * ahead;
        backward += back * back;
    }
    return (forward - backward) / (2.0 * m_step * m_step);
}

std::unique_ptr<Proposal> LangevinProposal::withStep(double step) const
{
    return std::make_unique<LangevinProposal>(m_model, step, m_gradBatch);
}

} // namespace core
