#pragma once
/// AustereMH(nc), the non-conservative AustereMH of the papers' comparisons (Seita et al.,
/// "Minibatch Acceptance Test" (later version), Sec. 6.2, its appendix C.2.1): at every iteration
/// it computes μ and σ_l of the proposal on the full data, and runs the sequential test with the
/// cheapest (m, ε) of the design grid whose acceptance error for that proposal is within the bound.
/// The full-data pass is counted in Decision::fullScanPoints, apart from the minibatch data.
#include <memory>
#include <vector>

#include "core/acceptance/austere_designer.h"
#include "core/acceptance/sequential_tests.h"

namespace core {

class AustereAdaptiveTest final : public AcceptanceTest {
public:
    /// errorBound > 0 bounds |ΔP| per proposal. Throws std::invalid_argument without a designer.
    AustereAdaptiveTest(std::shared_ptr<const AustereDesigner> designer, double errorBound);

    std::string name() const override { return "austere-nc"; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
    void restartSampling() override
    {
        for (AustereTest &test : m_tests)
            test.restartSampling();
    }

private:
    std::shared_ptr<const AustereDesigner> m_designer;
    double m_errorBound;
    std::vector<AustereTest> m_tests; // one per design, each caching its own thresholds
};

} // namespace core
