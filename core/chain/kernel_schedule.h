#pragma once
/// Which proposal and temperature a chain's iteration runs with, and the segments they make:
/// the burn-in's schedule, the target's, a live change of T or step (LiveTuning) and an
/// adaptive proposal learning its scale again after a change of T. The layer of the chain loop
/// that changes the kernel between iterations; it writes the segments, the learned proposal and
/// what is being learned into the chain's result.
#include <cstdint>
#include <memory>

#include "core/chain/chain_clock.h"
#include "core/chain/chain_runner.h"

namespace core {

class KernelSchedule {
public:
    /// Starts the result's segments: the burn-in's (with one) and the target's.
    KernelSchedule(const Proposal &proposal, const ChainSettings &settings, ChainResult &result,
                   const ChainClock &clock);

    /// Before iteration t: a live change requested since the last look, the burn-in's end
    /// (the adaptation freezes) and a re-adaptation's end, in that order.
    void advanceTo(std::int64_t t);
    const Proposal &proposalAt(std::int64_t t) const
    {
        return t < m_settings.burnIn && m_settings.burnInProposal ? *m_settings.burnInProposal : *m_main;
    }
    double temperatureAt(std::int64_t t) const
    {
        return t < m_settings.burnIn ? m_settings.burnInTemperature : m_temperature;
    }
    /// The proposal the target runs with now.
    const Proposal &mainProposal() const { return *m_main; }
    /// After iteration t: an adaptation or re-adaptation in progress learns from its outcome.
    void observe(std::int64_t t, const Vector &current, bool accepted);
    /// Copies what is being learned into the result, for a progress report after `completed`
    /// iterations (allocates, but once per report at most).
    void reportLearning(std::int64_t completed);
    /// After the last iteration: a re-adaptation cut short freezes as it stands, so that a next
    /// lap goes on with a fixed kernel.
    void finish();

private:
    void applyTuning(std::int64_t t);
    bool startRelearning(std::int64_t t);
    void beginTarget(std::int64_t t);

    const Proposal &m_proposal; // the configured main proposal
    const ChainSettings &m_settings;
    ChainResult &m_result;
    const ChainClock &m_clock;
    AdaptiveProposal *m_adaptation; // learns during the burn-in (null without one)
    double m_temperature;           // the target's T; live tuning changes it
    const Proposal *m_main;
    std::unique_ptr<Proposal> m_retuned; // owns m_main after a step change
    // Owns m_main after a change of T under an adaptive proposal: it learns its scale again
    // until m_relearnEnd, then freezes (ChainSegment::relearning).
    std::shared_ptr<AdaptiveProposal> m_relearner;
    std::int64_t m_relearnEnd = -1;
    double m_proposalTemperature; // the T the main proposal's scale was learned for
    std::uint64_t m_seenTuning = 0;
};

} // namespace core
