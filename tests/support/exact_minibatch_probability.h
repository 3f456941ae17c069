#pragma once
// The exact minibatch kernels' acceptance, measured and in closed form: how often a kernel
// accepts one fixed move (with its points read, bound violations and fallbacks), and SMH's
// factorised probability (Cornish et al. 2019, "Scalable Metropolis–Hastings", Sec. 3.1) and
// TunaMH's (Zhang, Cooper & De Sa 2020, "Asymptotically optimal exact minibatch
// Metropolis–Hastings", Algorithm 1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <boost/math/distributions/poisson.hpp>

#include "core/acceptance/acceptance_test.h"
#include "core/models/control_variates.h"
#include "core/random/rng.h"
#include "tests/support/acceptance_sampling.h"

namespace teststats {

inline std::vector<double> allRatios(const core::Model &model, const core::Vector &from, const core::Vector &to)
{
    std::vector<double> values(static_cast<std::size_t>(model.dataSize()));
    model.logLikelihoodRatiosRange(from, to, 0, values);
    return values;
}

using Frequency = AcceptanceOutcome;

inline Frequency acceptanceFrequency(core::AcceptanceTest &test, const core::TestProblem &problem, core::Rng &rng,
                                     int repetitions = 100'000)
{
    return repeatDecision(test, problem, rng, repetitions);
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

// TunaMH's acceptance probability, exactly: point i is kept k_i ~ Poisson(μ_i) times
// independently, μ_i = λc_i/C + φ_i (the Poisson draws thinned by the keep-probability), and each
// keep multiplies the ratio by ρ_i = (λc_i/C + φ'_i)/(λc_i/C + φ_i); the acceptance is
// E[min(1, R Π ρ_i^{k_i})], summed here over every k up to far in each Poisson's tail. Points
// with the same (μ, ρ) are one group whose total count is Poisson(multiplicity · μ).
inline double tunaProbability(const core::Model &model, const core::TestProblem &problem, double chi)
{
    const double T = problem.temperature;
    const auto lipschitz = *model.pointLipschitzConstants();
    const std::vector<double> ratios = allRatios(model, problem.current, problem.proposed);
    const double M = (problem.proposed - problem.current).norm();
    const double C = std::accumulate(lipschitz.begin(), lipschitz.end(), 0.0) / T;
    const double lambda = chi * C * C * M * M;
    struct Group {
        double mu, logRho;
        int count;
    };
    std::vector<Group> groups;
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        const double ci = lipschitz[i] / T, Mi = ci * M;
        const double phi = 0.5 * (Mi - ratios[i] / T), phiPrime = Mi - phi;
        const double base = lambda * ci / C;
        const Group g{base + phi, std::log((base + phiPrime) / (base + phi)), 1};
        const auto same = std::find_if(groups.begin(), groups.end(), [&](const Group &h) {
            return std::abs(h.mu - g.mu) < 1e-15 && std::abs(h.logRho - g.logRho) < 1e-15;
        });
        if (same == groups.end())
            groups.push_back(g);
        else
            ++same->count;
    }
    if (groups.size() > 4) // the sum below is over every count of every group
        throw std::logic_error("tunaProbability: the rows fall in more than four groups");
    const std::function<double(std::size_t, double)> sum = [&](std::size_t g, double logRatio) -> double {
        if (g == groups.size())
            return std::exp(std::min(0.0, logRatio));
        const double mean = groups[g].mu * groups[g].count;
        const boost::math::poisson_distribution<double> poisson(mean);
        const int last = static_cast<int>(mean + 12.0 * std::sqrt(mean) + 30.0);
        double total = 0.0;
        for (int k = 0; k <= last; ++k)
            total += boost::math::pdf(poisson, k) * sum(g + 1, logRatio + k * groups[g].logRho);
        return total;
    };
    return sum(0, problem.exactPart());
}

} // namespace teststats
