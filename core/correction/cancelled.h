#pragma once
/// The exception that long core computations throw when their std::stop_token is triggered.
#include <stdexcept>

namespace core {

/// Thrown by a cancellable computation (e.g. CorrectionDistribution::solve) once its
/// std::stop_token reports a stop request. Callers treat it as "the user asked to stop",
/// not as a failure: nothing partial is returned or cached.
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
    using std::runtime_error::runtime_error;
};

} // namespace core
