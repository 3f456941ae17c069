#pragma once
/// The acceptance-test interface shared by every method (full-data Metropolis and Barker,
/// MHminibatch, naive minibatch Barker, and the sequential baselines).
///
/// Notation follows Seita et al. ("Minibatch Acceptance Test", Sec. 2–3): with temperature T,
///   Λ_i = (N / T) · l_i,  l_i = log p(x_i | θ') − log p(x_i | θ),
///   Δ   = mean_i Λ_i + log p0(θ') − log p0(θ) + log q(θ | θ') − log q(θ' | θ)   (Eq. 6–7),
/// and Δ* is the same with the mean taken over a minibatch (Eq. 8).
#include <cstdint>
#include <string>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace core {

/// One proposal to decide on. References stay valid for the duration of decide().
struct TestProblem {
    const Model &model;
    const Vector &current;
    const Vector &proposed;
    double temperature;   ///< T > 0; divides every log-likelihood, never the prior
    /// log p0(θ') − log p0(θ) + log q(θ | θ') − log q(θ' | θ), i.e. −ψ(1, θ, θ') of Eq. 3.
    double logPriorProposalRatio;

    /// The part of Δ no test needs to estimate: the prior and proposal ratio plus the model's
    /// exact part of the log-likelihood ratio over T (Model::exactLogLikelihoodRatioPart; the
    /// Taylor proxies' sum with control variates, 0 otherwise). One O(d²) evaluation.
    double exactPart() const
    {
        return logPriorProposalRatio + model.exactLogLikelihoodRatioPart(current, proposed) / temperature;
    }
};

/// What one test decided and what it cost.
struct Decision {
    bool accepted = false;
    /// Data points whose likelihood the test evaluated from minibatches (b for MHminibatch,
    /// N for the full-data tests).
    std::int64_t pointsUsed = 0;
    /// Points read by full-data passes that are not minibatch data (the range bound of
    /// MHSubLhd, μ_std of AustereMH(nc)); zero for the methods that need none.
    std::int64_t fullScanPoints = 0;
    /// Wall time spent in those full-data passes.
    double fullScanSeconds = 0.0;
    /// Number of times the test looked at (grew) its minibatch.
    int looks = 0;
    /// MHminibatch only: the batch reached N and the exact full-data Barker test decided.
    bool fullDataFallback = false;
    double deltaEstimate = 0.0;     ///< Δ* (or Δ for full-data tests)
    double deltaVariance = 0.0;     ///< s²_Δ*, the estimated variance of Δ* (0 for full data)
    /// The exact minibatch kernels (SMH, TunaMH): drawn points whose ratio broke the per-point
    /// bound the kernel's exactness rests on. A correct bound never does: runs report the count.
    std::int64_t boundViolations = 0;
    /// FlyMC: the points bright after this iteration's z-update, whose likelihoods at θ′ its
    /// θ-move read (Maclaurin & Adams 2014, Sec. 3); −1 for the tests without brightness
    /// variables.
    std::int64_t brightPoints = -1;
};

class AcceptanceTest {
public:
    virtual ~AcceptanceTest() = default;
    /// Short method name as the CLI spells it ("mh", "barker", "minibatch", "naive-barker").
    virtual std::string name() const = 0;
    /// Decides on one proposal. Allocates only on the first call for a model of a new size.
    virtual Decision decide(const TestProblem &problem, Rng &rng) = 0;
    /// Puts the test's minibatch sampler back in its initial order (MinibatchSampler::restart)
    /// at a chain's checkpoint, so that the draws from there on depend only on the random
    /// stream and θ. Nothing for tests without one (full-data, Poisson-minibatch tests).
    virtual void restartSampling() {}
    /// False for a test whose state reaches from one iteration to the next beyond its sampler
    /// (FlyMC's bright points): such a chain cannot restart at a checkpoint.
    virtual bool restartable() const { return true; }
    /// The posterior mode at `temperature`, found once for a whole request, for a test that
    /// tunes itself there (FlyMC's bounds) rather than finding it again per chain. Nothing for
    /// the others.
    virtual void useAnchor(const Vector &, double) {}
    /// False for a method without an accept step (AcceptEveryMove): the chain then skips the
    /// proposal's log ratio, which would cost gradients no one reads.
    virtual bool readsProposalRatio() const { return true; }
};

} // namespace core
