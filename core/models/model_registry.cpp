#include "core/models/model_registry.h"

#include <algorithm>
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
          {GradientLipschitz, "no Lipschitz constants of its gradient are derived here"},
          {PointLipschitz, "a Gaussian's log-likelihood is not Lipschitz in its mean"},
          {CollapsibleLowerBound, "no lower bound of a mixture's likelihood has a product that collapses"},
          {LaplaceFit, "its posterior has two modes along a ridge, which no single Gaussian approximates"},
          {ResidualRange, "its derivatives grow without bound in theta"}}},
        {"gaussian-mean",
         "the Gaussian mean",
         {Gradient, GradientLipschitz},
         false,
         {{TaylorProxies, "its log-likelihood is quadratic, so its second-order proxy is exact and leaves nothing to "
                          "estimate"},
          {TaylorRemainderBound, "it has no Taylor proxies"},
          {PointLipschitz, "a Gaussian's log-likelihood is not Lipschitz in its mean"},
          {CollapsibleLowerBound, "a Gaussian likelihood has no lower bound bounded away from 0"},
          {LaplaceFit, "no Laplace fit is written for it: its posterior is Gaussian already, and the adaptive "
                       "proposals learn it in the burn-in"},
          {ResidualRange, "it has no Taylor proxies"}}},
        {"logreg",
         "logistic regression",
         {Gradient, TaylorProxies, TaylorRemainderBound, PointLipschitz, CollapsibleLowerBound, LaplaceFit, ResidualRange,
          GradientLipschitz},
         true,
         {}},
        // The generalised linear models (core/models/glm): what their derivative bounds allow
        // (glm_family.h; tst_glm_model checks each row against its family's bounds).
        {"probit",
         "probit regression",
         {Gradient, TaylorProxies, TaylorRemainderBound, LaplaceFit, ResidualRange},
         false,
         {{PointLipschitz, "the slope of -log Phi, the inverse Mills ratio, grows without bound on misclassified points"},
          {CollapsibleLowerBound, "no lower bound of Phi with a collapsible product is derived here"},
          {GradientLipschitz, "no Lipschitz constants of its gradient are derived here"}}},
        // Poisson's e^z has no global bound, but near the anchor it has one: the residuals' range
        // for a move (ResidualRange) bounds e^ξ by e^{max_i ẑ_i + max|x̃|·‖θ − θ̂‖₁}.
        {"poisson",
         "Poisson regression",
         {Gradient, TaylorProxies, LaplaceFit, ResidualRange},
         false,
         {{TaylorRemainderBound, "every derivative of its log-likelihood contains exp(x'theta), which has no bound"},
          {PointLipschitz, "its log-likelihood's slope y - exp(x'theta) has no bound"},
          {CollapsibleLowerBound, "no lower bound of a Poisson likelihood with a collapsible product is derived here"},
          {GradientLipschitz, "its gradient's slope exp(x'theta) has no bound"}}},
        {"linear",
         "linear regression",
         {Gradient, TaylorProxies, TaylorRemainderBound, LaplaceFit, ResidualRange},
         false,
         {{PointLipschitz, "a Gaussian's log-likelihood is not Lipschitz: its slope (y - x'theta)/sd^2 grows without bound"},
          {CollapsibleLowerBound, "a Gaussian likelihood has no lower bound bounded away from 0"},
          {GradientLipschitz, "no Lipschitz constants of its gradient are derived here"}}},
        {"robust-linear",
         "robust linear regression",
         {Gradient, TaylorProxies, TaylorRemainderBound, PointLipschitz, LaplaceFit, ResidualRange},
         false,
         {{CollapsibleLowerBound, "no lower bound of a Student-t likelihood with a collapsible product is derived here"},
          {GradientLipschitz, "no Lipschitz constants of its gradient are derived here"}}},
    };
    return table;
}

const ModelEntry *findModel(std::string_view name)
{
    const auto &table = modelTable();
    const auto found = std::find_if(table.begin(), table.end(), [name](const ModelEntry &row) { return row.name == name; });
    return found != table.end() ? &*found : nullptr;
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
    if (const std::string why = model.whyItLacks(capability); !why.empty()) {
        message += ": ";
        message += why;
    }
    throw std::invalid_argument(message);
}

} // namespace core
