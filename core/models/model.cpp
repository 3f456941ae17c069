#include "core/models/model.h"
#include "core/models/gaussian_approximation.h"
#include "core/models/model_registry.h"
#include "core/models/running_moments.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace core {

std::shared_ptr<const void> Model::announceFullPass(const std::string &, int) const
{
    return {};
}

std::shared_ptr<const TaylorProxies> Model::taylorProxies(const Vector &, int) const
{
    return nullptr;
}

std::shared_ptr<const CollapsibleLowerBound> Model::collapsibleLowerBound(const Vector &) const
{
    return nullptr;
}

GaussianApproximation Model::laplaceFit(double, int, std::stop_token) const
{
    throw std::logic_error("the model '" + name() + "' has no Laplace fit");
}

CapabilitySet Model::capabilities() const
{
    return hasGradient() ? CapabilitySet{ModelCapability::Gradient} : CapabilitySet{};
}

std::string Model::whyItLacks(ModelCapability capability) const
{
    const ModelEntry *entry = findModel(name());
    return entry ? std::string(entry->whyItLacks(capability)) : std::string();
}

namespace {

// Visits l_i over the whole dataset in chunks of 4096, which stay in L1/L2 between the
// evaluation and the reduction; allocates nothing.
template <typename Reduce>
void forEachChunk(const Model &model, const Vector &from, const Vector &to, Reduce &&reduce)
{
    std::array<double, 4096> chunk{};
    const DataIndex n = model.dataSize();
    for (DataIndex first = 0; first < n;) {
        const auto count = static_cast<std::size_t>(std::min<DataIndex>(4096, n - first));
        std::span<double> out(chunk.data(), count);
        model.logLikelihoodRatiosRange(from, to, first, out);
        reduce(Eigen::Map<const Eigen::ArrayXd>(out.data(), static_cast<Eigen::Index>(count)));
        first += static_cast<DataIndex>(count);
    }
}

} // namespace

double Model::logLikelihoodRatioSum(const Vector &from, const Vector &to) const
{
    double total = 0.0;
    forEachChunk(*this, from, to, [&](const Eigen::Map<const Eigen::ArrayXd> &values) { total += values.sum(); });
    return total;
}

std::pair<double, double> Model::logLikelihoodRatioMoments(const Vector &from, const Vector &to) const
{
    const auto notice = announceFullPass("the log-likelihood ratios' mean and sd (a design's pilot)");
    RunningMoments moments;
    forEachChunk(*this, from, to, [&](const Eigen::Map<const Eigen::ArrayXd> &values) { moments.merge(values); });
    return {moments.mean, moments.count > 0.0 ? std::sqrt(moments.sumSquares / moments.count) : 0.0};
}

double Model::maxAbsLogLikelihoodRatio(const Vector &from, const Vector &to) const
{
    const auto notice = announceFullPass("the largest |log-likelihood ratio| (MHSubLhd's range without a bound)");
    double largest = 0.0;
    forEachChunk(*this, from, to, [&](const Eigen::Map<const Eigen::ArrayXd> &values) {
        largest = std::max(largest, values.abs().maxCoeff());
    });
    return largest;
}

void Model::gradLogPrior(const Vector &, Vector &) const
{
    throw std::logic_error("the model '" + name() + "' has no gradient");
}

void Model::sumGradLogLikelihood(const Vector &, std::span<const DataIndex>, Vector &) const
{
    throw std::logic_error("the model '" + name() + "' has no gradient");
}

const PointWeights &Model::lipschitzWeights() const
{
    return m_lipschitzWeights.get([this] {
        auto constants = pointLipschitzConstants();
        if (!constants) {
            requireCapability(*this, ModelCapability::PointLipschitz, "TunaMH's minibatch"); // names why
            throw std::logic_error("'" + name() + "' offers per-point Lipschitz constants but made none");
        }
        return std::move(*constants);
    });
}

} // namespace core
