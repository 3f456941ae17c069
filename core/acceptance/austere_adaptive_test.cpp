#include "core/acceptance/austere_adaptive_test.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/validation/range_checks.h"

namespace core {

AustereAdaptiveTest::AustereAdaptiveTest(std::shared_ptr<const AustereDesigner> designer, double errorBound)
    : m_designer(requireGiven(std::move(designer), "AustereMH(nc) needs a design grid")), m_errorBound(errorBound)
{
    if (!(errorBound > 0.0 && errorBound < 1.0))
        throw std::invalid_argument("error-bound must be in (0, 1); got " + std::to_string(errorBound));
    for (const auto &table : m_designer->tables())
        m_tests.emplace_back(AustereSettings{static_cast<DataIndex>(table.batch()), table.epsilon()});
}

Decision AustereAdaptiveTest::decide(const TestProblem &problem, Rng &rng)
{
    const auto start = std::chrono::steady_clock::now();
    const auto [mean, sd] = problem.model.logLikelihoodRatioMoments(problem.current, problem.proposed);
    const double scale = static_cast<double>(problem.model.dataSize()) / problem.temperature;
    const ProposalMoments moments{mean * scale, sd * scale, problem.exactPart()};
    const std::size_t design = m_designer->choose(moments, m_errorBound);
    const double scanSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Decision decision = m_tests[design].decide(problem, rng);
    decision.fullScanPoints = problem.model.dataSize();
    decision.fullScanSeconds = scanSeconds;
    return decision;
}

} // namespace core
