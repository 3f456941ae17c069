#pragma once
/// What the proposals that learn during the burn-in have in common (AdaptiveRandomWalkProposal,
/// and LangevinProposal when made adaptive): the chain runner shows them every burn-in
/// iteration's outcome and freezes them where the burn-in ends, so that the samples the figures
/// are computed from come from one fixed kernel (ChainSettings::adaptation).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "core/proposals/random_walk_proposal.h"

namespace core {

struct AdaptationSettings {
    /// α* in (0, 1): the acceptance rate the scale is steered to (see each proposal's comment
    /// for the optimum under Barker's and Metropolis' tests).
    double targetAcceptance = 0.30;
    int fullCovarianceMaxDimension = 50;     ///< random walk: d above this learns variances only
    /// Draws seen before the learned covariance replaces the identity; at least d + 1 are
    /// needed for a full covariance of rank d. Langevin: the first estimation window.
    std::int64_t warmUpObservations = 200;
    double relativeRegulariser = 1e-6;       ///< ε as a fraction of the mean variance
    /// Langevin: the burn-in's length, so that the last estimation window ends a tenth before
    /// it and the step settles on the final preconditioner (0: unknown, windows just double).
    std::int64_t burnInLength = 0;
};

/// What the burn-in learned, as frozen: the proposal covariance is scale² · covariance (for
/// Langevin, scale is h and covariance the diagonal preconditioner M).
struct LearnedProposal {
    double scale = 0.0;
    /// d×d when fullCovariance, else d×1 per-coordinate variances. Σ̂ including ε·I; the
    /// identity when the burn-in was shorter than the warm-up.
    Eigen::MatrixXd covariance;
    bool fullCovariance = true;
    bool covarianceLearned = false;          ///< false: the warm-up never ended (Σ̂ = I)
    std::int64_t observations = 0;           ///< burn-in iterations observed
    double burnInAcceptance = 0.0;           ///< acceptance rate over those iterations
    /// A fixed full preconditioner M = L Lᵀ (the Laplace kinds): L, lower-triangular, shared
    /// with the proposal, so that a copy of what was learned costs no d×d copy; `covariance`
    /// then holds diag(M). Null for the others.
    std::shared_ptr<const Eigen::MatrixXd> preconditionerFactor;
};

/// Throws std::invalid_argument unless `target` (AdaptationSettings::targetAcceptance) is in (0, 1).
void requireTargetAcceptance(double target);
/// Throws std::invalid_argument, naming `name` ("the mass matrix's factor"), unless `factor`
/// is a finite dimension × dimension matrix with a positive diagonal (its lower triangle is L).
void requireLowerFactor(const Eigen::MatrixXd &factor, Eigen::Index dimension, const std::string &name);

/// What an adaptive proposal learned: the proposal covariance scale² · `covariance` (d×d when
/// `full`, else per-coordinate variances), `learned` false while Σ̂ is still the identity, and
/// the burn-in's counts (`accepted` of `observations` iterations; a rate of 0 before the first).
inline LearnedProposal learnedProposal(double scale, Eigen::MatrixXd covariance, bool full, bool learned,
                                       std::int64_t observations, std::int64_t accepted)
{
    return LearnedProposal{.scale = scale,
                           .covariance = std::move(covariance),
                           .fullCovariance = full,
                           .covarianceLearned = learned,
                           .observations = observations,
                           .burnInAcceptance = observations > 0
                                                   ? static_cast<double>(accepted) / static_cast<double>(observations)
                                                   : 0.0};
}

class AdaptiveProposal : public Proposal {
public:
    /// One burn-in iteration's outcome: θ after the iteration and whether it accepted.
    /// Allocates nothing. Ignored once frozen.
    virtual void observe(const Vector &theta, bool accepted) = 0;
    /// Ends the adaptation: the kernel stays fixed from here on.
    virtual void freeze() = 0;
    virtual bool frozen() const = 0;
    /// The state as it stands (as frozen, after freeze()).
    virtual LearnedProposal learned() const = 0;

    /// For a live change of the temperature (LiveTuning) after the burn-in: a copy at scale
    /// step() × `scaleFactor` that learns its scale again, toward the same target acceptance,
    /// from the chain's next iterations, with the covariance (or preconditioner) the burn-in
    /// learned kept as it is. The caller freezes it where the re-adaptation ends. Null where the
    /// proposal cannot re-learn its scale (then the chain goes on with the old kernel).
    ///
    /// Why √(T′/T) is the factor the caller passes: where the likelihood dominates the prior,
    /// the tempered posterior's covariance is T times the untempered one's, so its spread, and
    /// with it the scale a proposal of the same acceptance needs, grows as √T.
    std::unique_ptr<AdaptiveProposal> relearning(double scaleFactor) const;

protected:
    /// Called on a frozen copy made by withStep(): restart the scale's adaptation alone, with a
    /// gain that starts small (the copy's scale is already a good guess), leaving the learned
    /// covariance fixed. false: this proposal cannot (the default).
    virtual bool resumeScaleLearning() { return false; }
};

/// The Robbins–Monro gain index a re-learned scale starts from: its first gain is 21^−0.6 ≈ 0.16
/// instead of 1, so that a scale already rescaled to the new target is refined rather than
/// thrown about by the first few accept/reject outcomes, while the gains left over a few
/// hundred iterations still sum to several units of log s (room to correct a factor of e² and more).
inline constexpr std::int64_t kRelearnGainStart = 20;

} // namespace core
