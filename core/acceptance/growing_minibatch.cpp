#include "core/acceptance/growing_minibatch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace core {

void validate(const MinibatchSettings &settings)
{
    if (settings.initialBatch < 2)
        throw std::invalid_argument("batch must be >= 2 (a variance needs two points); got "
                                    + std::to_string(settings.initialBatch));
    if (settings.batchGrowth < 1)
        throw std::invalid_argument("batch-growth must be >= 1; got " + std::to_string(settings.batchGrowth));
    if (!(settings.cltBound >= 0.0) || !std::isfinite(settings.cltBound))
        throw std::invalid_argument("delta must be finite and >= 0 (0 switches the CLT bound off)");
}

MinibatchEstimate GrowingMinibatch::grow(const TestProblem &problem, const MinibatchSettings &settings,
                                         double varianceTarget, Rng &rng)
{
    const Model &model = problem.model;
    const DataIndex n = model.dataSize();
    if (m_sampler.populationSize() != n) {
        m_sampler.reset(n);
        m_lambda.assign(static_cast<std::size_t>(n), 0.0);
    }
    const double scale = static_cast<double>(n) / problem.temperature;

    m_sampler.beginTest();
    MinibatchEstimate estimate;
    double mean = 0.0, sumSquares = 0.0; // of Λ_i over the batch so far
    DataIndex want = std::min(settings.initialBatch, n);
    while (true) {
        const DataIndex before = m_sampler.drawn();
        const auto rows = m_sampler.drawMore(want, rng);
        const auto added = static_cast<Eigen::Index>(rows.size());
        std::span<double> out(m_lambda.data() + before, rows.size());
        model.logLikelihoodRatios(problem.current, problem.proposed, rows, out);
        Eigen::Map<Eigen::ArrayXd> chunk(out.data(), added);
        chunk *= scale;
        const double chunkMean = chunk.mean();
        const double chunkSquares = (chunk - chunkMean).square().sum();
        const double total = static_cast<double>(before + added);
        const double shift = chunkMean - mean;
        mean += shift * static_cast<double>(added) / total;
        sumSquares += chunkSquares + shift * shift * static_cast<double>(before) * static_cast<double>(added) / total;
        ++estimate.looks;

        const DataIndex b = m_sampler.drawn();
        double variance = b > 1 ? sumSquares / static_cast<double>(b - 1) / static_cast<double>(b) : 0.0;
        if (settings.finitePopulationCorrection)
            variance *= n > 1 ? static_cast<double>(n - b) / static_cast<double>(n - 1) : 0.0;
        estimate.size = b;
        estimate.variance = variance;
        estimate.deltaStar = mean + problem.logPriorProposalRatio;
        estimate.wholeDataset = b == n;
        bool enough = variance < varianceTarget;
        if (enough && settings.cltBound > 0.0) {
            estimate.cltError = cltError(b, mean, sumSquares);
            enough = estimate.cltError <= settings.cltBound;
        }
        if (enough || estimate.wholeDataset)
            return estimate;
        want = settings.batchGrowth;
    }
}

double GrowingMinibatch::cltError(DataIndex size, double mean, double sumSquares) const
{
    // Standardised moments: Novak's bound (000_…txt Lemma 3) is for a unit-variance X, so the
    // scale of Λ must not enter ε.
    const double sd = std::sqrt(sumSquares / static_cast<double>(size));
    if (!(sd > 0.0))
        return 0.0;
    const Eigen::Map<const Eigen::ArrayXd> batch(m_lambda.data(), size);
    const double firstAbs = ((batch - mean).abs() / sd).mean();
    const double thirdAbs = ((batch - mean).abs() / sd).cube().mean();
    return (6.4 * thirdAbs + 2.0 * firstAbs) / std::sqrt(static_cast<double>(size));
}

} // namespace core
