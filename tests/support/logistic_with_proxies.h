#pragma once
// A small logistic regression (two N(0, 1) covariates and a bias, prior N(0, I)), its mode at a
// temperature, the first-order Taylor proxies there with their residual model, and the narrowest
// Laplace sd: the set-up the Zig-Zag suites run their processes on.
#include <cmath>
#include <memory>

#include "core/models/control_variates.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/posterior_mode.h"
#include "tests/support/random_classification.h"

struct LogisticWithProxies {
    std::shared_ptr<const core::LogisticRegressionModel> model;
    core::Vector anchor;
    std::shared_ptr<const core::TaylorProxies> proxies;
    std::shared_ptr<core::ControlVariateModel> residualModel;
    double temperature = 1.0;
    double sd = 0.0; // the narrowest Laplace sd at that temperature

    explicit LogisticWithProxies(core::DataIndex rows = 2000, double atTemperature = 1.0) : temperature(atTemperature)
    {
        core::LogisticRegressionOptions options;
        options.priorSd = 1.0;
        options.bias = true;
        model = std::make_shared<const core::LogisticRegressionModel>(testdata::randomClassification(rows, 2, 61, 0.3),
                                                                      options);
        anchor = core::findPosteriorMode(*model, temperature).mode;
        proxies = core::makeTaylorProxies(*model, anchor, 1);
        residualModel = std::make_shared<core::ControlVariateModel>(model, proxies);
        const Eigen::MatrixXd hessian = core::makeTaylorProxies(*model, anchor, 2)->hessianSum();
        sd = 1.0 / std::sqrt((-hessian.diagonal().array() / temperature + 1.0).maxCoeff());
    }
};
