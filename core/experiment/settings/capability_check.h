#pragma once
/// What a run asks of its model, and the one place that refuses a run whose model lacks it.
///
/// A run's needs come from its method's row (method_registry.h), its control variates and its
/// proposal. They are checked twice: against the dataset's model row before anything is made
/// (validate()), and against the model itself once it exists, which is what a model from a
/// plugin, absent from the table, is checked by.
#include <string>
#include <utility>
#include <vector>

#include "core/models/model_capabilities.h"

namespace core {

class Model;
struct RunConfig;

struct CapabilityNeed {
    ModelCapability capability;
    /// What needs it, as a setting and its value (validation's messages start with the setting;
    /// the CLI adds "--"): "method smh", "control-variates taylor2", "proposal laplace-cn",
    /// "control-variates taylor1 with sublhd".
    std::string who;
    /// Why, when the need is not the method's own kind of bound (empty otherwise).
    std::string why;
    /// What to do instead, when it does not depend on the model: "use --control-variates none".
    /// A method's own needs leave it empty: the refusal then names the methods the model can run.
    std::string remedy;
};

/// What the model of a run offers before its data are made: its row of the model table
/// (model_registry.h), or what a model plugin declares (the plugin is loaded to ask). The front
/// ends grey out and explain what it lacks from this.
struct ModelOffer {
    /// In refusals: "'tall-glm' (probit regression)", "the model plugin 'cloglog'".
    std::string subject;
    /// In tooltips: "probit regression", "the model plugin 'cloglog'".
    std::string label;
    CapabilitySet capabilities;
    /// Why it lacks each capability it lacks.
    std::vector<std::pair<ModelCapability, std::string>> lacks;

    /// The reason it lacks `capability` (empty when it has it).
    std::string whyItLacks(ModelCapability capability) const;
};
/// Throws std::invalid_argument for an unknown dataset or model, or a plugin that cannot be used.
ModelOffer modelOffer(const RunConfig &config);

/// Every capability `config` needs of its model, each with what needs it.
std::vector<CapabilityNeed> capabilityNeeds(const RunConfig &config);

/// Throws std::invalid_argument for the first need that the model of config.dataset lacks: the
/// message names what needs it, the capability, the datasets whose models have it and why this
/// one has not.
void requireModelCapabilities(const RunConfig &config);
/// The same against a model that exists (Model::capabilities(), through requireCapability of
/// model_registry.h).
void requireModelCapabilities(const RunConfig &config, const Model &model);

} // namespace core
