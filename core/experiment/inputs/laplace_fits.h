#pragma once
/// The Laplace fits (Model::laplaceFit) of one data set's model, made once per
/// temperature and shared: by the chains of a request (two chains at once on images would
/// otherwise each fit the same approximation, side by side), and through RunInputCache by the
/// runs that follow on the same data (the app's next Run, a sweep's next point). The fit is a
/// pure function of the model and the temperature, so sharing changes no figure.
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <stop_token>

#include "core/models/gaussian_approximation.h"
#include "core/models/model.h"

namespace core {

/// A fit and what it cost to make it.
struct TimedLaplaceFit {
    GaussianApproximation approximation;
    double temperature = 0.0; ///< the T it was fitted at
    double seconds = 0.0;     ///< wall time of the fit when it was made
};

class LaplaceFits {
public:
    /// The fits of `model`, which this object keeps alive. Keeps the fits of the
    /// `capacity` (≥ 1) temperatures asked for last: one is d² doubles (4.9 MB at d = 784).
    /// Throws std::invalid_argument for a null model, one without the LaplaceFit capability or
    /// a capacity of 0.
    explicit LaplaceFits(std::shared_ptr<const Model> model, std::size_t capacity = 4);

    /// The fit at `temperature`, made on the calling thread the first time; callers asking
    /// meanwhile wait for that build. A stop during the build throws Cancelled and keeps
    /// nothing; invalid temperatures throw as the model's fit does.
    std::shared_ptr<const TimedLaplaceFit> at(double temperature, std::stop_token stop = {});

private:
    std::shared_ptr<const Model> m_model;
    std::size_t m_capacity;
    std::mutex m_build; // one fit at a time: each already uses both cores
    std::deque<std::pair<double, std::shared_ptr<const TimedLaplaceFit>>> m_fits; // oldest first
};

/// The fit a pre-run forecast is made around: `given` (the request's, when its proposal made
/// one), else `kept`'s at `temperature` when the data keep fits, else one made here (40 Newton
/// steps at most). Throws as Model::laplaceFit does, and Cancelled on a stop.
GaussianApproximation fitForForecast(const Model &model, const std::shared_ptr<const TimedLaplaceFit> &given,
                                     LaplaceFits *kept, double temperature, std::stop_token stop);

} // namespace core
