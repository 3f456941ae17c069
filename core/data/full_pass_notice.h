#pragma once
/// Every pass over all rows of data read in place from a file (a full-data test, a Laplace fit,
/// the control variates' sums, standardisation, per-point bounds) is announced before it starts,
/// with its size and estimated time, and again when it ends with the time it took: on a file
/// larger than memory such a pass reads the whole file from disk, minutes where a minibatch
/// test takes microseconds, and a user must see why the run is waiting. Passes over data in
/// memory are not announced.
///
/// The announcements go to one listener for the process (the CLI prints them on stderr, the
/// app in its log), set once at start-up before any run.
#include <chrono>
#include <functional>
#include <string>

#include "core/data/classification_data.h"

namespace core {

using FullPassListener = std::function<void(const std::string &)>;

/// Sets where announcements go; an empty function silences them. Thread-safe.
void setFullPassListener(FullPassListener listener);

/// Announces a pass on construction and its end on destruction, and advises the mapping to
/// read ahead meanwhile. `passes` > 1 announces an iterative step (a Newton fit) by its passes;
/// notices opened on the same thread while one is open stay silent (they are part of it).
class FullPassNotice {
public:
    FullPassNotice(const ClassificationData &data, const std::string &what, int passes = 1);
    ~FullPassNotice();
    FullPassNotice(const FullPassNotice &) = delete;
    FullPassNotice &operator=(const FullPassNotice &) = delete;

private:
    const MappedFeatureRows *m_rows = nullptr;
    bool m_silent = false; ///< inside another notice, or told a moment ago
    std::string m_what;
    std::chrono::steady_clock::time_point m_started;
};

/// The text of an announcement, for the listener and tests: "reading all 375000000 rows of
/// big.npy (30.0 GB) for WHAT: about 61 s at the 492 MB/s measured when it was opened", with
/// "a pass, up to K passes," after the time for an iterative step.
std::string fullPassAnnouncement(const MappedFeatureRows &rows, const std::string &what, int passes);

} // namespace core
