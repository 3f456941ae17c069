#pragma once
/// The burn-in's steering of one proposal scale toward a target acceptance rate, for the
/// proposals whose covariance is given and whose scale alone is learned (CrankNicolsonProposal,
/// HamiltonianProposal): Robbins–Monro on log s with gain n^−0.6, as AdaptiveRandomWalkProposal
/// steers its scale (the exponent lies in (1/2, 1], so Σγ = ∞ and Σγ² < ∞; Andrieu & Thoms
/// 2008 Sec. 4), plus the counts a LearnedProposal reports; and the base class of those
/// proposals, which holds the given preconditioner's factor L and the scale's adaptation.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

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
        ++m_gainIndex;
        if (accepted)
            ++m_accepted;
        const double gain = std::pow(static_cast<double>(m_gainIndex), -0.6);
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

    /// A new adaptation from `scale` whose gains start at (kRelearnGainStart + 1)^−0.6, with
    /// counts of its own (AdaptiveProposal::relearning).
    ScaleAdaptation relearningFrom(double scale) const
    {
        ScaleAdaptation copy = withScale(scale);
        copy.m_observations = 0;
        copy.m_accepted = 0;
        copy.m_gainIndex = kRelearnGainStart;
        return copy;
    }

    /// What a proposal with this scale and the given per-coordinate variances of its
    /// preconditioner has learned. The preconditioner is given from the first iteration, so it
    /// counts as learned, as an adaptive random walk's covariance does after its warm-up.
    LearnedProposal learned(Eigen::VectorXd variances) const
    {
        return learnedProposal(m_scale, std::move(variances), false, true, m_observations, m_accepted);
    }

private:
    double m_scale;
    double m_logScale;
    double m_logMax;
    std::int64_t m_observations = 0;
    std::int64_t m_accepted = 0;
    std::int64_t m_gainIndex = 0; ///< n of the gain n^−0.6 (m_observations, unless re-learning)
};

/// A proposal with a given preconditioner M = L Lᵀ whose scale alone the burn-in learns (when
/// made with AdaptationSettings): what it reports, observes and freezes is the same whatever
/// move the derived class makes with L and the scale.
class ScaleAdaptiveProposal : public AdaptiveProposal {
public:
    double step() const override { return m_scale.scale(); }

    void observe(const Vector &, bool accepted) override
    {
        if (m_adaptation && !m_frozen)
            m_scale.observe(accepted, m_adaptation->targetAcceptance);
    }
    void freeze() override { m_frozen = true; }
    bool frozen() const override { return m_frozen; }
    /// The scale, and diag(L Lᵀ) (fullCovariance false): L is given from the start, so it
    /// counts as learned.
    LearnedProposal learned() const override
    {
        LearnedProposal state = m_scale.learned(m_factor->rowwise().squaredNorm());
        state.preconditionerFactor = m_factor;
        return state;
    }

protected:
    /// Re-learns the scale from the current one (relearning()); needs AdaptationSettings.
    bool resumeScaleLearning() override
    {
        if (!m_adaptation)
            return false;
        m_scale = m_scale.relearningFrom(m_scale.scale());
        m_frozen = false;
        return true;
    }

    ScaleAdaptiveProposal(std::optional<AdaptationSettings> adaptation, ScaleAdaptation scale)
        : m_adaptation(adaptation), m_scale(scale)
    {
    }

    /// Checks `lowerFactor` (requireLowerFactor, under `name`) and keeps its lower triangle as L.
    void setFactor(const Eigen::MatrixXd &lowerFactor, Eigen::Index dimension, const std::string &name)
    {
        requireLowerFactor(lowerFactor, dimension, name);
        m_factor = std::make_shared<const Eigen::MatrixXd>(lowerFactor.triangularView<Eigen::Lower>());
    }

    /// For withStep: `source`'s L (shared, not copied), adaptation and history, at scale `step`
    /// and frozen.
    void continueFrozen(const ScaleAdaptiveProposal &source, double step)
    {
        m_factor = source.m_factor;
        m_adaptation = source.m_adaptation;
        m_scale = source.m_scale.withScale(step);
        m_frozen = true;
    }

    std::shared_ptr<const Eigen::MatrixXd> m_factor; // L (shared with LearnedProposal)
    std::optional<AdaptationSettings> m_adaptation;
    ScaleAdaptation m_scale;
    bool m_frozen = false;
};

} // namespace core
