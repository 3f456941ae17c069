#pragma once
/// The sequential baselines the paper compares against. Both grow a minibatch until a
/// confidence test separates the minibatch mean from the threshold set by u, and fall back
/// to the exact Metropolis decision when the batch reaches N.
///
/// In the Λ scale of acceptance_test.h the Metropolis test u < α is: accept iff
///   mean_i Λ_i > ψ = log u − (log p0(θ') − log p0(θ) + log q(θ|θ') − log q(θ'|θ)),
/// which is Korattikara et al.'s μ > μ₀ ("Sequential Tests", Eq. 11) and Bardenet et al.'s Λ > ψ
/// (Seita et al., "Minibatch Acceptance Test", Eq. 3) multiplied by N.
#include <optional>
#include <vector>

#include "core/acceptance/minibatch_accumulator.h"
#include "core/acceptance/sampled_test.h"

namespace core {

/// AustereMH (Korattikara et al., "Sequential Tests", Sec. 3.1, Algorithm 2): a sequential
/// Student-t test with the finite-population correction. Batches of m rows are added until
/// 1 − F_{n−1}(|t|) < ε, t = (Λ̄ − ψ)/s, s² = s_Λ²/n · (N − n)/(N − 1). The conservative
/// variant AustereMH(c) fixes (m, ε) for the whole run (Seita et al., "Minibatch Acceptance Test",
/// appendix C.2.1).
struct AustereSettings {
    DataIndex batch = 100;     ///< m: initial size and increment, ≥ 2
    double epsilon = 0.005;    ///< per-look p-value threshold ε ∈ (0, 0.5)

    bool operator==(const AustereSettings &) const = default;
};
void validate(const AustereSettings &settings);

class AustereTest final : public SampledTest<AustereSettings, MinibatchAccumulator> {
public:
    explicit AustereTest(AustereSettings settings);
    std::string name() const override { return "austere-c"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
    /// The sequential test against a given threshold ψ (Λ scale) instead of one drawn from u:
    /// lets its error and data usage be measured at a fixed μ_std (Korattikara et al., "Austerity
    /// in MCMC Land", supplement Fig. 10).
    Decision decideAgainst(const TestProblem &problem, double psi, Rng &rng);

private:
    /// |t| threshold of the look with n rows: F_{n−1}^{-1}(1 − ε), cached per look index.
    double threshold(int look);

    std::vector<double> m_thresholds;
};

/// MHSubLhd (Bardenet, Doucet & Holmes, "Towards scaling up MCMC: an adaptive subsampling
/// approach", 2014): an empirical-Bernstein stopping rule. At look k with b rows, with
/// δ_k = (p−1)δ/(p k^p),
///   c_k = σ̂ √(2 log(3/δ_k) / b) + 6 C log(3/δ_k) / b,
/// decide when |Λ̄ − ψ| > c_k or b = N; otherwise b ← min(N, ⌈γ b⌉). C bounds |Λ_i| over the
/// whole dataset: by default it is computed with a full pass at every iteration and counted
/// in Decision::fullScanPoints; a model that knows a bound (Model::logLikelihoodRatioBound)
/// spares that pass.
struct SubLhdSettings {
    DataIndex batch = 100;   ///< initial batch m ≥ 2
    double gamma = 1.5;      ///< geometric growth factor > 1 (1.5 for the mixture, 2 for MNIST)
    double p = 2.0;          ///< > 1
    double delta = 0.01;     ///< total error budget δ ∈ (0, 1)
    /// Use the model's closed-form bound on max_i |l_i| when it has one, instead of a pass.
    bool useModelBound = false;

    bool operator==(const SubLhdSettings &) const = default;
};
void validate(const SubLhdSettings &settings);

class SubLhdTest final : public SampledTest<SubLhdSettings, MinibatchAccumulator> {
public:
    explicit SubLhdTest(SubLhdSettings settings);
    std::string name() const override { return "sublhd"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
};

} // namespace core
