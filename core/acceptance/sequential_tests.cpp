#include "core/acceptance/sequential_tests.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include <boost/math/distributions/students_t.hpp>

#include "core/validation/range_checks.h"

namespace core {
namespace {

double metropolisThreshold(const TestProblem &problem, Rng &rng)
{
    return std::log(rng.uniformOpen01()) - problem.exactPart();
}

Decision decisionFrom(const MinibatchAccumulator &batch, double threshold, std::int64_t fullScan)
{
    Decision decision;
    decision.accepted = batch.mean() > threshold;
    decision.pointsUsed = batch.size();
    decision.fullScanPoints = fullScan;
    decision.looks = batch.looks();
    decision.deltaEstimate = batch.mean();
    return decision;
}

} // namespace

void validate(const AustereSettings &settings)
{
    requireAtLeast("batch", settings.batch, 2);
    if (!(settings.epsilon > 0.0 && settings.epsilon < 0.5))
        throw std::invalid_argument("epsilon must be in (0, 0.5); got " + std::to_string(settings.epsilon));
}

AustereTest::AustereTest(AustereSettings settings) : SampledTest(settings) {}

double AustereTest::threshold(int look)
{
    // Looks have n = look·m rows except the last, capped at N, which needs no threshold.
    const auto index = static_cast<std::size_t>(look - 1);
    if (index >= m_thresholds.size()) {
        const std::size_t old = m_thresholds.size();
        m_thresholds.resize(std::max<std::size_t>(index + 1, 2 * old));
        for (std::size_t k = old; k < m_thresholds.size(); ++k) {
            const double dof = static_cast<double>((k + 1) * static_cast<std::size_t>(m_settings.batch) - 1);
            m_thresholds[k] = boost::math::quantile(boost::math::students_t(dof), 1.0 - m_settings.epsilon);
        }
    }
    return m_thresholds[index];
}

Decision AustereTest::decide(const TestProblem &problem, Rng &rng)
{
    return decideAgainst(problem, metropolisThreshold(problem, rng), rng);
}

Decision AustereTest::decideAgainst(const TestProblem &problem, double psi, Rng &rng)
{
    m_batch.begin(problem);
    while (true) {
        m_batch.extend(m_settings.batch, rng);
        if (m_batch.wholeDataset())
            break; // s = 0: the exact Metropolis decision
        const double n = static_cast<double>(m_batch.size());
        const double s = std::sqrt(m_batch.sampleVariance() / n * m_batch.finitePopulationFactor());
        const double gap = std::abs(m_batch.mean() - psi);
        if (gap > threshold(m_batch.looks()) * s)
            break;
    }
    return decisionFrom(m_batch, psi, 0);
}

void validate(const SubLhdSettings &settings)
{
    requireAtLeast("batch", settings.batch, 2);
    if (!(settings.gamma > 1.0) || !std::isfinite(settings.gamma))
        throw std::invalid_argument("gamma must be finite and > 1; got " + std::to_string(settings.gamma));
    if (!(settings.p > 1.0) || !std::isfinite(settings.p))
        throw std::invalid_argument("p must be finite and > 1; got " + std::to_string(settings.p));
    if (!(settings.delta > 0.0 && settings.delta < 1.0))
        throw std::invalid_argument("sublhd-delta must be in (0, 1); got " + std::to_string(settings.delta));
}

SubLhdTest::SubLhdTest(SubLhdSettings settings) : SampledTest(settings) {}

Decision SubLhdTest::decide(const TestProblem &problem, Rng &rng)
{
    const double psi = metropolisThreshold(problem, rng);
    std::int64_t fullScan = 0;
    std::optional<double> bound;
    if (m_settings.useModelBound)
        bound = problem.model.logLikelihoodRatioBound(problem.current, problem.proposed);
    double scanSeconds = 0.0;
    if (!bound) {
        const auto start = std::chrono::steady_clock::now();
        bound = problem.model.maxAbsLogLikelihoodRatio(problem.current, problem.proposed);
        scanSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fullScan = problem.model.dataSize();
    }
    m_batch.begin(problem);
    const double rangeBound = *bound * m_batch.scale(); // C in the Λ scale
    DataIndex target = m_settings.batch;
    for (int look = 1;; ++look) {
        m_batch.extend(target - m_batch.size(), rng);
        if (m_batch.wholeDataset())
            break;
        const double b = static_cast<double>(m_batch.size());
        const double deltaK = (m_settings.p - 1.0) * m_settings.delta / (m_settings.p * std::pow(look, m_settings.p));
        const double logTerm = std::log(3.0 / deltaK);
        const double halfWidth = std::sqrt(m_batch.sampleVariance()) * std::sqrt(2.0 * logTerm / b)
                                 + 6.0 * rangeBound * logTerm / b;
        if (std::abs(m_batch.mean() - psi) > halfWidth)
            break;
        const double grown = std::ceil(m_settings.gamma * b);
        target = static_cast<DataIndex>(std::min<double>(grown, m_batch.populationSize()));
    }
    Decision decision = decisionFrom(m_batch, psi, fullScan);
    decision.fullScanSeconds = scanSeconds;
    return decision;
}

} // namespace core
