#include "core/experiment/inputs/datasets.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/data/delimited_text.h"
#include "core/data/feature_scaling.h"
#include "core/data/gaussian_mixture_data.h"
#include "core/data/regression_file.h"
#include "core/data/synthetic_glm_data.h"
#include "core/data/synthetic_logistic_data.h"
#include "core/data/worst_case_data.h"
#include "core/models/gaussian_mean_model.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/models/glm/glm_model.h"
#include "core/io/number_format.h"

namespace core {

namespace {

// Each dataset's DataSettings: the fields its loader reads (DataSettings' rule).
DataSettings generatedSettings(const RunConfig &config)
{
    DataSettings settings;
    settings.dataset = config.dataset;
    settings.nData = config.nData;
    settings.dataSeed = config.dataSeed;
    return settings;
}

DataSettings fileLogisticSettings(const RunConfig &config)
{
    DataSettings settings;
    settings.dataset = config.dataset;
    settings.logreg = config.logreg;
    return settings;
}

// The tall datasets: generated rows of the chosen dimension.
DataSettings tallSettings(const RunConfig &config)
{
    DataSettings settings = generatedSettings(config);
    settings.dimension = config.dimension;
    return settings;
}

DataSettings tallLogisticSettings(const RunConfig &config)
{
    DataSettings settings = tallSettings(config);
    settings.logreg.model = config.logreg.model;
    settings.logreg.testSize = config.logreg.testSize;
    return settings;
}

DataSettings fileGlmSettings(const RunConfig &config)
{
    DataSettings settings;
    settings.dataset = config.dataset;
    // The file and how it is read; the classifier's own fields (classes, split, model) stay at
    // their defaults so that they do not tell equal data apart.
    settings.logreg.data = config.logreg.data;
    settings.logreg.format = config.logreg.format;
    settings.logreg.labels = config.logreg.labels;
    settings.logreg.delimiter = config.logreg.delimiter;
    settings.logreg.dropMissing = config.logreg.dropMissing;
    settings.logreg.memoryMap = config.logreg.memoryMap;
    settings.logreg.standardize = config.logreg.standardize;
    settings.logreg.model.priorSd = config.logreg.model.priorSd;
    settings.glm = config.glm;
    settings.responseColumn = config.responseColumn;
    return settings;
}

DataSettings tallGlmSettings(const RunConfig &config)
{
    DataSettings settings = tallSettings(config);
    settings.logreg.model.priorSd = config.logreg.model.priorSd;
    settings.glm = config.glm;
    return settings;
}

// tall-logreg: N training rows and test-size test rows, generated from two streams of the
// data seed, so that the training rows do not depend on the test size.
DatasetInstance makeTallLogistic(const RunConfig &config, const LoadContext &context)
{
    const std::stop_token &stop = context.stop;
    SyntheticLogisticSpec spec;
    spec.rows = config.nData;
    spec.bias = config.logreg.model.bias;
    spec.features = config.dimension - (spec.bias ? 1 : 0);
    spec.seed = config.dataSeed;
    auto train = std::make_shared<ClassificationData>(generateSyntheticLogistic(spec, context.progress, stop));
    SyntheticLogisticSpec testSpec = spec;
    testSpec.rows = std::max<std::int64_t>(2, config.logreg.testSize);
    testSpec.seed = ~config.dataSeed; // the test rows' own stream
    auto test = std::make_shared<ClassificationData>(generateSyntheticLogistic(testSpec, {}, stop));
    test->description = "test rows: " + test->description;

    DatasetInstance instance;
    instance.name = config.dataset;
    instance.bytes = train->bytes() + test->bytes();
    auto model = std::make_shared<LogisticRegressionModel>(train, config.logreg.model);
    instance.description = train->description + "; " + std::to_string(test->size()) + " test rows; prior "
                           + (config.logreg.model.priorSd > 0.0 ? "N(0, " + formatRoundTrip(config.logreg.model.priorSd)
                                                                       + "^2 I)"
                                                                 : std::string("flat"));
    instance.model = model;
    instance.classifier = std::move(model);
    instance.testSet = std::move(test);
    return instance;
}

// tall-glm: N rows from the chosen model (synthetic_glm_data.h), with a bias and the prior of
// --prior-sd.
DatasetInstance makeTallGlm(const RunConfig &config, const LoadContext &context)
{
    SyntheticGlmSpec spec;
    spec.rows = config.nData;
    spec.features = config.dimension - 1;
    spec.family = config.glm;
    spec.seed = config.dataSeed;
    auto data = std::make_shared<const GlmData>(generateSyntheticGlm(spec, context.progress, context.stop));
    const GlmOptions options{config.glm, config.logreg.model.priorSd, true};
    DatasetInstance instance;
    instance.name = config.dataset;
    instance.bytes = data->bytes();
    instance.description = data->description + "; prior "
                           + (options.priorSd > 0.0 ? "N(0, " + formatRoundTrip(options.priorSd) + "^2 I)"
                                                    : std::string("flat"));
    instance.model = std::make_shared<const GlmModel>(std::move(data), options);
    return instance;
}

// glm: a user's file read with a numeric response (regression_file.h), each response checked
// by the chosen model's rule as it is read, the features standardised unless told otherwise
// (as a user's table for logistic regression is: one step size suits features of every scale,
// and the N(0, s²I) prior weighs them alike), with a bias and the prior of --prior-sd. Every
// row is used for the posterior: there is no test accuracy to hold rows out for.
DatasetInstance makeFileGlm(const RunConfig &config, const LoadContext &)
{
    const std::shared_ptr<const GlmFamily> family = makeGlmFamily(config.glm);
    GlmData rows = readFileGlmRows(config);
    if (config.logreg.standardize) {
        ClassificationData table; // the scaling's own data type: features and description
        table.features = std::move(rows.features);
        table.description = std::move(rows.description);
        applyFeatureScaling(table, fitFeatureScaling(table));
        rows.features = std::move(table.features);
        rows.description = std::move(table.description);
    }
    auto data = std::make_shared<const GlmData>(std::move(rows));
    const GlmOptions options{config.glm, config.logreg.model.priorSd, true};
    DatasetInstance instance;
    instance.name = config.dataset;
    instance.bytes = data->bytes();
    instance.description = data->description + "; " + family->describe() + "; prior "
                           + (options.priorSd > 0.0 ? "N(0, " + formatRoundTrip(options.priorSd) + "^2 I)"
                                                    : std::string("flat"));
    instance.model = std::make_shared<const GlmModel>(std::move(data), options);
    return instance;
}

// gmm: the paper's mixture (Seita et al. Sec. 6.1), with its binned true posterior on request.
DatasetInstance makeMixture(const RunConfig &config, const LoadContext &context)
{
    GaussianMixtureSpec spec;
    spec.size = config.nData;
    spec.seed = config.dataSeed;
    auto model = std::make_shared<GaussianMixtureModel>(generateGaussianMixture(spec));
    DatasetInstance instance;
    instance.name = config.dataset;
    if (context.withPosterior)
        instance.gmmPosterior = std::make_shared<GaussianMixturePosterior>(model->data(), config.temperature);
    instance.mixturePoints = std::shared_ptr<const Eigen::VectorXd>(model, &model->data());
    instance.model = std::move(model);
    instance.description = "Gaussian mixture x ~ 0.5 N(theta1, 2) + 0.5 N(theta1 + theta2, 2), theta = (0, 1), "
                           "prior N(0, diag(10, 1))";
    return instance;
}

// worst-case: Sec. 2.1's single Gaussian of unit variance around 0.5.
DatasetInstance makeWorstCase(const RunConfig &config, const LoadContext &)
{
    DatasetInstance instance;
    instance.name = config.dataset;
    instance.model = std::make_shared<GaussianMeanModel>(generateWorstCaseGaussian(config.nData, config.dataSeed), 1.0);
    instance.description = "worst-case Gaussian x ~ N(0.5, 1), flat prior";
    return instance;
}

// logreg: images or a user's table (logistic_dataset.h), with the held-out rows.
DatasetInstance makeFileLogistic(const RunConfig &config, const LoadContext &context)
{
    LogisticDataset data = makeLogisticDataset(config.logreg, context.progress, context.stop);
    const std::size_t bytes = data.train->bytes() + (data.test ? data.test->bytes() : 0);
    return DatasetInstance{.name = config.dataset,
                           .description = std::move(data.description),
                           .model = data.model,
                           .classifier = data.model,
                           .testSet = std::move(data.test),
                           .augmented = data.augmented,
                           .scaling = std::move(data.scaling),
                           .bytes = bytes};
}

// One row per dataset of the registry (dataset_registry.h): the settings its data depend on
// and how they are made. tst_dataset_registry checks that every registry row has its row here.
struct DatasetLoader {
    std::string_view name;
    DataSettings (*settings)(const RunConfig &config);
    DatasetInstance (*make)(const RunConfig &config, const LoadContext &context);
};

constexpr DatasetLoader kLoaders[] = {
    {"gmm", generatedSettings, makeMixture},
    {"worst-case", generatedSettings, makeWorstCase},
    {"logreg", fileLogisticSettings, makeFileLogistic},
    {"tall-logreg", tallLogisticSettings, makeTallLogistic},
    {"tall-glm", tallGlmSettings, makeTallGlm},
    {"glm", fileGlmSettings, makeFileGlm},
};

const DatasetLoader *findLoader(std::string_view name)
{
    for (const DatasetLoader &loader : kLoaders)
        if (loader.name == name)
            return &loader;
    return nullptr;
}

const DatasetLoader &loaderFor(const std::string &name)
{
    if (const DatasetLoader *loader = findLoader(name))
        return *loader;
    throw std::invalid_argument("dataset must be " + datasetNames() + "; got '" + name + "'");
}

} // namespace

GlmData readFileGlmRows(const RunConfig &config, std::vector<CsvColumnSummary> *columns)
{
    if (config.logreg.data.empty())
        throw std::invalid_argument("dataset glm needs your data file: --data FILE (CSV, LIBSVM or .npy) with a numeric "
                                    "response (--response-column)");
    const std::unique_ptr<const GlmFamily> family = makeGlmFamily(config.glm);
    DataFileRequest request;
    request.path = config.logreg.data;
    request.format = parseDataFormat(config.logreg.format);
    request.labels = config.logreg.labels;
    request.table.labelColumn = config.responseColumn;
    request.table.delimiter = parseDelimiter(config.logreg.delimiter);
    request.table.dropMissing = config.logreg.dropMissing;
    request.memoryMap = parseMemoryMap(config.logreg.memoryMap);
    const GlmResponse kind = family->response();
    return readRegressionFile(request, std::string(family->name()), [kind](double y) { return responseProblem(kind, y); },
                              columns);
}

bool hasDatasetLoader(std::string_view name)
{
    return findLoader(name) != nullptr;
}

DataSettings dataSettings(const RunConfig &config)
{
    const DatasetLoader *loader = findLoader(config.dataset);
    // An unknown name reads like the mixture's (makeDataset refuses it).
    return loader ? loader->settings(config) : generatedSettings(config);
}

DatasetInstance makeDataset(const RunConfig &config, bool withPosterior, const std::function<void(double)> &progress,
                            std::stop_token stop)
{
    const DatasetLoader &loader = loaderFor(config.dataset);
    const auto started = std::chrono::steady_clock::now();
    DatasetInstance instance = loader.make(config, LoadContext{withPosterior, progress, std::move(stop)});
    instance.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return instance;
}

} // namespace core
