#include "core/chain/kernel_schedule.h"

#include <algorithm>
#include <cmath>

namespace core {

KernelSchedule::KernelSchedule(const Proposal &proposal, const ChainSettings &settings, ChainResult &result,
                               const ChainClock &clock)
    : m_proposal(proposal), m_settings(settings), m_result(result), m_clock(clock),
      m_adaptation(settings.burnIn > 0 ? settings.adaptation : nullptr), m_temperature(settings.temperature),
      m_main(&proposal),
      m_proposalTemperature(settings.proposalTemperature > 0.0 ? settings.proposalTemperature : settings.temperature)
{
    // The target segment starts where the burn-in ends: burn-in rows, sampled at T₀, must not
    // enter ESS, R-hat or the posterior metrics.
    if (settings.burnIn > 0) {
        const Proposal &burnInStep = settings.burnInProposal ? *settings.burnInProposal : proposal;
        result.segments.push_back({0, settings.burnInTemperature, burnInStep.step(), 0.0, true});
    }
    result.segments.push_back({settings.burnIn, m_temperature, proposal.step(), 0.0});
    result.segments.back().kernelChanged = settings.newKernel;
}

void KernelSchedule::advanceTo(std::int64_t t)
{
    if (m_settings.tuning && m_settings.tuning->version() != m_seenTuning)
        applyTuning(t);
    if (t == m_settings.burnIn && t > 0)
        beginTarget(t);
    if (t == m_relearnEnd) {
        m_relearner->freeze();
        m_relearnEnd = -1;
        m_result.adaptation = m_relearner->learned();
        m_result.learning.reset();
        m_result.segments.push_back({t, m_temperature, m_relearner->step(), m_clock.seconds()});
    }
}

void KernelSchedule::beginTarget(std::int64_t t)
{
    m_result.segments.back().startSeconds = m_clock.seconds();
    if (!m_adaptation)
        return;
    m_adaptation->freeze();
    m_result.adaptation = m_adaptation->learned();
    m_result.learning.reset();
    if (m_main == m_adaptation) { // the target segment runs with the learned scale
        m_result.segments.back().step = m_adaptation->step();
        // T changed during the burn-in: the scale was learned for the old T, so it is rescaled
        // and learned again from here, as for a change after the burn-in.
        if (m_temperature != m_proposalTemperature && startRelearning(t)) {
            m_result.segments.back().step = m_main->step();
            m_result.segments.back().relearning = m_relearnEnd > t;
        }
    }
}

// After a change of T, an adaptive main proposal's scale rescaled by √(T′/T) at iteration t and
// learned again from there (AdaptiveProposal::relearning). false: it cannot re-learn (or is not
// adaptive), and the chain goes on with its kernel.
bool KernelSchedule::startRelearning(std::int64_t t)
{
    m_relearnEnd = -1;
    const auto *adaptive = dynamic_cast<const AdaptiveProposal *>(m_main);
    if (!adaptive)
        return false;
    std::shared_ptr<AdaptiveProposal> next = adaptive->relearning(std::sqrt(m_temperature / m_proposalTemperature));
    if (!next)
        return false;
    m_relearner = std::move(next);
    m_main = m_relearner.get();
    const std::int64_t length = std::min(m_settings.relearnIterations > 0 ? m_settings.relearnIterations
                                                                          : relearnLength(m_settings.burnIn),
                                         (m_settings.samples - t) / 2);
    if (length > 0) {
        m_relearnEnd = t + length;
    } else {
        m_relearner->freeze(); // no room to learn: the rescaled kernel alone
        m_result.adaptation = m_relearner->learned();
    }
    m_proposalTemperature = m_temperature;
    m_result.relearnedProposal = m_relearner;
    m_result.relearnedTemperature = m_temperature;
    return true;
}

void KernelSchedule::applyTuning(std::int64_t t)
{
    const LiveTuning::Request request = m_settings.tuning->latest();
    m_seenTuning = request.version;
    const bool newTemperature = std::isfinite(request.temperature) && request.temperature != m_temperature;
    const bool newStep = std::isfinite(request.step) && request.step != m_main->step();
    if (!newTemperature && !newStep)
        return;
    if (newTemperature)
        m_temperature = request.temperature;
    if (newStep) {
        // The user's step wins over any re-adaptation in progress.
        m_retuned = m_proposal.withStep(request.step); // allocates once per change only
        m_main = m_retuned.get();
        if (m_relearnEnd >= 0)
            m_result.learning.reset(); // no scale is being learned any more: the ellipse must not say so
        m_relearnEnd = -1;
        // Nor may a continuous run's next lap go on with the re-learned step.
        m_result.relearnedProposal.reset();
    } else if (t >= m_settings.burnIn && m_temperature != m_proposalTemperature) {
        // (A change during the burn-in applies where it ends, to what the burn-in learned.)
        startRelearning(t);
    }
    // During a burn-in the schedule's own T and proposal run on: the change takes effect, and
    // its segment starts, when the burn-in ends.
    const std::int64_t begins = std::max(t, m_settings.burnIn);
    const double seconds = t < m_settings.burnIn ? 0.0 // set when the burn-in ends
                                                 : m_clock.seconds();
    ChainSegment segment{begins, m_temperature, m_main->step(), seconds};
    segment.relearning = m_relearnEnd > t;
    if (m_result.segments.back().start >= begins) {
        segment.kernelChanged = m_result.segments.back().kernelChanged;
        m_result.segments.back() = segment; // nothing ran with the previous settings
    } else {
        m_result.segments.push_back(segment);
    }
}

void KernelSchedule::observe(std::int64_t t, const Vector &current, bool accepted)
{
    if (t < m_settings.burnIn && m_adaptation)
        m_adaptation->observe(current, accepted);
    else if (m_relearnEnd > t)
        m_relearner->observe(current, accepted);
}

void KernelSchedule::reportLearning(std::int64_t completed)
{
    if (m_adaptation && !m_adaptation->frozen())
        m_result.learning = m_adaptation->learned();
    else if (m_relearnEnd > completed)
        m_result.learning = m_relearner->learned();
}

void KernelSchedule::finish()
{
    if (m_relearnEnd < 0)
        return;
    m_relearner->freeze();
    m_relearnEnd = -1; // nothing is learned any more: the last report must not say so
    m_result.adaptation = m_relearner->learned();
    m_result.learning.reset();
}

} // namespace core
