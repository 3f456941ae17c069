#include "core/data/full_pass_notice.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/io/mapped_file.h"

namespace core {
namespace {

std::mutex &listenerMutex()
{
    static std::mutex mutex;
    return mutex;
}

FullPassListener &listener()
{
    static FullPassListener current;
    return current;
}

void tell(const std::string &text)
{
    const std::lock_guard lock(listenerMutex());
    if (listener())
        listener()(text);
}

// Passes inside an announced pass (the Newton steps of a fit) are part of it: only the
// outermost notice on a thread speaks.
thread_local int openNotices = 0;

// A pass repeated at every iteration (a full-data test) or for every chain is told once a
// minute per file, not once per call.
bool toldRecently(const MappedFeatureRows *rows, const std::string &what)
{
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, std::chrono::steady_clock::time_point> told;
    const std::lock_guard lock(mutex);
    const auto now = std::chrono::steady_clock::now();
    const auto key = std::make_pair(rows->file->path(), what);
    const auto found = told.find(key);
    if (found != told.end() && now - found->second < std::chrono::seconds(60))
        return true;
    told[key] = now;
    return false;
}

std::string printed(const char *format, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

} // namespace

void setFullPassListener(FullPassListener next)
{
    const std::lock_guard lock(listenerMutex());
    listener() = std::move(next);
}

std::string fullPassAnnouncement(const MappedFeatureRows &rows, const std::string &what, int passes)
{
    const double rate = rows.file->sequentialReadRate();
    const double seconds = static_cast<double>(rows.passBytes()) / rate;
    const std::string name = std::filesystem::path(rows.file->path()).filename().string();
    return "reading all " + std::to_string(rows.rows()) + " rows of " + name + " ("
           + printed("%.1f GB", static_cast<double>(rows.passBytes()) / 1e9) + ") for " + what + ": about "
           + printed(seconds < 10 ? "%.1f s" : "%.0f s", seconds)
           + (passes > 1 ? " a pass, up to " + std::to_string(passes) + " passes," : std::string()) + " at the "
           + printed("%.0f MB/s", rate / 1e6) + " measured when it was opened";
}

FullPassNotice::FullPassNotice(const ClassificationData &data, const std::string &what, int passes)
    : m_rows(data.mapped.get()), m_what(what), m_started(std::chrono::steady_clock::now())
{
    if (!m_rows)
        return;
    // Open, told or not, so that the passes inside this one stay silent.
    const bool inside = openNotices++ > 0;
    if (inside || toldRecently(m_rows, what)) {
        m_silent = true;
        return;
    }
    tell(fullPassAnnouncement(*m_rows, what, passes));
    m_rows->file->advise(MappedFile::Access::Sequential);
}

FullPassNotice::~FullPassNotice()
{
    if (!m_rows)
        return;
    --openNotices;
    if (m_silent)
        return;
    m_rows->file->advise(MappedFile::Access::Random);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
    tell("read all rows for " + m_what + " in " + printed("%.1f s", seconds));
}

} // namespace core
