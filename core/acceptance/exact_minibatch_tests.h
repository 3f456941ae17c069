#pragma once
/// The exact minibatch kernels that came after Seita et al.: each decides with Poisson-many
/// points drawn by per-point bounds, and its chain has the posterior exactly as its stationary
/// distribution (no minibatch bias), unlike the minibatch test's CLT approximation.
#include <cstdint>

#include "core/acceptance/acceptance_test.h"
#include "core/acceptance/poisson_minibatch.h"
#include "core/models/control_variates.h"

namespace core {

/// Which remainder bound SMH draws its points by (ScalableMetropolisTest).
enum class SmhBound {
    Auto, ///< per move, the smaller of the ℓ₁ and the margin (ℓ₂) forms
    L1,   ///< Cornish et al.'s ℓ₁ form alone
};

/// The bound SMH draws its points by for the move (from, to): φ_i = weights_i · scale.
struct SmhFactorBounds {
    const PointWeights *weights = nullptr;
    double scale = 0.0;
    bool margin = false; ///< the margin form (else the ℓ₁ form)
};
/// SMH's choice for the move (see ScalableMetropolisTest): a function of the unordered pair
/// {from, to}, bit for bit. Builds the tables on first use (a pass over the data each).
SmhFactorBounds smhFactorBounds(const TaylorProxies &proxies, const Vector &from, const Vector &to, double temperature,
                                SmhBound bound);
/// The Poisson rate Λ = Σ_i φ_i that smhFactorBounds' choice gives the move, from the two
/// tables' totals alone (`marginTotal` is ignored without margin bounds): for a caller that
/// has summed the bounds without building the kernel's tables (the forecast, smh_forecast.h).
double smhPoissonRate(const TaylorProxies &proxies, const Vector &from, const Vector &to, double temperature,
                      SmhBound bound, double l1Total, double marginTotal);

/// Scalable Metropolis–Hastings (Cornish, Vanetti, Bouchard-Côté, Deligiannidis & Doucet,
/// "Scalable Metropolis–Hastings for exact Bayesian inference with large datasets", ICML 2019,
/// Sec. 3): the factorised acceptance
///   α(θ, θ') = min(1, e^{a₀}) · Π_i min(1, e^{r_i/T}),
///   a₀ = Σ_i (q̂_i(θ') − q̂_i(θ))/T + log p(θ')/p(θ) + log q(θ|θ')/q(θ'|θ),
/// with q̂_i the Taylor proxies of order k around θ̂ (control_variates.h) and r_i the residuals;
/// the proposal ratio sits in factor 0 (Crank–Nicolson around θ̂ is not symmetric). The N factors
/// are simulated after factor 0 accepted by Poisson thinning (Sec. 3.2): n ~ Poisson(Λ) points
/// drawn with probability φ_i/Λ, each rejecting the move with probability u_i/φ_i, where
/// u_i = max(0, −r_i/T) ≤ φ_i = Ū_i (‖θ − θ̂‖₁^{k+1} + ‖θ' − θ̂‖₁^{k+1}) / ((k+1)! T) and Λ = Σ φ_i;
/// factor i then rejects with probability 1 − e^{−u_i}, as min(1, e^{r_i/T}) requires.
/// When Λ > N the exact full-data Metropolis test decides instead: Λ is symmetric in (θ, θ'),
/// so the switch keeps detailed balance (a switch on θ alone would not).
///
/// Needs the control-variate model (ControlVariateModel) of a model whose remainders are
/// bounded (logistic regression); throws std::invalid_argument otherwise.
///
/// SmhBound::Auto (the default) also has the margin form of the bound where the model's
/// log-likelihood of a point depends on θ through x̃_iᵀθ alone (TaylorProxies::hasMarginBounds):
///   φ_i = V_i (‖θ − θ̂‖₂^{k+1} + ‖θ' − θ̂‖₂^{k+1}) / ((k+1)! T),  V_i = sup|ψ^{(k+1)}| ‖x̃_i‖₂^{k+1},
/// and takes, move by move, the form whose Λ is smaller. On dense covariates the margin form is
/// several times smaller (‖x̃‖₂‖Δ‖₂ against max_j|x̃_j|·‖Δ‖₁, raised to k + 1), so fewer points are
/// drawn per iteration and more moves are accepted. SmhBound::L1 keeps Cornish et al.'s ℓ₁ form
/// alone (their Sec. 3.2), the chains made before the choice existed.
class ScalableMetropolisTest final : public AcceptanceTest {
public:
    explicit ScalableMetropolisTest(SmhBound bound = SmhBound::Auto) : m_bound(bound) {}
    std::string name() const override { return "smh"; }
    /// pointsUsed: the points evaluated (the thinning stops at the first rejection), N for a
    /// fallback; fullScanPoints: N once, for the pass that builds the bounds' table on the
    /// first call for a model. boundViolations counts drawn points with u_i > φ_i (must be 0).
    Decision decide(const TestProblem &problem, Rng &rng) override;

private:
    SmhBound m_bound;
    PoissonMinibatch m_batch;
    const PointWeights *m_seenTable = nullptr;
    const PointWeights *m_seenMarginTable = nullptr;
};

/// TunaMH (Zhang, Cooper & De Sa, "Asymptotically optimal exact minibatch Metropolis–Hastings",
/// NeurIPS 2020, Algorithm 1): with per-point Lipschitz bounds |ℓ_i(θ) − ℓ_i(θ')|/T ≤ c_i M,
/// c_i from Model::pointLipschitzConstants over T, M = ‖θ − θ'‖₂, C = Σ c_i, L = C M and
/// λ = χ L², draw s ~ Poisson(λ + L) points i with probability c_i/C; with M_i = c_i M and
/// φ_i = ½(ℓ_i(θ)/T − ℓ_i(θ')/T + M_i), φ'_i = M_i − φ_i (both in [0, M_i]), keep a point with
/// probability (λ M_i + L φ_i)/(λ M_i + L M_i); each kept point multiplies the acceptance ratio
/// by (λ M_i + L φ'_i)/(λ M_i + L φ_i), and the prior and proposal ratios complete it:
/// accept with probability min(1, ·). Expected batch χ C² M² + C M: it grows with N on a
/// concentrating posterior (M shrinks like N^−½, C grows like N). No control variates. Where that
/// mean exceeds N, the full-data Metropolis test decides instead (this project's addition, as
/// SMH's fallback: the switch depends on ‖θ − θ'‖₂ alone, so it keeps detailed balance).
class TunaTest final : public AcceptanceTest {
public:
    /// chi = χ > 0: larger spends more points per iteration for an acceptance closer to
    /// Metropolis'. Throws std::invalid_argument otherwise. `capAtN` false: the paper's kernel
    /// without the full-data fallback (for tests of its formula on a few points).
    explicit TunaTest(double chi, bool capAtN = true);

    std::string name() const override { return "tunamh"; }
    /// pointsUsed: every Poisson draw (each is a point read), N for a fallback; fullScanPoints: N once, for the
    /// pass that builds the bounds' table; boundViolations: drawn points with |ℓ_i(θ) −
    /// ℓ_i(θ')|/T > M_i (must be 0).
    Decision decide(const TestProblem &problem, Rng &rng) override;

private:
    double m_chi;
    bool m_capAtN;
    PoissonMinibatch m_batch;
    const PointWeights *m_seenTable = nullptr;
};

} // namespace core
