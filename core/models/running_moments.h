#pragma once
/// Mean and sum of squared deviations of a stream of values that arrives in chunks, merged
/// with Chan, Golub and LeVeque's pairwise update in double precision: stable where running
/// sums of x and x² are not.
#include <Eigen/Core>

namespace core {

struct RunningMoments {
    double count = 0.0;
    double mean = 0.0;
    double sumSquares = 0.0; ///< Σ (x − mean)²

    void merge(const Eigen::Ref<const Eigen::ArrayXd> &chunk)
    {
        if (chunk.size() == 0)
            return;
        const auto added = static_cast<double>(chunk.size());
        const double chunkMean = chunk.mean();
        const double shift = chunkMean - mean;
        const double total = count + added;
        sumSquares += (chunk - chunkMean).square().sum() + shift * shift * count * added / total;
        mean += shift * added / total;
        count = total;
    }
};

} // namespace core
