#pragma once
/// The adaptive minibatch of Seita et al., "Minibatch Acceptance Test", Algorithm 1 (Sec. 4): start
/// with m points, add `growth` more until the estimated variance of Δ* is below σ² (and,
/// optionally, the CLT error bound of Corollary 1 is below δ), or until the batch is the whole
/// dataset.
#include "core/acceptance/acceptance_test.h"
#include "core/acceptance/minibatch_accumulator.h"

namespace core {

struct MinibatchSettings {
    DataIndex initialBatch = 100;   ///< m ≥ 2 (a variance needs two points)
    DataIndex batchGrowth = 100;    ///< rows added per look, ≥ 1
    /// δ of Corollary 1 (Seita et al., "Minibatch Acceptance Test", Sec. 5.1): also grow until ε =
    /// (6.4 E|X|³ + 2 E|X|)/√b ≤ δ, with X the standardised Λ_i of the batch. 0 switches the bound
    /// off. Because E|X|³ ≥ 1 for a standardised variable, ε ≥ 8/√b: δ = 0.01 needs b ≥ 640,000.
    double cltBound = 0.0;
    /// On: rows are drawn without replacement and s²_Δ* is multiplied by (N − b)/(N − 1), the
    /// variance of such a mean (exactly 0 at b = N). Off: rows are drawn WITH replacement, whose
    /// mean has variance s²/b, the form of Seita et al.'s Algorithm 1. Either way s²_Δ* is the
    /// variance of the Δ* actually used, so X_nc makes up exactly the rest of σ².
    bool finitePopulationCorrection = true;

    bool operator==(const MinibatchSettings &) const = default;
};

/// Throws std::invalid_argument naming the setting and its allowed range.
void validate(const MinibatchSettings &settings);

/// Δ* and the statistics of the batch it came from.
struct MinibatchEstimate {
    double deltaStar = 0.0;   ///< mean of Λ_i over the batch + log prior/proposal ratio (Eq. 8)
    double variance = 0.0;    ///< s²_Δ* = sample variance of Λ_i / b (× FPC)
    double cltError = 0.0;    ///< ε of Corollary 1 (computed only when the bound is on)
    DataIndex size = 0;       ///< b
    int looks = 0;
    /// Δ* is the exact Δ: b = N without replacement, or, with replacement, N draws that still
    /// left the variance too large, after which one full pass computed Δ (fullScanPoints = N).
    bool wholeDataset = false;
    std::int64_t fullScanPoints = 0;
};

class GrowingMinibatch {
public:
    /// Grows the batch until s²_Δ* < varianceTarget and (if on) ε ≤ δ, or b = N.
    MinibatchEstimate grow(const TestProblem &problem, const MinibatchSettings &settings,
                           double varianceTarget, Rng &rng);
    void restartSampling() { m_batch.restartSampling(); }

private:
    double cltError() const;

    MinibatchAccumulator m_batch;
};

} // namespace core
