#include "app/cli/progress_bar.h"

#include <cstdio>

#include <unistd.h>

namespace cli {

ProgressBar::ProgressBar(std::string label)
    : m_label(std::move(label)), m_enabled(::isatty(STDERR_FILENO) == 1),
      m_start(std::chrono::steady_clock::now()), m_lastDraw(m_start - std::chrono::seconds(1))
{
}

void ProgressBar::update(std::int64_t done, std::int64_t total)
{
    if (!m_enabled || total <= 0)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastDraw < std::chrono::milliseconds(100) && done < total)
        return;
    m_lastDraw = now;
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    const double eta = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    constexpr int width = 30;
    const int filled = static_cast<int>(fraction * width);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '-');
    std::fprintf(stderr, "\r%s [%s] %5.1f%%  %lld/%lld  ETA %.0fs ", m_label.c_str(), bar.c_str(), 100.0 * fraction,
                 static_cast<long long>(done), static_cast<long long>(total), eta);
    std::fflush(stderr);
}

void ProgressBar::finish()
{
    if (m_enabled) {
        std::fprintf(stderr, "\r%80s\r", "");
        std::fflush(stderr);
    }
}

} // namespace cli
