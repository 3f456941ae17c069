#pragma once
/// MHminibatch, the corrected minibatch Barker test of Seita et al. ("Minibatch Acceptance Test",
/// Sec. 3.3–4, Algorithm 1), and the naive uncorrected variant that shows what the correction is
/// for.
#include <memory>

#include "core/acceptance/growing_minibatch.h"
#include "core/acceptance/sampled_test.h"
#include "core/correction/correction_distribution.h"

namespace core {

/// Accept iff Δ* + X_nc + X_corr > 0 with X_nc ~ N(0, σ² − s²_Δ*) and X_corr ~ C_σ (Eq. 13).
/// The batch grows until s²_Δ* < σ² (Algorithm 1 writes 1 because it fixes σ = 1). When the
/// batch reaches N, Δ is exact and the exact full-data Barker test decides; the decision
/// records that fallback. There are no shortcuts such as accepting outright when |Δ*| ≫ s:
/// the Barker probability at 5 is 0.993, not 1.
class MinibatchBarkerTest final : public SampledTest<MinibatchSettings, GrowingMinibatch> {
public:
    /// Throws std::invalid_argument for invalid settings.
    MinibatchBarkerTest(std::shared_ptr<const CorrectionDistribution> correction, MinibatchSettings settings);

    std::string name() const override { return "minibatch"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
    const CorrectionDistribution &correction() const { return *m_correction; }

private:
    std::shared_ptr<const CorrectionDistribution> m_correction;
    double m_sigma;
};

/// The same batch (grown by the same rule up to s²_Δ* < σ²) but tested as Δ* + X_log > 0,
/// as if Δ* were exact. Its acceptance probability is the logistic CDF smeared by the
/// minibatch noise, biased towards ½: the bias the correction removes (Seita et al., "Minibatch
/// Acceptance Test", Sec. 3.3).
class NaiveMinibatchBarkerTest final : public SampledTest<MinibatchSettings, GrowingMinibatch> {
public:
    NaiveMinibatchBarkerTest(double sigma, MinibatchSettings settings);

    std::string name() const override { return "naive-barker"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;

private:
    double m_sigma;
};

} // namespace core
