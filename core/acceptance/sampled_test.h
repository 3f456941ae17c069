#pragma once
/// What the sequential minibatch tests share (the corrected and naive minibatch Barker tests,
/// AustereMH, MHSubLhd): settings checked once by their validate(), and a minibatch drawn
/// without replacement whose sampler restarts with the chain's random stream
/// (AcceptanceTest::restartSampling), so that a chain resumed from a checkpoint draws the
/// same minibatches as the uninterrupted one.
#include "core/acceptance/acceptance_test.h"

namespace core {

template <typename Settings, typename Batch>
class SampledTest : public AcceptanceTest {
public:
    void restartSampling() override { m_batch.restartSampling(); }

protected:
    /// Throws std::invalid_argument for invalid settings (validate(Settings), found by ADL).
    explicit SampledTest(Settings settings) : m_settings(settings) { validate(m_settings); }

    Settings m_settings;
    Batch m_batch;
};

} // namespace core
