#pragma once
// A one-line progress bar on stderr, drawn only when stderr is a terminal.
#include <chrono>
#include <cstdint>
#include <string>

namespace cli {

class ProgressBar {
public:
    explicit ProgressBar(std::string label);
    /// Redraws at most ~10 times a second.
    void update(std::int64_t done, std::int64_t total);
    /// Clears the line.
    void finish();

private:
    std::string m_label;
    bool m_enabled;
    std::chrono::steady_clock::time_point m_start, m_lastDraw;
};

} // namespace cli
