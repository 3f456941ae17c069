#include "core/experiment/inputs/logistic_dataset.h"

#include <stdexcept>

#include "core/data/augmentation.h"
#include "core/data/csv_dataset.h"
#include "core/data/data_file.h"
#include "core/data/delimited_text.h"
#include "core/data/idx_reader.h"
#include "core/data/image_sources.h"
#include "core/validation/range_checks.h"

namespace core {
namespace {

// An IDX image file and its label file as an image source of their own.
ImageSource idxFiles(const std::string &images, const std::string &labels)
{
    ImageSource source;
    source.name = "idx";
    source.title = "IDX files";
    source.trainImages = images;
    source.trainLabels = labels;
    return source;
}

TrainTestSplit loadSplit(const LogisticDataSpec &spec)
{
    if (!spec.data.empty() || !spec.csv.empty()) {
        DataFileRequest request = dataFileRequest(spec);
        if (!request.format)
            request.format = detectDataFormat(request.path);
        if (*request.format == DataFormat::Idx) {
            if (spec.labels.empty())
                throw std::invalid_argument("IDX images (--data " + spec.data + ") need their label file: --labels");
            return loadImageClasses(idxFiles(spec.data, spec.labels), spec.classes, spec.testSize, spec.splitSeed,
                                    spec.testFraction);
        }
        ClassificationData data = readDataFile(request);
        const DataIndex testRows = heldOutRows(data.size(), spec.testSize, spec.testFraction);
        return splitTrainTest(std::move(data), testRows, spec.splitSeed);
    }
    if (!spec.images.empty() || !spec.labels.empty()) {
        if (spec.images.empty() || spec.labels.empty())
            throw std::invalid_argument("images and labels must be given together");
        return loadImageClasses(idxFiles(spec.images, spec.labels), spec.classes, spec.testSize, spec.splitSeed,
                                spec.testFraction);
    }
    const std::vector<ImageSource> sources = discoverImageSources(spec.searchDirectories);
    std::string names;
    for (const ImageSource &source : sources) {
        if (spec.source == "auto" || spec.source == source.name)
            return loadImageClasses(source, spec.classes, spec.testSize, spec.splitSeed, spec.testFraction);
        names += (names.empty() ? "" : ", ") + source.name;
    }
    throw std::invalid_argument("source '" + spec.source + "' was not found; available: "
                                + (names.empty() ? std::string("none (see resources/data/README.md)") : names));
}

} // namespace

DataFileRequest dataFileRequest(const LogisticDataSpec &spec)
{
    DataFileRequest request;
    request.path = spec.csv.empty() ? spec.data : spec.csv;
    request.format = spec.csv.empty() ? parseDataFormat(spec.format) : DataFormat::Csv;
    request.labels = spec.labels;
    request.table.labelColumn = spec.labelColumn;
    request.table.delimiter = parseDelimiter(spec.delimiter);
    request.table.dropMissing = spec.dropMissing;
    request.memoryMap = parseMemoryMap(spec.memoryMap);
    return request;
}

bool isUserTable(const LogisticDataSpec &spec)
{
    if (!spec.csv.empty())
        return true;
    if (spec.data.empty())
        return false;
    std::optional<DataFormat> format;
    try {
        format = parseDataFormat(spec.format);
    } catch (const std::invalid_argument &) {
        // validate() reports it; the defaults go by the name meanwhile.
    }
    if (!format)
        format = formatFromName(spec.data);
    return format != DataFormat::Idx;
}

LogisticDataset makeLogisticDataset(const LogisticDataSpec &spec, const std::function<void(double)> &progress,
                                    std::stop_token stop)
{
    TrainTestSplit split = loadSplit(spec);
    if (spec.augmentTo > 0) {
        AugmentationSettings settings;
        settings.targetSize = spec.augmentTo;
        settings.seed = spec.augmentSeed;
        split.train = augmentImages(split.train, settings, progress, stop);
    }
    LogisticDataset dataset;
    if (spec.standardize) {
        dataset.scaling = fitFeatureScaling(split.train);
        applyFeatureScaling(split.train, dataset.scaling);
        applyFeatureScaling(split.test, dataset.scaling);
    }
    dataset.train = std::make_shared<const ClassificationData>(std::move(split.train));
    dataset.test = std::make_shared<const ClassificationData>(std::move(split.test));
    dataset.model = std::make_shared<const LogisticRegressionModel>(dataset.train, spec.model);
    dataset.augmented = dataset.train->augmented;
    dataset.description = "logistic regression, " + dataset.train->classNames.first + " (0) vs "
                          + dataset.train->classNames.second + " (1), " + std::to_string(dataset.train->size())
                          + " training / " + std::to_string(dataset.test->size()) + " test rows, "
                          + std::to_string(dataset.train->featureCount()) + " features"
                          + (spec.model.bias ? " + bias" : "")
                          + (spec.model.priorSd > 0.0 ? ", prior N(0, " + std::to_string(spec.model.priorSd) + "^2 I)"
                                                      : ", flat prior")
                          + "; train: " + dataset.train->description;
    return dataset;
}

ClassifierTrace classifierTrace(const LogisticRegressionModel &model, const ChainResult &chain,
                                const ClassificationData &test, std::int64_t stride)
{
    requireAtLeast("stride", stride, 1);
    ClassifierTrace trace;
    std::int64_t used = 0;
    for (std::int64_t t = 0; t < chain.completed; ++t) {
        const auto row = static_cast<std::size_t>(t);
        used += chain.batchSize[row] + chain.fullScanPoints[row];
        if (t % stride != stride - 1 && t != chain.completed - 1)
            continue;
        const Vector theta = chain.samples.row(t).transpose();
        trace.iteration.push_back(t);
        trace.dataUsed.push_back(used);
        trace.accuracy.push_back(model.accuracy(theta, test));
        trace.meanLogLikelihood.push_back(model.meanLogLikelihood(theta, test));
    }
    return trace;
}

} // namespace core
