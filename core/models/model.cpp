#include "core/models/model.h"

#include <algorithm>
#include <array>

namespace core {

double Model::logLikelihoodRatioSum(const Vector &from, const Vector &to) const
{
    // 4096 doubles stay in L1/L2 between the evaluation and the sum.
    std::array<double, 4096> chunk{};
    const DataIndex n = dataSize();
    double total = 0.0;
    for (DataIndex first = 0; first < n;) {
        const auto count = static_cast<std::size_t>(std::min<DataIndex>(4096, n - first));
        std::span<double> out(chunk.data(), count);
        logLikelihoodRatiosRange(from, to, first, out);
        total += Eigen::Map<const Eigen::ArrayXd>(out.data(), static_cast<Eigen::Index>(count)).sum();
        first += static_cast<DataIndex>(count);
    }
    return total;
}

} // namespace core
