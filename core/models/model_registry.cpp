#include "core/models/model_registry.h"

#include <stdexcept>
#include <string>

#include "core/models/model.h"

namespace core {

std::string_view ModelEntry::whyItLacks(ModelCapability capability) const
{
    for (const Lack &lack : lacks)
        if (lack.capability == capability)
            return lack.reason;
    return capabilities.has(capability) ? std::string_view() : std::string_view("it does not implement it");
}

const std::vector<ModelEntry> &modelTable()
{
    using enum ModelCapability;
    static const std::vector<ModelEntry> table = {
        {"gmm",
         "the Gaussian mixture",
         {Gradient, TaylorProxies},
         false,
         {{TaylorRemainderBound, "its derivatives grow without bound in theta"},
          {PointLipschitz, "a Gaussian's log-likelihood is not Lipschitz in its mean"},
          {CollapsibleLowerBound, "no lower bound of a mixture's likelihood has a product that collapses"},
          {LaplaceFit, "the Laplace fit is written for logistic regression"}}},
        {"gaussian-mean",
         "the Gaussian mean",
         {Gradient},
         false,
         {{TaylorProxies, "its log-likelihood is quadratic, so its second-order proxy is exact and leaves nothing to "
                          "estimate"},
          {TaylorRemainderBound, "it has no Taylor proxies"},
          {PointLipschitz, "a Gaussian's log-likelihood is not Lipschitz in its mean"},
          {CollapsibleLowerBound, "a Gaussian likelihood has no lower bound bounded away from 0"},
          {LaplaceFit, "the Laplace fit is written for logistic regression"}}},
        {"logreg",
         "logistic regression",
         {Gradient, TaylorProxies, TaylorRemainderBound, PointLipschitz, CollapsibleLowerBound, LaplaceFit},
         true,
         {}},
    };
    return table;
}

const ModelEntry *findModel(std::string_view name)
{
    for (const ModelEntry &entry : modelTable())
        if (entry.name == name)
            return &entry;
    return nullptr;
}

const ModelEntry &modelEntry(std::string_view name)
{
    if (const ModelEntry *entry = findModel(name))
        return *entry;
    throw std::logic_error("the model table has no model '" + std::string(name) + "'");
}

void requireCapability(const Model &model, ModelCapability capability, const std::string &who)
{
    if (model.capabilities().has(capability))
        return;
    std::string message = who;
    message += " needs ";
    message += capabilityName(capability);
    message += "; the model '";
    message += model.name();
    message += "' has none";
    if (const ModelEntry *entry = findModel(model.name())) {
        message += ": ";
        message += entry->whyItLacks(capability);
    }
    throw std::invalid_argument(message);
}

} // namespace core
