#include "core/acceptance/batch_prediction.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>

namespace core {
namespace {

constexpr int kQuantiles = 400;

// The mean batch when b₀ = K χ²_d / d, over kQuantiles equally likely values of χ²_d / d.
class BatchLaw {
public:
    explicit BatchLaw(const BatchPredictionInputs &in)
        : m_in(in), m_n(std::max(in.population, 1.0)), m_floor(std::min(std::max(in.firstBatch, 1.0), m_n)),
          m_growth(std::max(in.batchGrowth, 1.0))
    {
        const boost::math::chi_squared chi(std::max(in.dimension, 1));
        m_spread.reserve(kQuantiles);
        for (int k = 0; k < kQuantiles; ++k)
            m_spread.push_back(boost::math::quantile(chi, (k + 0.5) / kQuantiles) / std::max(in.dimension, 1));
    }

    double meanBatch(double k) const
    {
        double sum = 0.0;
        for (const double v : m_spread) {
            const double b0 = k * v;
            double b = m_in.finitePopulationCorrection ? b0 / (1.0 + b0 / m_n) : b0;
            b = b <= m_floor ? m_floor : m_floor + m_growth * std::ceil((b - m_floor) / m_growth);
            sum += std::min(b, m_n);
        }
        return sum / static_cast<double>(m_spread.size());
    }

    // The K whose mean batch is `batch` (by bisection on log K: the mean grows with K).
    double scaleFor(double batch) const
    {
        double low = 1e-12, high = 1e18;
        for (int step = 0; step < 200; ++step) {
            const double mid = std::sqrt(low * high);
            (meanBatch(mid) < batch ? low : high) = mid;
        }
        return std::sqrt(low * high);
    }

    double floor() const { return m_floor; }
    double population() const { return m_n; }

private:
    BatchPredictionInputs m_in;
    double m_n, m_floor, m_growth;
    std::vector<double> m_spread;
};

} // namespace

double predictedMeanBatch(const BatchPredictionInputs &in)
{
    const BatchLaw law(in);
    const double measured = std::clamp(in.meanBatch, law.floor(), law.population());
    const double ratio = in.fromTemperature / in.toTemperature;
    const double k = law.scaleFor(measured) * (in.stepFollowsTemperature ? ratio : ratio * ratio);
    return std::clamp(law.meanBatch(k), law.floor(), law.population());
}

} // namespace core
