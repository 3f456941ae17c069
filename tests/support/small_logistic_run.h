#pragma once
// A small logistic regression (uniform random features, prior N(0, I)) and the settings of an
// exact-test run on it at T = 1: where the Laplace proposals' suites start.
#include <cstdint>
#include <memory>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/logistic_regression_model.h"
#include "tests/support/random_classification.h"

namespace testdata {

struct SmallLogisticRun {
    core::DatasetInstance dataset;
    core::RunConfig config;
};

/// n rows of d features (offset as randomClassification's), `samples` iterations of which
/// `burnIn` burn-in, Metropolis' test.
inline SmallLogisticRun smallLogisticRun(core::DataIndex n, int d, std::uint64_t seed, std::int64_t samples,
                                         std::int64_t burnIn, double offset = 0.0)
{
    core::LogisticRegressionOptions options;
    options.priorSd = 1.0;
    SmallLogisticRun run;
    run.dataset.model = std::make_shared<const core::LogisticRegressionModel>(randomClassification(n, d, seed, offset),
                                                                              options);
    run.config.dataset = "logreg";
    run.config.method = core::TestMethod::Metropolis;
    run.config.temperature = 1.0;
    run.config.samples = samples;
    run.config.burnIn = burnIn;
    return run;
}

} // namespace testdata
