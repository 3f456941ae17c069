#pragma once
/// A minibatch that grows look by look, with the running statistics every sequential test
/// needs. Values are Λ_i = (N / T) · l_i (Seita et al., "Minibatch Acceptance Test", Sec. 2), so
/// that their mean plus the log prior/proposal ratio is Δ* (Eq. 8); tests that work with l_i / T
/// divide by N.
#include <span>
#include <vector>

#include "core/acceptance/acceptance_test.h"
#include "core/acceptance/minibatch_sampler.h"
#include "core/models/running_moments.h"

namespace core {

/// (1 − b/N)·s²/b: the unbiased estimate of the variance of the mean of b rows drawn without
/// replacement from N, from their unbiased sample variance s² (Cochran, "Sampling Techniques",
/// 3rd ed., Sec. 2.5, Theorem 2.4). The minibatch test's variance (growing_minibatch.h).
inline double varianceOfMeanWithoutReplacement(double sampleVariance, DataIndex b, DataIndex N)
{
    return (1.0 - static_cast<double>(b) / static_cast<double>(N)) * sampleVariance / static_cast<double>(b);
}

class MinibatchAccumulator {
public:
    /// Starts a new test on `problem`: rows are drawn afresh, without replacement unless
    /// `withReplacement`. Allocates only when the dataset size changes.
    void begin(const TestProblem &problem, bool withReplacement = false);

    /// Draws up to `count` more rows, evaluates their Λ_i and merges them into the statistics
    /// (RunningMoments: never running sums of Λ and Λ²).
    /// Returns the number of rows added (0 once the batch has N rows).
    DataIndex extend(DataIndex count, Rng &rng);

    DataIndex size() const { return m_size; }
    DataIndex populationSize() const { return m_population; }
    /// No more rows can be drawn in this test: b = N.
    bool exhausted() const { return m_size == m_population; }
    /// The batch is every row once, so its mean is the exact full-data mean (never with
    /// replacement, where N draws still repeat some rows and miss others).
    bool wholeDataset() const { return exhausted() && !m_withReplacement; }
    bool withReplacement() const { return m_withReplacement; }
    int looks() const { return m_looks; }
    /// Mean of Λ_i over the batch.
    double mean() const { return m_moments.mean; }
    /// Σ (Λ_i − mean)² over the batch.
    double sumSquares() const { return m_moments.sumSquares; }
    /// Unbiased sample variance of the Λ_i (0 for fewer than two rows).
    double sampleVariance() const { return m_size > 1 ? m_moments.sumSquares / static_cast<double>(m_size - 1) : 0.0; }
    /// (N − b) / (N − 1): the finite-population factor of Korattikara et al.'s standard error
    /// ("Austerity in MCMC Land", Eq. 12, squared), which AustereMH keeps as published. With the
    /// unbiased sample variance s² it overestimates the variance of the mean by N/(N − 1).
    double finitePopulationFactor() const;

    /// Λ_i of the batch, in draw order.
    std::span<const double> values() const { return {m_lambda.data(), static_cast<std::size_t>(m_size)}; }
    /// N / T: the factor from l_i to Λ_i.
    double scale() const { return m_scale; }
    /// See MinibatchSampler::restart.
    void restartSampling() { m_sampler.restart(); }

private:
    const TestProblem *m_problem = nullptr;
    MinibatchSampler m_sampler;
    std::vector<double> m_lambda;
    DataIndex m_population = 0;
    DataIndex m_size = 0;
    int m_looks = 0;
    bool m_withReplacement = false;
    double m_scale = 1.0;
    RunningMoments m_moments; // of the Λ_i drawn so far
};

} // namespace core
