#pragma once
/// The burn-in's steering of one proposal scale toward a target acceptance rate, for the
/// proposals whose covariance is given and whose scale alone is learned (CrankNicolsonProposal,
/// HamiltonianProposal): Robbins–Monro on log s with gain n^−0.6, as AdaptiveRandomWalkProposal
/// steers its scale (the exponent lies in (1/2, 1], so Σγ = ∞ and Σγ² < ∞; Andrieu & Thoms
/// 2008 Sec. 4), plus the counts a LearnedProposal reports.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <Eigen/Core>

#include "core/proposals/adaptive_proposal.h"

namespace core {

class ScaleAdaptation {
public:
    /// Starts at `scale` (> 0); steering never takes it above `maxScale`.
    explicit ScaleAdaptation(double scale, double maxScale = std::numeric_limits<double>::infinity())
        : m_scale(scale), m_logScale(std::log(scale)), m_logMax(std::log(maxScale))
    {
    }

    double scale() const { return m_scale; }

    /// One burn-in iteration's outcome, steering toward `targetAcceptance`. Allocates nothing.
    void observe(bool accepted, double targetAcceptance)
    {
        ++m_observations;
        if (accepted)
            ++m_accepted;
        const double gain = std::pow(static_cast<double>(m_observations), -0.6);
        m_logScale = std::min(m_logMax, m_logScale + gain * ((accepted ? 1.0 : 0.0) - targetAcceptance));
        m_scale = std::exp(m_logScale);
    }

    /// The same history at another scale (Proposal::withStep).
    ScaleAdaptation withScale(double scale) const
    {
        ScaleAdaptation copy = *this;
        copy.m_scale = scale;
        copy.m_logScale = std::log(scale);
        return copy;
    }

    /// What a proposal with this scale and the given per-coordinate variances of its
    /// preconditioner has learned. The preconditioner is given from the first iteration, so it
    /// counts as learned, as an adaptive random walk's covariance does after its warm-up.
    LearnedProposal learned(Eigen::VectorXd variances) const
    {
        LearnedProposal state;
        state.scale = m_scale;
        state.covariance = std::move(variances);
        state.fullCovariance = false;
        state.covarianceLearned = true;
        state.observations = m_observations;
        state.burnInAcceptance =
            m_observations > 0 ? static_cast<double>(m_accepted) / static_cast<double>(m_observations) : 0.0;
        return state;
    }

private:
    double m_scale;
    double m_logScale;
    double m_logMax;
    std::int64_t m_observations = 0;
    std::int64_t m_accepted = 0;
};

} // namespace core
