#include "core/experiment/settings/capability_check.h"

#include <stdexcept>

#include "core/experiment/settings/dataset_registry.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/prose.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/glm/glm_family.h"
#include "core/models/model.h"
#include "core/models/model_registry.h"
#include "core/models/plugin/plugin_family.h"

namespace core {
namespace {

// "which logreg and tall-logreg have" for the built-in datasets whose model offers `capability`;
// the datasets whose model --model chooses are named together, with the models that offer it
// ("tall-glm or glm (with --model probit or robust-linear)").
std::string datasetsWith(ModelCapability capability)
{
    std::vector<std::string> names;
    std::vector<std::string_view> chosenBy;
    for (const DatasetEntry &entry : datasetTable()) {
        if (modelIsChosen(entry))
            chosenBy.push_back(entry.name);
        else if (modelOf(entry).capabilities.has(capability))
            names.emplace_back(entry.name);
    }
    std::vector<std::string_view> models;
    for (const std::string &model : glmFamilyNames())
        if (modelEntry(model).capabilities.has(capability))
            models.push_back(model);
    if (!models.empty() && !chosenBy.empty())
        names.push_back(joinAsProse(chosenBy, "or") + " (with --model " + joinAsProse(models, "or") + ")");
    if (names.empty())
        return "which no built-in dataset's model has";
    return "which " + joinAsProse(std::vector<std::string_view>(names.begin(), names.end()), "and")
           + (names.size() == 1 ? " has" : " have");
}

// "the methods it runs with are minibatch, austere-c, … and naive-barker": those whose needs `offered` meets.
std::string methodsFor(CapabilitySet offered)
{
    std::vector<std::string_view> names;
    for (const MethodEntry &row : methodTable())
        if (row.needs.missingFrom(offered).empty())
            names.push_back(row.name);
    std::string text = "the methods it runs with are ";
    text += joinAsProse(names, "and");
    return text;
}

[[noreturn]] void refuse(const CapabilityNeed &need, const std::string &model, std::string_view reason,
                         const std::string &remedy)
{
    std::string message = need.who;
    message += " needs ";
    message += capabilityName(need.capability);
    if (!need.why.empty()) {
        message += " (";
        message += need.why;
        message += ")";
    }
    message += ", ";
    message += datasetsWith(need.capability);
    message += "; ";
    message += model;
    message += " has none";
    if (!reason.empty()) {
        message += ": ";
        message += reason;
    }
    if (!remedy.empty()) {
        message += "; ";
        message += remedy;
    }
    throw std::invalid_argument(message);
}

} // namespace

std::vector<CapabilityNeed> capabilityNeeds(const RunConfig &config)
{
    std::vector<CapabilityNeed> needs;
    const MethodEntry &row = methodRow(config.method);
    const int order = controlVariateOrder(config);
    if (order == 0 && !row.needsWithoutControlVariates.empty()) {
        const std::string who = "method " + std::string(row.name) + "+none";
        for (ModelCapability capability : row.needsWithoutControlVariates.members())
            needs.push_back({capability, who,
                             row.needs.has(capability) ? std::string() : std::string(row.whyWithoutControlVariates), {}});
    } else {
        for (ModelCapability capability : row.needs.members())
            needs.push_back({capability, "method " + std::string(row.name), {}, {}});
    }
    if (order > 0 && !row.needs.has(ModelCapability::TaylorProxies)) {
        // Each starts with the setting's name, as validation's messages do (the CLI adds "--").
        const std::string flag = "control-variates " + controlVariatesName(config.controlVariates);
        needs.push_back({ModelCapability::TaylorProxies, flag, {}, "use --control-variates none"});
        // MHSubLhd's concentration bound needs the residuals' range, which must come from the
        // Taylor remainder (Bardenet, Doucet & Holmes 2017, improved confidence sampler), never
        // from a pass over the data.
        if (config.method == TestMethod::SubLhd)
            needs.push_back({ModelCapability::ResidualRange, flag + " with " + std::string(row.name),
                             "its concentration bound takes the residuals' range from it",
                             "use --control-variates none, or control variates with minibatch or austere-c"});
    }
    const std::string proposal = "proposal " + proposalName(config.proposal);
    if (usesLaplaceFit(config.proposal))
        needs.push_back({ModelCapability::LaplaceFit, proposal, "it is built around the posterior's Laplace approximation",
                         "use --proposal adaptive or adaptive-langevin"});
    if (usesGradient(config.proposal))
        needs.push_back({ModelCapability::Gradient, proposal, {}, "use --proposal rw or adaptive"});
    return needs;
}

std::string ModelOffer::whyItLacks(ModelCapability capability) const
{
    for (const auto &[lacking, reason] : lacks)
        if (lacking == capability)
            return reason;
    return capabilities.has(capability) ? std::string() : std::string("it does not implement it");
}

ModelOffer modelOffer(const RunConfig &config)
{
    ModelOffer offer;
    // A plugin is not in the model table: its family says what it offers and why it lacks the rest.
    if (!config.glm.plugin.empty() && modelIsChosen(datasetEntry(config.dataset))) {
        const auto family = makeGlmFamily(config.glm);
        offer.subject = offer.label = "the model plugin '" + std::string(family->name()) + "'";
        offer.capabilities = declaredCapabilities(*family);
        for (ModelCapability capability : allCapabilities())
            if (!offer.capabilities.has(capability))
                offer.lacks.emplace_back(capability, family->whyItLacks(capability));
        return offer;
    }
    const ModelEntry &model = modelOf(config);
    offer.label = std::string(model.label);
    offer.subject = "'" + config.dataset + "' (" + offer.label + ")";
    offer.capabilities = model.capabilities;
    for (ModelCapability capability : allCapabilities())
        if (!model.capabilities.has(capability))
            offer.lacks.emplace_back(capability, std::string(model.whyItLacks(capability)));
    return offer;
}

void requireModelCapabilities(const RunConfig &config)
{
    const ModelOffer offer = modelOffer(config);
    for (const CapabilityNeed &need : capabilityNeeds(config))
        if (!offer.capabilities.has(need.capability))
            refuse(need, offer.subject, offer.whyItLacks(need.capability),
                   need.remedy.empty() ? methodsFor(offer.capabilities) : need.remedy);
}

void requireModelCapabilities(const RunConfig &config, const Model &model)
{
    for (const CapabilityNeed &need : capabilityNeeds(config))
        requireCapability(model, need.capability, need.who);
}

} // namespace core
