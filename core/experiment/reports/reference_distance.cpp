#include "core/experiment/reports/reference_distance.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace core {

std::optional<std::size_t> fullDataReferenceIndex(const RunOutcome &outcome)
{
    const auto &methods = outcome.request.methods;
    for (std::size_t index = 0; index < methods.size(); ++index)
        if (methods[index] == TestMethod::Metropolis || methods[index] == TestMethod::Barker)
            return index;
    return std::nullopt;
}

ComponentMoments pooledMoments(const RunOutcome &outcome, std::size_t methodIndex)
{
    ComponentMoments pooled;
    std::vector<const ComponentMoments *> parts;
    for (const ChainReport &chain : outcome.chains)
        if (static_cast<std::size_t>(outcome.request.methodIndexOf(chain.channel)) == methodIndex && chain.moments.rows > 0)
            parts.push_back(&chain.moments);
    if (parts.empty())
        return pooled;
    const std::size_t components = parts.front()->mean.size();
    pooled.mean.assign(components, 0.0);
    pooled.sd.assign(components, 0.0);
    for (std::size_t k = 0; k < components; ++k) {
        double meanSum = 0.0, secondMoment = 0.0;
        for (const ComponentMoments *part : parts) {
            meanSum += part->mean[k];
            secondMoment += part->sd[k] * part->sd[k] + part->mean[k] * part->mean[k];
        }
        const double count = static_cast<double>(parts.size());
        pooled.mean[k] = meanSum / count;
        pooled.sd[k] = std::sqrt(std::max(0.0, secondMoment / count - pooled.mean[k] * pooled.mean[k]));
    }
    for (const ComponentMoments *part : parts)
        pooled.rows += part->rows;
    return pooled;
}

std::optional<AgreementSummary> agreementWithReference(const RunOutcome &outcome, std::size_t methodIndex,
                                                       std::size_t referenceIndex)
{
    const ComponentMoments ref = pooledMoments(outcome, referenceIndex);
    const ComponentMoments own = pooledMoments(outcome, methodIndex);
    if (ref.rows == 0 || own.rows == 0 || own.mean.size() != ref.mean.size())
        return std::nullopt;
    std::vector<ParameterAgreement> agreements;
    for (std::size_t k = 0; k < ref.mean.size(); ++k)
        if (ref.sd[k] > 0.0)
            agreements.push_back(compareWithReference(ParameterSummary{.mean = own.mean[k], .sd = own.sd[k]},
                                                      ParameterSummary{.mean = ref.mean[k], .sd = ref.sd[k]}));
    if (agreements.empty())
        return std::nullopt;
    return summarizeAgreement(agreements);
}

} // namespace core
