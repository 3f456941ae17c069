#pragma once
/// Turns a RunConfig's dataset name into data, a model and, where the posterior is known,
/// the reference it is measured against.
#include <memory>
#include <string>

#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/run_config.h"
#include "core/models/model.h"

namespace core {

struct DatasetInstance {
    std::string name;
    std::string description;                 ///< one line for headers and summaries
    std::shared_ptr<const Model> model;
    /// The binned true posterior (gmm only; null for other datasets or when not requested).
    std::shared_ptr<const GaussianMixturePosterior> gmmPosterior;
};

/// Generates the data of `config.dataset` from `config.dataSeed` and builds its model.
/// withPosterior also builds the gmm reference posterior at `config.temperature` (~1 s).
/// Throws std::invalid_argument for an unknown dataset.
DatasetInstance makeDataset(const RunConfig &config, bool withPosterior);

} // namespace core
