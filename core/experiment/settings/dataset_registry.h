#pragma once
/// The built-in datasets, one row each: the name the command line, samples files and sessions
/// use, what the app calls it, its part of each preset, and the traits that every check and
/// view asks about instead of comparing names. A new dataset is a row here, its preset
/// functions (dataset_presets.h) and its loader's row in makeDataset
/// (core/experiment/inputs/datasets.cpp), which tst_dataset_registry checks is there.
#include <string>
#include <string_view>
#include <vector>

#include "core/models/model_registry.h"

namespace core {

struct PresetContext;
struct RunConfig;

/// The rows `mh-explorer-cli dataset` writes of a generated dataset: none, the mixture's scalar
/// points, or a tall regression's covariates with its label or response.
enum class DatasetExport { None, MixturePoints, LogisticRows, RegressionRows };

struct DatasetEntry {
    std::string_view name;  ///< "gmm", "worst-case", "logreg", "tall-logreg", "tall-glm", "glm"
    std::string_view label; ///< the app's short name: "Gaussian mixture"
    std::string_view help;  ///< the --dataset help's words for it: "gmm (the paper's mixture)"
    /// The model's row (core/models/model_registry.h): what the methods and proposals it can
    /// run with need, and whether it is a classifier, are asked of the model, not the dataset.
    /// Empty where the --model setting chooses it (tall-glm, glm).
    std::string_view model;
    /// Rows made from --n-data and --data-seed (every dataset but the files of logreg).
    bool generated;
    /// The binned true posterior is known: the heat map, the preview and the posterior TV.
    bool exactPosteriorMap;
    /// θ's dimension when it is fixed (2 for the mixture, 1 for the worst case); 0 when a
    /// setting or the data choose it.
    int fixedDimension;
    /// --dimension sets θ's dimension (the tall synthetic data).
    bool dimensionSetting;
    /// What `mh-explorer-cli dataset` writes of it to a file, if anything.
    DatasetExport exportAs;
    /// The app's data box: the entry of a generated dataset and its tooltip (a dataset read
    /// from files is offered as its sources and a file entry instead).
    std::string_view boxLabel;
    std::string_view boxToolTip;
    /// The data box's line on a generated dataset (%1: the logistic prior's sd, where it has one).
    std::string_view boxDescription;
    /// Its part of the paper's preset (applyDatasetDefaults: the temperature and step of the
    /// paper's experiment on it) and of the recommended one (dataset_presets.h); null where it
    /// has none.
    void (*paperDefaults)(RunConfig &config, const PresetContext &context);
    void (*recommended)(RunConfig &config, const PresetContext &context);
    /// The recommended burn-in is samples / burnInShare.
    int burnInShare;
    /// Why a preset chooses N, for the notes that name the preset's N (the worst case: 10⁵
    /// recommended, the paper's 10⁶); empty where the user's N is kept.
    std::string_view presetSizeReason;
};
/// The classifier's dataset whose rows come from files (images or a user's table): "logreg".
/// (A regression on a user's file, "glm", reads files too; its model is chosen.)
const DatasetEntry &fileDataset();

/// Every dataset, in the order the help and the app list them.
const std::vector<DatasetEntry> &datasetTable();
/// The row named `name`, or null.
const DatasetEntry *findDataset(std::string_view name);
/// The row named `name`; throws std::invalid_argument naming every dataset when there is none.
const DatasetEntry &datasetEntry(std::string_view name);
/// The names joined as prose: "gmm, worst-case, logreg or tall-logreg" (`conjunction` last), of
/// every dataset, or of those `which` selects.
std::string datasetNames(std::string_view conjunction = "or", bool (*which)(const DatasetEntry &) = nullptr);
/// The row of the dataset's model; for a dataset whose model a setting chooses, the row of
/// `chosen` (the default model, robust-linear, when empty). Throws std::invalid_argument naming
/// the models a setting may choose when `chosen` is not one of them.
const ModelEntry &modelOf(const DatasetEntry &dataset, std::string_view chosen = {});
/// Whether the --model setting chooses the dataset's model.
bool modelIsChosen(const DatasetEntry &dataset);

} // namespace core
