#pragma once
/// Binary classification data for logistic regression (Seita et al., "Minibatch Acceptance Test",
/// Sec. 6.2 and the later version, Sec. 6.2: MNIST 1s versus 7s, pixels scaled to [0, 1]).
///
/// Features are stored as `float`, row-major and contiguous. The minibatch kernel reads b
/// random rows of d features per test, and on data sets larger than the last-level cache that
/// read is bound by memory traffic, so 4-byte features move half the bytes of doubles (a
/// 28×28 row is 3.1 kB instead of 6.3 kB; MNIST-100k is 314 MB instead of 627 MB). Pixels k/255
/// keep 24 significant bits; CSV features are rounded to the nearest float (relative error
/// ≤ 6e-8). The model widens every feature to double before it multiplies, so dot products and
/// log-likelihoods are accumulated in double precision.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/models/model.h"

namespace core {

/// N × d features, one example per row, rows contiguous in memory.
using FeatureMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class MappedFile;

/// A feature standardised: (x − mean) / sd, as x − mean times 1/sd in double, rounded to float.
/// The one formula for rows scaled in memory and rows scaled as they are read, so both give
/// the same floats (and the same chains).
inline float standardized(float x, double mean, double inverseSd)
{
    return static_cast<float>((static_cast<double>(x) - mean) * inverseSd);
}

/// Feature rows read in place from a memory-mapped float32 .npy file (mapped_npy.h), for data
/// larger than memory: nothing of the features is copied, and a row's page is read from disk
/// only when a test or a gradient asks for that row. Row i of the data set is file row
/// fileRow(i): the rows held out for testing are skipped by index, in file order, so the
/// training rows are in the same order as the copy splitTrainTest() makes in memory. With
/// `means` set, a row is standardised as it is read, to the very floats applyFeatureScaling()
/// would have stored.
struct MappedFeatureRows {
    std::shared_ptr<const MappedFile> file;
    const float *first = nullptr;      ///< file row 0's first feature
    std::int64_t stride = 0;           ///< floats from one file row to the next (a label column included)
    std::int64_t fileRows = 0;
    int columns = 0;                   ///< features per row
    /// For the held-out file rows t_0 < t_1 < … the values t_k − k, non-decreasing: how many
    /// training rows precede each. Row i is file row i + #{k : t_k − k ≤ i}.
    std::vector<std::int64_t> skipped;
    /// For rows i in block b = i >> blockShift: #{k : t_k − k < b << blockShift}, so that the
    /// count above is this plus a scan over the held-out rows inside the block. Blocks are sized
    /// to hold about one held-out row each: a lookup of a few nanoseconds, where a binary
    /// search per row doubles the cost of a minibatch test. Built by indexSkipped().
    std::vector<std::int64_t> skippedBeforeBlock;
    int blockShift = 0;
    /// Sets `skipped` from the held-out file rows (sorted) and builds the block index.
    void indexSkipped(const std::vector<std::int64_t> &heldOutFileRows);
    std::vector<double> means, inverseSds; ///< empty: rows as stored

    DataIndex rows() const { return static_cast<DataIndex>(fileRows - static_cast<std::int64_t>(skipped.size())); }
    std::int64_t fileRow(DataIndex i) const;
    /// Row i's floats as stored in the file (not standardised).
    const float *stored(DataIndex i) const { return first + fileRow(i) * stride; }
    bool scaled() const { return !means.empty(); }
    /// Feature j of a stored row as the model reads it: standardised when `means` is set.
    float feature(const float *storedRow, int j) const
    {
        const auto k = static_cast<std::size_t>(j);
        return scaled() ? standardized(storedRow[j], means[k], inverseSds[k]) : storedRow[j];
    }
    /// Row i as the model reads it: standardised when `means` is set. `scratch` holds `columns`
    /// floats; the returned pointer is either into the file or `scratch`.
    const float *read(DataIndex i, float *scratch) const;
    /// Bytes of the file a pass over every training row reads.
    std::uint64_t passBytes() const;
    /// When the file is larger than memory: asks the kernel to read the pages of `rows` at once
    /// (MappedFile::willNeed), before a test touches them one after another. Nothing otherwise.
    void prefetch(std::span<const DataIndex> rows) const;
};

/// What describes a data set apart from its rows: a subset of the rows keeps it whole.
struct ClassificationDataInfo {
    /// What labels 0 and 1 stand for, e.g. {"digit 1", "digit 7"} or {"'cat'", "'dog'"}.
    std::pair<std::string, std::string> classNames{"0", "1"};
    /// Where the rows came from, one line, for sample-file headers and run summaries.
    std::string description;
    /// True when some rows were synthesised from others (shifts, elastic distortions): such
    /// data must never be reported as the original data set.
    bool augmented = false;
    /// Image geometry when each row is an image stored row by row; 0 × 0 otherwise.
    int imageRows = 0;
    int imageCols = 0;
    /// The features' names from a file's header, one per column of `features`; empty when
    /// the file has none (the images, a CSV without a header).
    std::vector<std::string> featureNames;
};

struct ClassificationData : ClassificationDataInfo {
    /// N × d when the rows are in memory; empty when they are read in place (`mapped`).
    FeatureMatrix features;
    /// Set when the rows are read in place from a memory-mapped file instead of `features`.
    std::shared_ptr<const MappedFeatureRows> mapped;
    std::vector<std::uint8_t> labels;     ///< N entries, each 0 or 1

