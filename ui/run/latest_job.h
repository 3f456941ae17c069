#pragma once
// "The latest background job wins": each job started takes a ticket, and when a job finishes
// its result is used only if its ticket is still the newest. Older jobs may run on (or be
// cancelled by their owner); their results are dropped. GUI-thread only: tickets are handed
// out and checked on the thread that owns the object.
#include <cstdint>

namespace ui {

class LatestJob {
public:
    using Ticket = std::uint64_t;

    /// A ticket for a job starting now; every earlier ticket becomes stale.
    Ticket begin() { return ++m_newest; }
    /// Whether the job holding `ticket` is the newest one begun (its result is wanted).
    bool isLatest(Ticket ticket) const { return ticket == m_newest; }
    /// Makes every ticket handed out so far stale, without starting a job.
    void invalidate() { ++m_newest; }

private:
    Ticket m_newest = 0;
};

} // namespace ui
