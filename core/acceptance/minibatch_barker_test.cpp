#include "core/acceptance/minibatch_barker_test.h"

#include <cmath>
#include <stdexcept>

#include "core/validation/range_checks.h"

namespace core {
namespace {

// The batch's tallies as a decision, its `accepted` left for the test to settle.
Decision decisionFrom(const MinibatchEstimate &estimate)
{
    return Decision{.pointsUsed = estimate.size,
                    .fullScanPoints = estimate.fullScanPoints,
                    .looks = estimate.looks,
                    .fullDataFallback = estimate.wholeDataset,
                    .deltaEstimate = estimate.deltaStar,
                    .deltaVariance = estimate.variance};
}

} // namespace

MinibatchBarkerTest::MinibatchBarkerTest(std::shared_ptr<const CorrectionDistribution> correction,
                                         MinibatchSettings settings)
    : SampledTest(settings),
      m_correction(requireGiven(std::move(correction), "the minibatch test needs a correction distribution"))
{
    m_sigma = m_correction->params().sigma;
}

Decision MinibatchBarkerTest::decide(const TestProblem &problem, Rng &rng)
{
    const MinibatchEstimate estimate = m_batch.grow(problem, m_settings, m_sigma * m_sigma, rng);
    Decision decision = decisionFrom(estimate);
    if (estimate.wholeDataset) {
        // Δ is exact: the exact Barker test, not the correction, is the honest decision.
        decision.accepted = estimate.deltaStar + rng.logistic() > 0.0;
        decision.deltaVariance = 0.0;
        return decision;
    }
    const double normalSd = std::sqrt(std::max(0.0, m_sigma * m_sigma - estimate.variance));
    const double noise = normalSd * rng.normal() + m_correction->sample(rng);
    decision.accepted = estimate.deltaStar + noise > 0.0;
    return decision;
}

NaiveMinibatchBarkerTest::NaiveMinibatchBarkerTest(double sigma, MinibatchSettings settings)
    : SampledTest(settings), m_sigma(sigma)
{
    if (!(sigma > 0.0) || !std::isfinite(sigma))
        throw std::invalid_argument("sigma must be finite and > 0");
}

Decision NaiveMinibatchBarkerTest::decide(const TestProblem &problem, Rng &rng)
{
    const MinibatchEstimate estimate = m_batch.grow(problem, m_settings, m_sigma * m_sigma, rng);
    Decision decision = decisionFrom(estimate);
    decision.accepted = estimate.deltaStar + rng.logistic() > 0.0;
    return decision;
}

} // namespace core