    DataIndex size() const { return mapped ? mapped->rows() : static_cast<DataIndex>(features.rows()); }
    int featureCount() const { return mapped ? mapped->columns : static_cast<int>(features.cols()); }
    /// Bytes the features and labels take in memory (mapped rows not counted: the page cache
    /// holds what it can of them).
    std::size_t bytes() const { return static_cast<std::size_t>(features.size()) * sizeof(float) + labels.size(); }
    /// Row i's features as the model reads them (standardised when mapped with a scaling),
    /// widened to double: the way for code off the hot path to read a row of either kind.
    Eigen::VectorXd row(DataIndex i) const;
    /// The same into `out` (featureCount() doubles), allocating nothing.
    void copyRow(DataIndex i, double *out) const;
    /// Row i (as row() reads it) · weights[0..featureCount()), allocating nothing.
    double dotRow(DataIndex i, const double *weights) const;
    /// Number of rows with label 1.
    DataIndex positives() const;
};

/// The `count` features whose class means differ most in units of the pooled within-class
/// standard deviation, |mean(x_j | y = 1) − mean(x_j | y = 0)| / s_j, most different first
/// (ties: lower index first; constant features last); fewer if the data have fewer features. Their
/// weights are the ones the data pin down, so they make informative posterior and trace plots,
/// where a pixel that is blank in every image (an MNIST corner) has a weight that only
/// follows its prior.
std::vector<int> mostDiscriminativeFeatures(const ClassificationData &data, int count);

/// Checks the shape (labels.size() = rows ≥ 1, at least one feature, image geometry
/// rows × cols = d when set), that labels are 0/1 and that every feature is finite (mapped
/// rows: when each is read, see LogisticRegressionModel; checking them here would read the
/// whole file). Throws std::invalid_argument naming what is wrong.
void validate(const ClassificationData &data);

/// The rows `rows` (in that order) as a new data set in memory with the same metadata.
/// Throws std::out_of_range for an index outside [0, N).
ClassificationData selectRows(const ClassificationData &data, std::span<const DataIndex> rows);

struct TrainTestSplit {
    ClassificationData train;
    ClassificationData test;
};

/// Splits at random: `testSize` rows chosen uniformly without replacement (Fisher–Yates with
/// core::Rng seeded by `seed`) form the test set, the rest the training set; both keep the
/// original row order. The same (data, testSize, seed) always gives the same split. The paper
/// draws 1000 random test rows (Seita et al., "Minibatch Acceptance Test", Sec. 6.2). Mapped data
/// are split by index: the test rows are copied into memory and the training rows stay in the file,
/// skipped over by index (MappedFeatureRows), the same rows in the same order as the in-memory
/// split, in O(testSize) memory. Throws std::invalid_argument unless 1 ≤ testSize < N.
TrainTestSplit splitTrainTest(const ClassificationData &data, DataIndex testSize, std::uint64_t seed);
/// The same split; of data read in place it takes the labels instead of copying them (the rest
/// of `data` stays as it was).
TrainTestSplit splitTrainTest(ClassificationData &&data, DataIndex testSize, std::uint64_t seed);

/// How many of `rows` rows a random split holds out: `testSize`, but at most `maxFraction` of
/// the rows (rounded down), so that a small data set keeps rows to train on; at least 1. The
/// paper holds out 1000 of about 13,000 MNIST rows (Seita et al., "Minibatch Acceptance Test", Sec.
/// 6.2), which the cap leaves as it is. Throws std::invalid_argument when `rows` < 2 (nothing would
/// be left to train on) or `maxFraction` is not in (0, 1).
DataIndex heldOutRows(DataIndex rows, DataIndex testSize, double maxFraction);

/// Parses a class pair such as "1,7" (two different integers in [0, 255]). The first class
/// becomes label 0, the second label 1. Throws std::invalid_argument on anything else.
std::pair<int, int> parseClassPair(const std::string &text);

/// Multi-class images with integer labels, as IDX files store them: N × rows × cols bytes.
struct LabelledImages {
    std::vector<std::uint8_t> pixels;     ///< N · rows · cols bytes, image after image
    std::vector<std::uint8_t> labels;     ///< N class labels (0–9 for MNIST)
    int count = 0;
    int rows = 0;
    int cols = 0;
    std::string description;              ///< e.g. the file names it was read from
};

/// Keeps the images of the two classes, in file order, with pixels divided by 255 (so in
/// [0, 1], Seita et al., "Minibatch Acceptance Test", Sec. 6.2). `classes.first` → label 0,
/// `classes.second` → label 1. `classNamePrefix` names the classes in classNames ("digit " → "digit
/// 1"). Throws std::invalid_argument when the classes are equal or either has no image.
ClassificationData selectClasses(const LabelledImages &images, std::pair<int, int> classes,
                                 const std::string &classNamePrefix = "class ");

} // namespace core
