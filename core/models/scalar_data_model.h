#pragma once
/// The base of the models whose data are one number a row (the Gaussian mean of Seita et al.
/// Sec. 6.1's worst case, and the Gaussian mixture of their Sec. 6.1): it owns and checks the
/// data, and serves the ratios of a drawn batch and of a range of rows through one in-place
/// transform, so that each model writes its log-likelihood ratio once.
#include <span>
#include <string>

#include <Eigen/Core>

#include "core/models/model.h"

namespace core {

class ScalarDataModel : public Model {
public:
    DataIndex dataSize() const override { return static_cast<DataIndex>(m_data.size()); }
    /// Gathers the drawn rows' x into `out`, then ratiosInPlace.
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override;
    /// Copies rows [first, first + out.size()) into `out`, then ratiosInPlace.
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override;

    const Eigen::VectorXd &data() const { return m_data; }

protected:
    /// Throws std::invalid_argument, naming `modelName`, for empty data or non-finite values.
    ScalarDataModel(Eigen::VectorXd data, const std::string &modelName);

    /// Replaces each x in `values` by l(x) = log p(x | to) − log p(x | from). No allocation.
    virtual void ratiosInPlace(const Vector &from, const Vector &to, std::span<double> values) const = 0;

    Eigen::VectorXd m_data;
};

} // namespace core
