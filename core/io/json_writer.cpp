#include "core/io/json_writer.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/io/atomic_file.h"

namespace core {

std::string JsonObject::quote(const std::string &text)
{
    std::string out = "\"";
    for (const unsigned char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                out += buffer;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

JsonObject &JsonObject::add(const std::string &key, const std::string &value)
{
    m_entries.emplace_back(key, quote(value));
    return *this;
}

JsonObject &JsonObject::add(const std::string &key, double value)
{
    m_entries.emplace_back(key, std::isfinite(value) ? formatRoundTrip(value) : "null");
    return *this;
}

JsonObject &JsonObject::add(const std::string &key, std::int64_t value)
{
    m_entries.emplace_back(key, std::to_string(value));
    return *this;
}

JsonObject &JsonObject::add(const std::string &key, std::uint64_t value)
{
    m_entries.emplace_back(key, std::to_string(value));
    return *this;
}

JsonObject &JsonObject::add(const std::string &key, bool value)
{
    m_entries.emplace_back(key, value ? "true" : "false");
    return *this;
}

JsonObject &JsonObject::add(const std::string &key, const JsonObject &value)
{
    std::ostringstream nested;
    value.write(nested, 0); // indented where it lands, in write()
    m_entries.emplace_back(key, nested.str());
    return *this;
}

void JsonObject::write(std::ostream &out, int indent) const
{
    const std::string pad(static_cast<std::size_t>(2 * (indent + 1)), ' ');
    out << "{\n";
    for (std::size_t k = 0; k < m_entries.size(); ++k) {
        out << pad << quote(m_entries[k].first) << ": ";
        // A nested object's lines move in by this level's padding, at any depth. Encoded
        // strings never hold a raw newline (quote() escapes it), so every '\n' is structure.
        for (char c : m_entries[k].second) {
            out << c;
            if (c == '\n')
                out << pad;
        }
        out << (k + 1 < m_entries.size() ? ",\n" : "\n");
    }
    out << std::string(static_cast<std::size_t>(2 * indent), ' ') << "}";
}

std::string JsonObject::toString() const
{
    std::ostringstream out;
    write(out);
    return out.str();
}

} // namespace core
