#pragma once
/// Firefly Monte Carlo (Maclaurin & Adams, "Firefly Monte Carlo: exact MCMC with subsets of
/// data", UAI 2014, Sec. 3–4), for every model with a collapsible lower bound
/// (collapsible_bound.h): every point has a lower bound B_i(θ) ≤ exp(ℓ_i(θ)) whose product over
/// all points is cheap, and a brightness z_i ∈ {0, 1}.
/// The chain runs on the joint target
///   p(θ) · Π_i B_i(θ)^{1/T} · Π_{i bright} L̃_i(θ),   L̃_i = exp((ℓ_i − log B_i)/T) − 1,
/// whose θ-marginal is the tempered posterior p(θ) exp(Σ_i ℓ_i(θ)/T), so only bright points are
/// read. The bounds are tuned at the posterior mode θ̂ (logistic regression's are Jaakkola &
/// Jordan's for log σ, logistic_collapsible_bound.cpp). log L̃ = g + log(−expm1(−g)),
/// g = (ℓ − log B)/T: near θ̂ the bound is tight and (L − B)/B would lose every digit.
///
/// Each decision first updates z at the current θ by MH flips, each point once (Sec. 3.1's
/// "explicit" proposals): a bright point goes dark with probability min(1, q_db/L̃_i), a dark point
/// is proposed with probability q_db (drawn by geometric skips, about q_db·N evaluations) and
/// goes bright with probability min(1, L̃_i/q_db). Then the move θ → θ' is a Metropolis test on
/// the joint target with z fixed; θ' was drawn before the z-update, which is allowed because the
/// proposal does not look at z.
///
/// The one kernel with state across iterations: z, with the bright points' log L̃ at the chain's
/// θ. The first decision (and one after a change of model or temperature) finds θ̂ and the sums
/// and draws z from p(z | θ) = Bernoulli(1 − e^{−g_i}): O(N), reported as fullScanPoints. A
/// kernel change into FlyMC therefore starts with that pass.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/acceptance/acceptance_test.h"

namespace core {

class CollapsibleLowerBound;

struct FireflySettings {
    /// q_db ∈ (0, 1]: the probability that a dark point is proposed bright in a z-update. The
    /// reference experiments use 10⁻³ (Maclaurin & Adams 2014, Sec. 5).
    double darkToBright = 1e-3;
};

class FireflyTest : public AcceptanceTest {
public:
    /// Throws std::invalid_argument when darkToBright is outside (0, 1].
    explicit FireflyTest(FireflySettings settings = {});

    std::string name() const override { return "flymc"; }
    /// pointsUsed: the likelihoods evaluated, those of the z-update's proposed dark points and
    /// of the bright points at θ' (their values at θ are kept from the last iteration).
    /// Throws std::invalid_argument, naming the capability, when the model has no collapsible
    /// lower bound (logistic regression without control variates has one).
    Decision decide(const TestProblem &problem, Rng &rng) override;
    /// The bright points carry over from one iteration to the next: no checkpoint restart.
    bool restartable() const override { return false; }

    /// Tunes the bounds at `anchor` (the posterior mode at `temperature`, found by the caller)
    /// instead of finding the mode at a first decision at that temperature.
    void useAnchor(const Vector &anchor, double temperature) override
    {
        m_givenAnchor = anchor;
        m_anchorTemperature = temperature;
    }

    /// Bright points now (0 before the first decision).
    std::int64_t brightCount() const { return static_cast<std::int64_t>(m_bright.size()); }

protected:
    /// The dark-to-bright half of the z-update at θ (the chain's point): proposes each point
    /// that is dark at the sweep's start with probability q_db and brightens it with probability
    /// min(1, L̃_i/q_db). Returns the likelihoods it evaluated. Virtual so that a suite can
    /// break it and show that its stationary test notices.
    virtual std::int64_t brightenDarkPoints(const Vector &theta, Rng &rng);

    /// Makes point i bright, with log L̃_i at the chain's θ.
    void addBright(DataIndex i, double logWeight);
    /// log L̃_i(θ) of one point at temperature T (−∞ where the bound is exact).
    double logBrightWeight(DataIndex i, const Vector &theta) const;
    bool isBright(DataIndex i) const { return m_position[static_cast<std::size_t>(i)] >= 0; }
    DataIndex dataSize() const;
    double darkToBright() const { return m_settings.darkToBright; }

private:
    void initialize(const Model &model, const TestProblem &problem, Rng &rng, Decision &decision);
    void refreshBrightWeights(const Vector &theta);
    /// The bright-to-dark half, on the values at θ kept from the last iteration: reads nothing.
    void darkenBrightPoints(Rng &rng);

    FireflySettings m_settings;
    const Model *m_model = nullptr;
    double m_temperature = 0.0;
    std::shared_ptr<const CollapsibleLowerBound> m_bound; ///< tuned at the mode for m_model
    std::vector<DataIndex> m_bright;        ///< the bright points
    std::vector<double> m_brightLogWeight;  ///< their log L̃ at m_at
    std::vector<double> m_proposedLogWeight;///< the same at θ', during a decision
    std::vector<std::int32_t> m_position;   ///< index into m_bright, −1 when dark
    std::vector<std::uint32_t> m_brightened;///< the sweep that last brightened each point
    std::uint32_t m_sweep = 0;
    Vector m_at;                            ///< where m_brightLogWeight holds
    Vector m_givenAnchor;                   ///< useAnchor's; empty: find the mode
    double m_anchorTemperature = 0.0;
};

} // namespace core
