#include "core/acceptance/growing_minibatch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/validation/range_checks.h"

namespace core {

void validate(const MinibatchSettings &settings)
{
    if (settings.initialBatch < 2)
        throw std::invalid_argument("batch must be >= 2 (a variance needs two points); got "
                                    + std::to_string(settings.initialBatch));
    requireAtLeast("batch-growth", settings.batchGrowth, 1);
    if (!(settings.cltBound >= 0.0) || !std::isfinite(settings.cltBound))
        throw std::invalid_argument("delta must be finite and >= 0 (0 switches the CLT bound off)");
}

MinibatchEstimate GrowingMinibatch::grow(const TestProblem &problem, const MinibatchSettings &settings,
                                         double varianceTarget, Rng &rng)
{
    m_batch.begin(problem, !settings.finitePopulationCorrection);
    MinibatchEstimate estimate;
    const double exact = problem.exactPart();
    DataIndex want = settings.initialBatch;
    while (true) {
        m_batch.extend(want, rng);
        const DataIndex b = m_batch.size();
        // Without replacement: (1 − b/N)·s²/b, the unbiased estimate of the mean's variance
        // (minibatch_accumulator.h); with replacement s²/b.
        const double variance = settings.finitePopulationCorrection
                                    ? varianceOfMeanWithoutReplacement(m_batch.sampleVariance(), b, m_batch.populationSize())
                                    : m_batch.sampleVariance() / static_cast<double>(b);
        estimate.size = b;
        estimate.looks = m_batch.looks();
        estimate.variance = variance;
        estimate.deltaStar = m_batch.mean() + exact;
        estimate.wholeDataset = m_batch.wholeDataset();
        bool enough = variance < varianceTarget;
        if (enough && settings.cltBound > 0.0) {
            estimate.cltError = cltError();
            enough = estimate.cltError <= settings.cltBound;
        }
        if (enough || estimate.wholeDataset)
            return estimate;
        if (m_batch.exhausted()) {
            // N draws with replacement and still too noisy: one exact pass, as the
            // without-replacement batch would have reached.
            estimate.deltaStar = problem.model.logLikelihoodRatioSum(problem.current, problem.proposed) / problem.temperature
                                 + exact;
            estimate.variance = 0.0;
            estimate.fullScanPoints = m_batch.populationSize();
            estimate.wholeDataset = true;
            return estimate;
        }
        want = settings.batchGrowth;
    }
}

double GrowingMinibatch::cltError() const
{
    // Standardised moments: Novak's bound (Seita et al., "Minibatch Acceptance Test", Lemma 3) is
    // for a unit-variance X, so the scale of Λ must not enter ε.
    const DataIndex size = m_batch.size();
    const double sd = std::sqrt(m_batch.sumSquares() / static_cast<double>(size));
    if (!(sd > 0.0))
        return 0.0;
    const auto values = m_batch.values();
    const Eigen::Map<const Eigen::ArrayXd> batch(values.data(), size);
    const double firstAbs = ((batch - m_batch.mean()).abs() / sd).mean();
    const double thirdAbs = ((batch - m_batch.mean()).abs() / sd).cube().mean();
    return (6.4 * thirdAbs + 2.0 * firstAbs) / std::sqrt(static_cast<double>(size));
}

} // namespace core
