#pragma once
/// Writes a JSON document (nlohmann/json, keys in insertion order) atomically: on failure it
/// throws std::runtime_error naming the path and leaves no partial file. NaN and infinities
/// are written as null (JSON has no such numbers).
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace core {

/// `value`, or null where it is NaN or infinite: a figure a run does not have is null in every
/// summary, whichever way the document is then written.
inline nlohmann::ordered_json jsonNumber(double value)
{
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

void writeJsonFile(const std::string &path, const nlohmann::ordered_json &json);

} // namespace core
