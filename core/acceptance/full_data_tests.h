#pragma once
/// The exact tests that read all N points at every iteration: the reference the minibatch
/// tests approximate, and the baseline their speed is measured against.
#include "core/acceptance/acceptance_test.h"

namespace core {

/// Exact Δ of Eq. 6 over the full data (Seita et al., "Minibatch Acceptance Test", Sec. 3.1).
double fullDataDelta(const TestProblem &problem);

/// Classical Metropolis–Hastings: accept iff log u < Δ, u ~ U(0, 1) (Seita et al., "Minibatch
/// Acceptance Test", Eq. 1). Pr(accept) = min(1, e^Δ).
class MetropolisTest final : public AcceptanceTest {
public:
    std::string name() const override { return "mh"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
};

/// Announces the pass over all rows that every iteration of a full-data test makes, where that
/// is slow (rows read in place from a file): the returned token reports the first one's time.
std::shared_ptr<const void> announceFullDataTest(const TestProblem &problem);

/// Barker's logistic test: accept iff Δ + X_log > 0, X_log standard logistic
/// (Seita et al., "Minibatch Acceptance Test", Sec. 3.2, Eq. 9–10). Pr(accept) = 1 / (1 + e^−Δ).
class BarkerTest final : public AcceptanceTest {
public:
    std::string name() const override { return "barker"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
};

} // namespace core
