#include "core/acceptance/minibatch_accumulator.h"

#include <algorithm>

namespace core {

void MinibatchAccumulator::begin(const TestProblem &problem, bool withReplacement)
{
    m_problem = &problem;
    m_withReplacement = withReplacement;
    m_population = problem.model.dataSize();
    if (m_sampler.populationSize() != m_population) {
        m_sampler.reset(m_population);
        // Grows with the largest batch (extend()), not N entries up front: at N = 3.75e8 that
        // would be 3 GB for the few hundred values a test keeps.
        m_lambda.assign(std::min<std::size_t>(static_cast<std::size_t>(m_population), 4096), 0.0);
    }
    m_sampler.beginTest();
    m_scale = static_cast<double>(m_population) / problem.temperature;
    m_size = 0;
    m_looks = 0;
    m_moments = {};
}

DataIndex MinibatchAccumulator::extend(DataIndex count, Rng &rng)
{
    const DataIndex before = m_size;
    const auto rows = m_withReplacement ? m_sampler.drawMoreWithReplacement(count, rng) : m_sampler.drawMore(count, rng);
    const auto added = static_cast<Eigen::Index>(rows.size());
    if (added == 0)
        return 0;
    if (m_lambda.size() < static_cast<std::size_t>(before) + rows.size()) // doubles: a few growths, then none
        m_lambda.resize(std::min<std::size_t>(static_cast<std::size_t>(m_population),
                                              std::max(static_cast<std::size_t>(before) + rows.size(), 2 * m_lambda.size())));
    std::span<double> out(m_lambda.data() + before, rows.size());
    m_problem->model.logLikelihoodRatios(m_problem->current, m_problem->proposed, rows, out);
    Eigen::Map<Eigen::ArrayXd> chunk(out.data(), added);
    chunk *= m_scale;
    m_moments.merge(chunk);
    m_size = before + static_cast<DataIndex>(added);
    ++m_looks;
    return static_cast<DataIndex>(added);
}

double MinibatchAccumulator::finitePopulationFactor() const
{
    if (m_population <= 1)
        return 0.0;
    return static_cast<double>(m_population - m_size) / static_cast<double>(m_population - 1);
}

} // namespace core
