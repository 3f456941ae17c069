#include "core/experiment/inputs/laplace_fits.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/models/model_registry.h"

namespace core {

LaplaceFits::LaplaceFits(std::shared_ptr<const Model> model, std::size_t capacity)
    : m_model(std::move(model)), m_capacity(capacity)
{
    if (!m_model)
        throw std::invalid_argument("LaplaceFits needs a model");
    requireCapability(*m_model, ModelCapability::LaplaceFit, "LaplaceFits");
    if (capacity < 1)
        throw std::invalid_argument("LaplaceFits capacity must be at least 1; got 0");
}

std::shared_ptr<const TimedLaplaceFit> LaplaceFits::at(double temperature, std::stop_token stop)
{
    const std::lock_guard lock(m_build);
    const auto known = std::find_if(m_fits.begin(), m_fits.end(), [&](const auto &entry) { return entry.first == temperature; });
    if (known != m_fits.end())
        return known->second;
    const auto started = std::chrono::steady_clock::now();
    auto fit = std::make_shared<TimedLaplaceFit>();
    fit->temperature = temperature;
    fit->approximation = m_model->laplaceFit(temperature, 40, std::move(stop));
    fit->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (m_fits.size() == m_capacity)
        m_fits.pop_front();
    m_fits.emplace_back(temperature, fit);
    return fit;
}

GaussianApproximation fitForForecast(const Model &model, const std::shared_ptr<const TimedLaplaceFit> &given,
                                     LaplaceFits *kept, double temperature, std::stop_token stop)
{
    if (given)
        return given->approximation;
    if (kept)
        return kept->at(temperature, stop)->approximation;
    return model.laplaceFit(temperature, 40, stop);
}

} // namespace core
