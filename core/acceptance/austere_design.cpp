#include "core/acceptance/austere_design.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss.hpp>

namespace core {
namespace {

double normalCdf(double x)
{
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

} // namespace

SequentialTestProfile austereProfile(double muStd, std::int64_t populationSize, std::int64_t batch, double epsilon,
                                     int cells)
{
    if (populationSize < 2 || batch < 1 || batch > populationSize)
        throw std::invalid_argument("need N >= 2 and 1 <= m <= N");
    if (!(epsilon > 0.0 && epsilon < 0.5))
        throw std::invalid_argument("epsilon must be in (0, 0.5)");
    if (cells < 10)
        throw std::invalid_argument("cells must be >= 10");
    const double n = static_cast<double>(populationSize);
    const double bound = boost::math::quantile(boost::math::normal(), 1.0 - epsilon); // G
    const double width = 2.0 * bound / cells;
    std::vector<double> mass(static_cast<std::size_t>(cells), 0.0), next(mass.size());
    std::vector<double> edges(static_cast<std::size_t>(cells) + 1);
    for (int k = 0; k <= cells; ++k)
        edges[static_cast<std::size_t>(k)] = -bound + k * width;

    SequentialTestProfile profile;
    double wrong = 0.0, decidedEarly = 0.0, survive = 1.0;
    double previous = 0.0; // π_{j−1}
    for (std::int64_t j = 1;; ++j) {
        const double rows = std::min<double>(static_cast<double>(j * batch), n);
        const double pi = rows / n;
        if (rows >= n) { // the last look reads everything and decides exactly
            profile.dataFraction += survive * 1.0;
            profile.allDataProbability = survive;
            break;
        }
        const double a = (pi - previous) / (1.0 - previous) / std::sqrt(pi * (1.0 - pi));
        const double c = previous > 0.0 ? std::sqrt(previous / pi * (1.0 - pi) / (1.0 - previous)) : 0.0;
        const double sd = std::sqrt((pi - previous) / (pi * (1.0 - previous)));
        double below = 0.0, above = 0.0;
        std::fill(next.begin(), next.end(), 0.0);
        // Sources: the cell midpoints (or the single point z₀ = 0 before the first look).
        const int sources = j == 1 ? 1 : cells;
        for (int s = 0; s < sources; ++s) {
            const double weight = j == 1 ? 1.0 : mass[static_cast<std::size_t>(s)];
            if (weight < 1e-300)
                continue;
            const double z = j == 1 ? 0.0 : -bound + (s + 0.5) * width;
            const double mean = muStd * a + z * c;
            double lowerCdf = normalCdf((edges[0] - mean) / sd);
            below += weight * lowerCdf;
            for (int k = 0; k < cells; ++k) {
                const double upperCdf = normalCdf((edges[static_cast<std::size_t>(k) + 1] - mean) / sd);
                next[static_cast<std::size_t>(k)] += weight * (upperCdf - lowerCdf);
                lowerCdf = upperCdf;
            }
            above += weight * (1.0 - lowerCdf);
        }
        // μ_std > 0 means accepting is right: leaving below is the error, and vice versa.
        wrong += muStd > 0.0 ? below : (muStd < 0.0 ? above : 0.0);
        decidedEarly += below + above;
        profile.dataFraction += (below + above) * pi;
        mass.swap(next);
        survive = 0.0;
        for (double m : mass)
            survive += m;
        previous = pi;
    }
    profile.error = muStd == 0.0 ? 0.5 * decidedEarly : wrong;
    return profile;
}

namespace {
constexpr double kReach = 12.0;
constexpr double kStep = 0.1;
} // namespace

AustereErrorTable::AustereErrorTable(std::int64_t populationSize, std::int64_t batch, double epsilon, int cells)
    : m_populationSize(static_cast<double>(populationSize))
{
    // At exactly μ_std = 0 the wrong-way error is undefined; its one-sided limit is what the
    // integral needs, so the grid starts just off zero.
    const int points = static_cast<int>(std::lround(kReach / kStep)) + 1;
    m_table.resize(static_cast<std::size_t>(points));
    for (int i = 0; i < points; ++i)
        m_table[static_cast<std::size_t>(i)] = austereProfile(std::max(i * kStep, 1e-9), populationSize, batch, epsilon, cells).error;
}

double AustereErrorTable::error(double muStd) const
{
    const double position = std::abs(muStd) / kStep;
    const auto last = static_cast<double>(m_table.size() - 1);
    if (position >= last)
        return 0.0;
    const auto i = static_cast<std::size_t>(position);
    const double f = position - static_cast<double>(i);
    return (1.0 - f) * m_table[i] + f * m_table[i + 1];
}

double AustereErrorTable::acceptanceError(double meanLambda, double sdLambda, double logPriorProposalRatio) const
{
    if (!(sdLambda > 0.0))
        return 0.0; // every look is exact
    const double delta = meanLambda + logPriorProposalRatio;
    const double exact = std::min(1.0, std::exp(delta));
    // μ_std(u) = (mean Λ − ψ(u)) √(N − 1) / σ_Λ with ψ(u) = log u − log prior/proposal ratio.
    const double scale = std::sqrt(m_populationSize - 1.0) / sdLambda;
    // Eq. 21: ∫_{P_a}^1 E du − ∫_0^{P_a} E du, by composite Gauss–Legendre in log u, the
    // variable in which E is concentrated.
    auto integrate = [&](double logLo, double logHi) {
        if (logHi <= logLo)
            return 0.0;
        const int panels = 400;
        const double h = (logHi - logLo) / panels;
        double total = 0.0;
        for (int p = 0; p < panels; ++p)
            total += boost::math::quadrature::gauss<double, 7>::integrate(
                [&](double logU) { return error((delta - logU) * scale) * std::exp(logU); }, logLo + p * h,
                logLo + (p + 1) * h);
        return total;
    };
    const double logExact = std::log(exact);
    // Below u = e^{Δ − 12/scale}, μ_std > 12 and E vanishes.
    return integrate(logExact, 0.0) - integrate(std::min(logExact, delta - kReach / scale), logExact);
}

} // namespace core
