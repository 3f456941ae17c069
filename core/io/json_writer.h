#pragma once
/// A flat JSON object with keys in insertion order, for run summaries. Numbers are written
/// with round-trip precision; NaN and infinities become null (JSON has no such numbers).
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace core {

class JsonObject {
public:
    JsonObject &add(const std::string &key, const std::string &value);
    JsonObject &add(const std::string &key, const char *value) { return add(key, std::string(value)); }
    JsonObject &add(const std::string &key, double value);
    JsonObject &add(const std::string &key, std::int64_t value);
    JsonObject &add(const std::string &key, std::uint64_t value);
    JsonObject &add(const std::string &key, int value) { return add(key, static_cast<std::int64_t>(value)); }
    JsonObject &add(const std::string &key, bool value);
    /// Nests another object under `key`.
    JsonObject &add(const std::string &key, const JsonObject &value);

    void write(std::ostream &out, int indent = 0) const;
    std::string toString() const;

    static std::string quote(const std::string &text);

private:
    std::vector<std::pair<std::string, std::string>> m_entries; // key, encoded value
};

} // namespace core
