#include "core/proposals/adaptive_random_walk_proposal.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/validation/range_checks.h"

namespace core {

AdaptiveRandomWalkProposal::AdaptiveRandomWalkProposal(int dimension, double initialStep, AdaptationSettings settings)
    : m_dimension(dimension), m_settings(settings), m_full(dimension <= settings.fullCovarianceMaxDimension),
      m_scale(initialStep), m_logScale(std::log(initialStep))
{
    requireAtLeast("dimension", dimension, 1);
    requireFinitePositive("step", initialStep);
    requireTargetAcceptance(settings.targetAcceptance);
    if (!(settings.relativeRegulariser >= 0.0) || !std::isfinite(settings.relativeRegulariser))
        throw std::invalid_argument("regulariser must be finite and >= 0; got "
                                    + std::to_string(settings.relativeRegulariser));
    if (settings.warmUpObservations < 1)
        throw std::invalid_argument("warm-up must be >= 1 observation; got " + std::to_string(settings.warmUpObservations));
    const Eigen::Index d = dimension;
    m_mean = Vector::Zero(d);
    m_delta = Vector::Zero(d);
    m_noise = Vector::Zero(d);
    if (m_full) {
        m_sumProducts = Eigen::MatrixXd::Zero(d, d);
        m_covariance = Eigen::MatrixXd::Identity(d, d);
        m_factor = Eigen::MatrixXd::Identity(d, d);
        // Factorising the identity allocates the solver's storage now and sets its status: an
        // LLT made with a size only leaves its status unset, and copying it reads that (UBSan).
        m_llt.compute(m_covariance);
    } else {
        m_sumProducts = Eigen::MatrixXd::Zero(d, 1);
        m_covariance = Eigen::MatrixXd::Ones(d, 1);
        m_factor = Eigen::MatrixXd::Ones(d, 1);
        m_llt.compute(Eigen::MatrixXd::Identity(1, 1)); // unused here, but copied: its status must be set
    }
}

void AdaptiveRandomWalkProposal::propose(const Vector &from, Vector &to, double, Rng &rng) const
{
    // One normal per coordinate in order, as RandomWalkProposal draws them: before the warm-up
    // ends (L = I) both proposals make the same moves from the same stream.
    for (Eigen::Index k = 0; k < m_noise.size(); ++k)
        m_noise[k] = rng.normal();
    if (m_full)
        to.noalias() = m_factor.triangularView<Eigen::Lower>() * m_noise;
    else
        to = m_factor.col(0).cwiseProduct(m_noise);
    to = from + m_scale * to;
}

void AdaptiveRandomWalkProposal::observe(const Vector &theta, bool accepted)
{
    if (m_frozen)
        return;
    ++m_observations;
    if (accepted)
        ++m_accepted;
    if (!m_scaleOnly)
        observeCovariance(theta);
    // Robbins–Monro on log s, with the accept indicator in place of its probability (the same
    // expectation). The gain's exponent 0.6 lies in (1/2, 1], so Σγ = ∞ and Σγ² < ∞.
    const double gain = std::pow(static_cast<double>(m_scaleUpdates + 1), -0.6);
    ++m_scaleUpdates;
    m_logScale += gain * ((accepted ? 1.0 : 0.0) - m_settings.targetAcceptance);
    m_scale = std::exp(m_logScale);
}

void AdaptiveRandomWalkProposal::observeCovariance(const Vector &theta)
{
    // Welford: mean_n = mean_{n−1} + (θ − mean_{n−1})/n, M_n = M_{n−1} + (θ − mean_{n−1})(θ − mean_n)ᵀ.
    m_delta = theta - m_mean;
    m_mean += m_delta / static_cast<double>(m_observations);
    if (m_full)
        m_sumProducts.noalias() += m_delta * (theta - m_mean).transpose();
    else
        m_sumProducts.col(0) += m_delta.cwiseProduct(theta - m_mean);

    if (!m_covarianceLearned && m_observations >= std::max<std::int64_t>(m_settings.warmUpObservations, m_dimension + 1)) {
        refreshFactor();
        if (m_covarianceLearned) { // the chain had moved: restart the scale at the Gaussian optimum
            m_logScale = std::log(2.38 / std::sqrt(static_cast<double>(m_dimension)));
            m_scaleUpdates = 0;
        }
    } else if (m_covarianceLearned) {
        refreshFactor();
    }
}

void AdaptiveRandomWalkProposal::refreshFactor()
{
    // Σ̂ = M/(n − 1) + ε I, with ε relative to the mean variance (see the header).
    const double n = static_cast<double>(m_observations);
    if (m_full) {
        const double meanVariance = m_sumProducts.diagonal().sum() / (n - 1.0) / m_dimension;
        if (!(meanVariance > 0.0) || !std::isfinite(meanVariance))
            return; // the chain has not moved yet: keep the current factor
        m_covariance = m_sumProducts / (n - 1.0);
        m_covariance.diagonal().array() += m_settings.relativeRegulariser * meanVariance;
        m_llt.compute(m_covariance);
        if (m_llt.info() != Eigen::Success)
            return;
        m_factor = m_llt.matrixL();
    } else {
        const double meanVariance = m_sumProducts.col(0).sum() / (n - 1.0) / m_dimension;
        if (!(meanVariance > 0.0) || !std::isfinite(meanVariance))
            return;
        // A coordinate that never moved gets ε only; the mean variance keeps its step non-zero.
        m_covariance.col(0) = m_sumProducts.col(0) / (n - 1.0);
        m_covariance.col(0).array() += m_settings.relativeRegulariser * meanVariance;
        m_factor.col(0) = m_covariance.col(0).cwiseSqrt();
    }
    m_covarianceLearned = true;
}

std::unique_ptr<Proposal> AdaptiveRandomWalkProposal::withStep(double step) const
{
    requireFinitePositive("step", step);
    auto copy = std::make_unique<AdaptiveRandomWalkProposal>(*this);
    copy->m_scale = step;
    copy->m_logScale = std::log(step);
    copy->m_frozen = true;
    return copy;
}

bool AdaptiveRandomWalkProposal::resumeScaleLearning()
{
    m_frozen = false;
    m_scaleOnly = true;
    m_scaleUpdates = kRelearnGainStart;
    m_observations = 0; // learned() then reports the re-adaptation's own acceptance
    m_accepted = 0;
    return true;
}

LearnedProposal AdaptiveRandomWalkProposal::learned() const
{
    return learnedProposal(m_scale, m_covariance, m_full, m_covarianceLearned, m_observations, m_accepted);
}

} // namespace core
