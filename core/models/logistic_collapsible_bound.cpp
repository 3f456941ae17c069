// Logistic regression's collapsible lower bound: Jaakkola & Jordan's quadratic bound on log σ
// ("Bayesian parameter estimation via variational methods", Statistics and Computing, 2000,
// Sec. 3), as Firefly Monte Carlo uses it (Maclaurin & Adams 2014, Sec. 3.1).
#include "core/models/collapsible_bound.h"
#include "core/models/logistic_regression_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace core {
namespace {

// a(ξ) = tanh(ξ/2)/(4ξ) = (σ(ξ) − ½)/(2ξ): even in ξ, ⅛ at 0 (its series there, where the
// quotient loses its digits).
double jaakkolaJordanCurvature(double xi)
{
    const double x = std::abs(xi);
    if (x < 1e-4)
        return 0.125 - x * x / 96.0;
    return std::tanh(0.5 * x) / (4.0 * x);
}

// log B(u) for the bound tuned at ξ: log σ(u) ≥ log σ(ξ) + (u − ξ)/2 − a(ξ)(u² − ξ²), with
// equality at u = ±ξ.
double logBound(double u, double xi)
{
    return LogisticRegressionModel::logSigmoid(xi) + 0.5 * (u - xi) - jaakkolaJordanCurvature(xi) * (u * u - xi * xi);
}

/// Each point's bound tuned at ξ_i = y_i x̃_i·θ̂ (labels ±1, x̃ the row with the bias's 1), so
/// that Σ_i log B_i(θ) = const + ½ bᵀθ − θᵀAθ with b = Σ_i y_i x̃_i and A = Σ_i a(ξ_i) x̃_i x̃_iᵀ.
class JaakkolaJordanBound final : public CollapsibleLowerBound {
public:
    JaakkolaJordanBound(const LogisticRegressionModel &model, const Vector &anchor) : m_model(model)
    {
        const ClassificationData &data = model.data();
        const auto n = static_cast<std::size_t>(data.size());
        const int features = data.featureCount();
        const int d = model.dimension();
        const bool bias = model.options().bias;
        m_xi.resize(n);
        m_b = Vector::Zero(d);
        m_a = Eigen::MatrixXd::Zero(d, d);
        // One pass: ξ_i and the sums b and A (blocks of rows widened to double,
        // A += Xᵀ diag(a) X).
        constexpr std::size_t kBlock = 256;
        Eigen::MatrixXd block(kBlock, d), weighted(kBlock, d);
        Eigen::VectorXd rowValues(features);
        for (std::size_t first = 0; first < n; first += kBlock) {
            const std::size_t rows = std::min(kBlock, n - first);
            for (std::size_t r = 0; r < rows; ++r) {
                const auto i = static_cast<Eigen::Index>(first + r);
                const auto row = static_cast<Eigen::Index>(r);
                model.copyRowAsRead(static_cast<DataIndex>(i), rowValues.data());
                block.row(row).head(features) = rowValues.transpose();
                if (bias)
                    block(row, features) = 1.0;
                const double sign = data.labels[first + r] ? 1.0 : -1.0;
                const float xi = static_cast<float>(sign * block.row(row).dot(anchor));
                m_xi[first + r] = xi;
                m_b += sign * block.row(row).transpose();
                weighted.row(row) = jaakkolaJordanCurvature(xi) * block.row(row);
            }
            const auto r = static_cast<Eigen::Index>(rows);
            m_a.noalias() += block.topRows(r).transpose() * weighted.topRows(r);
        }
    }

    double logProduct(const Vector &theta) const override
    {
        // Plain loops: nothing allocated (A·θ would be a temporary).
        double quadratic = 0.0;
        const Eigen::Index d = theta.size();
        for (Eigen::Index j = 0; j < d; ++j) {
            double column = 0.0;
            for (Eigen::Index k = 0; k < d; ++k)
                column += m_a(k, j) * theta[k];
            quadratic += column * theta[j];
        }
        return 0.5 * m_b.dot(theta) - quadratic;
    }

    double logGap(DataIndex i, const Vector &theta) const override
    {
        // The margin from the same values as the sums above and as the likelihood's kernels
        // (pixel bytes as k·(1/255) on images): a bound built from the float k/255 would
        // differ from these in the eighth digit, and the chain would target a posterior that
        // far from every other method's.
        const double margin = m_model.marginAsRead(i, theta);
        const double u = m_model.data().labels[static_cast<std::size_t>(i)] ? margin : -margin;
        const double xi = m_xi[static_cast<std::size_t>(i)];
        return std::max(0.0, LogisticRegressionModel::logSigmoid(u) - logBound(u, xi));
    }

private:
    const LogisticRegressionModel &m_model;
    std::vector<float> m_xi; ///< ξ_i, as stored (the sums use the same)
    Vector m_b;
    Eigen::MatrixXd m_a;
};

} // namespace

std::shared_ptr<const CollapsibleLowerBound> LogisticRegressionModel::collapsibleLowerBound(const Vector &anchor) const
{
    checkCompatible(anchor, *m_data);
    return std::make_shared<JaakkolaJordanBound>(*this, anchor);
}

} // namespace core
