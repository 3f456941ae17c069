#pragma once
// The exact minibatch kernels' acceptance, measured and in closed form: how often a kernel
// accepts one fixed move (with its points read, bound violations and fallbacks), and SMH's
// factorised probability (Cornish et al. 2019, "Scalable Metropolis–Hastings", Sec. 3.1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/acceptance/acceptance_test.h"
#include "core/models/control_variates.h"
#include "core/random/rng.h"

namespace teststats {

inline std::vector<double> allRatios(const core::Model &model, const core::Vector &from, const core::Vector &to)
{
    std::vector<double> values(static_cast<std::size_t>(model.dataSize()));
    model.logLikelihoodRatiosRange(from, to, 0, values);
    return values;
}

struct Frequency {
    double rate = 0.0;
    double meanPoints = 0.0;
    std::int64_t violations = 0;
    int fallbacks = 0;
};

inline Frequency acceptanceFrequency(core::AcceptanceTest &test, const core::TestProblem &problem, core::Rng &rng,
                                     int repetitions = 100'000)
{
    Frequency f;
    int accepted = 0;
    for (int r = 0; r < repetitions; ++r) {
        const core::Decision d = test.decide(problem, rng);
        accepted += d.accepted;
        f.meanPoints += static_cast<double>(d.pointsUsed) / repetitions;
        f.violations += d.boundViolations;
        f.fallbacks += d.fullDataFallback;
    }
    f.rate = static_cast<double>(accepted) / repetitions;
    return f;
}

/// SMH's acceptance probability without the fallback: min(1, e^{a₀}) Π_i min(1, e^{r_i/T}), r_i
/// the control-variate residuals.
inline double smhProbability(const core::ControlVariateModel &cv, const core::TestProblem &problem)
{
    double logProduct = std::min(0.0, problem.exactPart());
    for (const double r : allRatios(cv, problem.current, problem.proposed))
        logProduct += std::min(0.0, r / problem.temperature);
    return std::exp(logProduct);
}

} // namespace teststats
