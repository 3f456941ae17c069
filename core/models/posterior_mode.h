#pragma once
/// The mode θ̂ of the tempered posterior p0(θ)·exp(Σ_i ℓ_i(θ)/T), found once before sampling as
/// the anchor of the Taylor proxies (control_variates.h); its cost is reported apart from the
/// sampling. Damped Newton: each step reads the data twice (the proxies' sums G and
/// H at the current point, then the log-likelihood for the line search).
#include <stop_token>

#include "core/models/model.h"

namespace core {

struct PosteriorMode {
    Vector mode;
    int newtonSteps = 0;
    std::int64_t passes = 0; ///< full passes over the data
    double seconds = 0.0;
    /// The gradient's norm fell below its tolerance (otherwise the step budget ran out: the
    /// last iterate is kept; any anchor keeps the control variates unbiased).
    bool converged = false;
};

/// Newton's method with backtracking from `start` (empty: the model's initial θ) on
/// f(θ) = log p0(θ) + Σ ℓ_i(θ)/T, using the model's Taylor sums for the likelihood's gradient
/// and Hessian and finite differences of gradLogPrior for the prior's. Where the Hessian is not
/// negative definite (a saddle of the mixture), it shifts it until it is (Levenberg–Marquardt). Throws
/// std::invalid_argument for a model without Taylor proxies or T ≤ 0, and Cancelled when `stop`
/// is requested (checked before every pass).
PosteriorMode findPosteriorMode(const Model &model, double temperature, Vector start = {}, int maxSteps = 50,
                                std::stop_token stop = {});

} // namespace core
