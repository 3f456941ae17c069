#pragma once
/// Turns a RunConfig's dataset name into data, a model and, where the posterior is known,
/// the reference it is measured against.
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

#include "core/data/feature_scaling.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/settings/run_config.h"
#include "core/data/csv_dataset.h"
#include "core/data/regression_data.h"
#include "core/models/glm/glm_family.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/model.h"

namespace core {

struct DatasetInstance {
    std::string name;
    std::string description;                 ///< one line for headers and summaries
    std::shared_ptr<const Model> model;
    /// The binned true posterior (gmm only; null for other datasets or when not requested).
    std::shared_ptr<const GaussianMixturePosterior> gmmPosterior;
    /// The mixture's points, shared with its model (gmm only, null otherwise): what the heat
    /// map, the preview and the posterior references are computed from.
    std::shared_ptr<const Eigen::VectorXd> mixturePoints;
    /// Logistic regression only: the model with its accuracy functions, and the test set.
    std::shared_ptr<const LogisticRegressionModel> classifier;
    std::shared_ptr<const ClassificationData> testSet;
    bool augmented = false;
    /// logreg with standardize: the training rows' feature means and sds; empty otherwise.
    FeatureScaling scaling;
    /// Seconds spent generating or loading the data (reported apart from the sampling).
    double seconds = 0.0;
    /// Bytes the training and test rows take in memory (features and labels).
    std::size_t bytes = 0;
};

/// The settings makeDataset reads: configurations with equal DataSettings get the same data
/// and model, whatever their kernel or temperature. Fields a dataset does not read are left at
/// their defaults, so that they do not tell equal data apart.
struct DataSettings {
    std::string dataset;
    std::int64_t nData = 0;     ///< generated data (gmm, worst-case, tall-logreg)
    std::uint64_t dataSeed = 0; ///< generated data (gmm, worst-case, tall-logreg)
    int dimension = 0;          ///< tall-logreg, tall-glm
    /// logreg; for tall-logreg only the model options and the test size; for tall-glm only the prior.
    LogisticDataSpec logreg;
    GlmFamilySpec glm;          ///< tall-glm, glm
    std::string responseColumn; ///< glm

    bool operator==(const DataSettings &) const = default;
};

/// The DataSettings of `config`.
DataSettings dataSettings(const RunConfig &config);

/// What a dataset's loader is given beside the settings: whether to build the mixture's
/// reference posterior, a progress callback in [0, 1] and a stop request.
struct LoadContext {
    bool withPosterior = false;
    std::function<void(double)> progress;
    std::stop_token stop;
};

/// Whether makeDataset() has a loader for the dataset named `name` (every registry row must).
bool hasDatasetLoader(std::string_view name);

/// glm: the rows of the user's file (config.logreg.data, read as its format, delimiter and
/// missing-value settings say) with the response of config.responseColumn, each checked by
/// the model config.glm chooses (regression_file.h); not standardised. `columns` receives a
/// CSV's columns. What makeDataset() reads for "glm", and what the app's data box checks.
/// Throws std::invalid_argument without a file or for bad settings, std::runtime_error naming
/// the file for what it holds.
GlmData readFileGlmRows(const RunConfig &config, std::vector<CsvColumnSummary> *columns = nullptr);

/// Generates or loads the data of `config.dataset` and builds its model. withPosterior also
/// builds the gmm reference posterior at `config.temperature` (~1 s). Throws
/// std::invalid_argument for an unknown dataset or bad settings, std::runtime_error for
/// unreadable data files (naming the file).
DatasetInstance makeDataset(const RunConfig &config, bool withPosterior,
                            const std::function<void(double)> &progress = {}, std::stop_token stop = {});

} // namespace core
