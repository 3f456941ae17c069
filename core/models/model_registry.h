#pragma once
/// The built-in models, one row each: the name a model reports (Model::name()), what it is
/// called in messages, the capabilities it offers (model_capabilities.h) and, for each one it
/// lacks, why. The datasets name their model (dataset_registry.h); the run checks a method's
/// needs against this row before any data are made, and against the model itself
/// (Model::capabilities()) once it exists.
#include <string>
#include <string_view>
#include <vector>

#include "core/models/model_capabilities.h"

namespace core {

class Model;

struct ModelEntry {
    std::string_view name;  ///< Model::name(): "gmm", "gaussian-mean", "logreg", "probit", …
    std::string_view label; ///< in messages: "the Gaussian mixture"
    CapabilitySet capabilities;
    /// Binary labels: test accuracy, class names, the logistic settings (prior sd, bias).
    bool classifier;
    /// Why a capability is missing, for each one the model lacks.
    struct Lack {
        ModelCapability capability;
        std::string_view reason;
    };
    std::vector<Lack> lacks;

    /// The reason the model lacks `capability` (empty when it has it).
    std::string_view whyItLacks(ModelCapability capability) const;
};

/// Every built-in model.
const std::vector<ModelEntry> &modelTable();
/// The row of the model named `name` (Model::name()), or null.
const ModelEntry *findModel(std::string_view name);
/// The row of `name`; throws std::logic_error when the table has none (a dataset naming a
/// model that is not in it).
const ModelEntry &modelEntry(std::string_view name);

/// For code that holds a model and needs one capability of it (a proposal's Laplace fit, FlyMC's
/// bounds, control variates' proxies): throws std::invalid_argument naming `who`, the
/// capability, the model and, for a model of the table, why it lacks it.
void requireCapability(const Model &model, ModelCapability capability, const std::string &who);

} // namespace core
