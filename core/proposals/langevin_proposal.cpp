#include "core/proposals/langevin_proposal.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/validation/range_checks.h"

namespace core {

LangevinProposal::LangevinProposal(const Model &model, double step, DataIndex gradBatch,
                                   std::optional<AdaptationSettings> adaptation)
    : m_model(model), m_step(step), m_gradBatch(gradBatch), m_adaptation(adaptation), m_logStep(std::log(step))
{
    requireFinitePositive("step", step);
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
    if (adaptation) {
        requireTargetAcceptance(adaptation->targetAcceptance);
        if (!(adaptation->relativeRegulariser >= 0.0) || !std::isfinite(adaptation->relativeRegulariser))
            throw std::invalid_argument("regulariser must be finite and >= 0; got "
                                        + std::to_string(adaptation->relativeRegulariser));
        if (adaptation->warmUpObservations < 2)
            throw std::invalid_argument("warm-up must be >= 2 observations; got "
                                        + std::to_string(adaptation->warmUpObservations));
        m_windowEnd = adaptation->warmUpObservations;
        if (adaptation->burnInLength > 0 && m_windowEnd > adaptation->burnInLength * 9 / 10)
            m_windowEnd = 0; // too short a burn-in to estimate M: h only
    }
    const int dim = model.dimension();
    m_mass = Vector::Ones(dim);
    m_massSqrt = Vector::Ones(dim);
    m_windowMean = Vector::Zero(dim);
    m_windowSquares = Vector::Zero(dim);
    m_from.resize(dim);
    m_to.resize(dim);
    m_work.resize(dim);
    m_whitenedFrom.resize(dim);
    m_whitenedTo.resize(dim);
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
    const bool reusable = !m_allRows.empty() && temperature == m_temperature;
    if (reusable && m_haveTo && from == m_to) {
        m_gradientFrom.swap(m_gradientTo); // the chain accepted the last candidate
        m_from = from;
    } else if (!(reusable && from == m_from)) {
        m_from = from;
        gradientEstimate(from, temperature, m_subset, m_gradientFrom);
    } // else the chain rejected it: m_gradientFrom is still the one at `from`
    m_temperature = temperature;
    m_haveTo = false;
    const double drift = 0.5 * m_step * m_step;
    if (fullPreconditioner()) {
        // to = θ + (h²/2) L (Lᵀ ĝ) + h L ξ = θ + L ((h²/2) Lᵀ ĝ + h ξ)
        m_work.noalias() = m_factor->transpose().triangularView<Eigen::Upper>() * m_gradientFrom;
        for (Eigen::Index k = 0; k < from.size(); ++k)
            m_work[k] = drift * m_work[k] + m_step * rng.normal();
        to = from;
        to.noalias() += m_factor->triangularView<Eigen::Lower>() * m_work;
        return;
    }
    for (Eigen::Index k = 0; k < from.size(); ++k)
        to[k] = from[k] + drift * m_mass[k] * m_gradientFrom[k] + m_step * m_massSqrt[k] * rng.normal();
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
    m_to = to;
    m_haveTo = true;
    const double drift = 0.5 * m_step * m_step;
    if (fullPreconditioner()) {
        // ‖L⁻¹ (b − a − (h²/2) L Lᵀ ĝ(a))‖² = ‖L⁻¹ (b − a) − (h²/2) Lᵀ ĝ(a)‖²
        m_work = to - from;
        m_factor->triangularView<Eigen::Lower>().solveInPlace(m_work);
        m_whitenedFrom.noalias() = m_factor->transpose().triangularView<Eigen::Upper>() * m_gradientFrom;
        m_whitenedTo.noalias() = m_factor->transpose().triangularView<Eigen::Upper>() * m_gradientTo;
        const double forward = (m_work - drift * m_whitenedFrom).squaredNorm();
        const double backward = (m_work + drift * m_whitenedTo).squaredNorm();
        return (forward - backward) / (2.0 * m_step * m_step);
    }
    // log q(b | a) = −Σ_k (b_k − a_k − (h²/2) M_k ĝ_k(a))² / (2h² M_k) + const; the constants
    // (the same M both ways) cancel.
    double forward = 0.0, backward = 0.0;
    for (Eigen::Index k = 0; k < from.size(); ++k) {
        const double ahead = to[k] - from[k] - drift * m_mass[k] * m_gradientFrom[k];
        const double back = from[k] - to[k] - drift * m_mass[k] * m_gradientTo[k];
        forward += ahead * ahead / m_mass[k];
        backward += back * back / m_mass[k];
    }
    return (forward - backward) / (2.0 * m_step * m_step);
}

std::unique_ptr<Proposal> LangevinProposal::withStep(double step) const
{
    // A fresh object (its own gradient workspace) with what was learned, frozen.
    auto copy = std::make_unique<LangevinProposal>(m_model, step, m_gradBatch, m_adaptation);
    copy->m_mass = m_mass;
    copy->m_massSqrt = m_massSqrt;
    copy->m_factor = m_factor;
    copy->m_massLearned = m_massLearned;
    copy->m_observations = m_observations;
    copy->m_accepted = m_accepted;
    copy->m_frozen = true;
    return copy;
}

bool LangevinProposal::resumeScaleLearning()
{
    if (!m_adaptation)
        return false;
    m_frozen = false;
    m_windowEnd = 0;                      // M as the burn-in left it: h only
    m_logStep = std::log(m_step);         // the rescaled step withStep() set
    m_stepUpdates = kRelearnGainStart;    // a good guess refined, not thrown about
    m_observations = 0;                   // learned() reports the re-adaptation's own acceptance
    m_accepted = 0;
    return true;
}

void LangevinProposal::useFullPreconditioner(Eigen::MatrixXd lowerFactor)
{
    const Eigen::Index d = m_mass.size();
    requireLowerFactor(lowerFactor, d, "the preconditioner's factor");
    m_factor = std::make_shared<const Eigen::MatrixXd>(lowerFactor.triangularView<Eigen::Lower>());
    m_mass = m_factor->rowwise().squaredNorm();
    m_massSqrt = m_mass.cwiseSqrt();
    m_massLearned = true;
    m_windowEnd = 0; // M is given: the burn-in adapts h only
    if (m_adaptation) { // h starts at the order of the optimal MALA step for a target M whitens
        m_logStep = -std::log(static_cast<double>(d)) / 6.0;
        m_step = std::exp(m_logStep);
    }
}

void LangevinProposal::observe(const Vector &theta, bool accepted)
{
    if (!m_adaptation || m_frozen)
        return;
    ++m_observations;
    if (accepted)
        ++m_accepted;
    if (m_windowEnd > 0) { // Welford over the current window
        const double n = static_cast<double>(m_observations - m_windowStart);
        for (Eigen::Index k = 0; k < theta.size(); ++k) {
            const double delta = theta[k] - m_windowMean[k];
            m_windowMean[k] += delta / n;
            m_windowSquares[k] += delta * (theta[k] - m_windowMean[k]);
        }
        if (m_observations == m_windowEnd)
            endWindow();
    }
    // Robbins–Monro on log h, as AdaptiveRandomWalkProposal steers its scale.
    const double gain = std::pow(static_cast<double>(m_stepUpdates + 1), -0.6);
    ++m_stepUpdates;
    m_logStep += gain * ((accepted ? 1.0 : 0.0) - m_adaptation->targetAcceptance);
    m_step = std::exp(m_logStep);
}

void LangevinProposal::endWindow()
{
    const std::int64_t length = m_observations - m_windowStart;
    const double meanVariance = m_windowSquares.sum() / static_cast<double>(length - 1) / static_cast<double>(m_mass.size());
    if (meanVariance > 0.0 && std::isfinite(meanVariance)) {
        // A coordinate that never moved in the window gets ε only, relative to the mean variance.
        m_mass = m_windowSquares / static_cast<double>(length - 1);
        m_mass.array() += m_adaptation->relativeRegulariser * meanVariance;
        m_massSqrt = m_mass.cwiseSqrt();
        if (!m_massLearned) { // the scale of the moves changed: restart h at the whitened optimum's order
            m_massLearned = true;
            m_logStep = -std::log(static_cast<double>(m_mass.size())) / 6.0;
            m_stepUpdates = 0;
        }
    }
    // The next window is twice as long; one that a doubled successor would not fit into stretches
    // to nine tenths of the burn-in, the last.
    m_windowStart = m_observations;
    std::int64_t next = m_observations + 2 * length;
    const std::int64_t lastEnd = m_adaptation->burnInLength * 9 / 10;
    if (m_adaptation->burnInLength > 0) {
        if (m_observations >= lastEnd)
            next = 0;
        else if (next + 4 * length > lastEnd)
            next = lastEnd;
    }
    m_windowEnd = next;
    m_windowMean.setZero();
    m_windowSquares.setZero();
}

LearnedProposal LangevinProposal::learned() const
{
    LearnedProposal state = learnedProposal(m_step, m_mass, false, m_massLearned, m_observations, m_accepted);
    state.preconditionerFactor = m_factor;
    return state;
}

} // namespace core
