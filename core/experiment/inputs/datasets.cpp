#include "core/experiment/inputs/datasets.h"

#include <stdexcept>

#include "core/data/gaussian_mixture_data.h"
#include "core/data/worst_case_data.h"
#include "core/models/gaussian_mean_model.h"
#include "core/models/gaussian_mixture_model.h"

namespace core {

DataSettings dataSettings(const RunConfig &config)
{
    DataSettings settings;
    settings.dataset = config.dataset;
    if (config.dataset == "logreg") {
        settings.logreg = config.logreg;
    } else {
        settings.nData = config.nData;
        settings.dataSeed = config.dataSeed;
    }
    return settings;
}

DatasetInstance makeDataset(const RunConfig &config, bool withPosterior, const std::function<void(double)> &progress,
                            std::stop_token stop)
{
    DatasetInstance instance;
    instance.name = config.dataset;
    if (config.dataset == "gmm") {
        GaussianMixtureSpec spec;
        spec.size = config.nData;
        spec.seed = config.dataSeed;
        auto model = std::make_shared<GaussianMixtureModel>(generateGaussianMixture(spec));
        if (withPosterior)
            instance.gmmPosterior = std::make_shared<GaussianMixturePosterior>(model->data(), config.temperature);
        instance.model = std::move(model);
        instance.description = "Gaussian mixture x ~ 0.5 N(theta1, 2) + 0.5 N(theta1 + theta2, 2), theta = (0, 1), "
                               "prior N(0, diag(10, 1))";
        return instance;
    }
    if (config.dataset == "worst-case") {
        instance.model = std::make_shared<GaussianMeanModel>(generateWorstCaseGaussian(config.nData, config.dataSeed), 1.0);
        instance.description = "worst-case Gaussian x ~ N(0.5, 1), flat prior";
        return instance;
    }
    if (config.dataset == "logreg") {
        LogisticDataset data = makeLogisticDataset(config.logreg, progress, stop);
        instance.model = data.model;
        instance.classifier = data.model;
        instance.testSet = data.test;
        instance.description = data.description;
        instance.augmented = data.augmented;
        return instance;
    }
    throw std::invalid_argument("dataset must be gmm, worst-case or logreg; got '" + config.dataset + "'");
}

} // namespace core
