#include "core/acceptance/full_data_tests.h"

#include <cmath>

namespace core {

double fullDataDelta(const TestProblem &problem)
{
    return problem.model.logLikelihoodRatioSum(problem.current, problem.proposed) / problem.temperature
           + problem.exactPart();
}

std::shared_ptr<const void> announceFullDataTest(const TestProblem &problem)
{
    return problem.model.announceFullPass("the full-data test, at every iteration");
}

Decision MetropolisTest::decide(const TestProblem &problem, Rng &rng)
{
    const auto notice = announceFullDataTest(problem);
    Decision decision;
    decision.deltaEstimate = fullDataDelta(problem);
    decision.accepted = std::log(rng.uniformOpen01()) < decision.deltaEstimate;
    decision.pointsUsed = problem.model.dataSize();
    decision.looks = 1;
    return decision;
}

Decision BarkerTest::decide(const TestProblem &problem, Rng &rng)
{
    const auto notice = announceFullDataTest(problem);
    Decision decision;
    decision.deltaEstimate = fullDataDelta(problem);
    decision.accepted = decision.deltaEstimate + rng.logistic() > 0.0;
    decision.pointsUsed = problem.model.dataSize();
    decision.looks = 1;
    return decision;
}

} // namespace core
