#include "core/models/scalar_data_model.h"

#include <stdexcept>

namespace core {

ScalarDataModel::ScalarDataModel(Eigen::VectorXd data, const std::string &modelName) : m_data(std::move(data))
{
    if (m_data.size() < 1)
        throw std::invalid_argument(modelName + " needs at least one data point");
    if (!m_data.allFinite())
        throw std::invalid_argument(modelName + " data contain NaN or infinite values");
}

void ScalarDataModel::logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                                          std::span<double> out) const
{
    const double *x = m_data.data();
    for (std::size_t k = 0; k < rows.size(); ++k)
        out[k] = x[rows[k]];
    ratiosInPlace(from, to, out.first(rows.size()));
}

void ScalarDataModel::logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                               std::span<double> out) const
{
    Eigen::Map<Eigen::VectorXd>(out.data(), static_cast<Eigen::Index>(out.size())) =
        m_data.segment(first, static_cast<Eigen::Index>(out.size()));
    ratiosInPlace(from, to, out);
}

} // namespace core
