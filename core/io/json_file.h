#pragma once
/// Writes a JSON document (nlohmann/json, keys in insertion order) atomically: on failure it
/// throws std::runtime_error naming the path and leaves no partial file. NaN and infinities
/// are written as null (JSON has no such numbers).
#include <string>

#include <nlohmann/json.hpp>

namespace core {

void writeJsonFile(const std::string &path, const nlohmann::ordered_json &json);

} // namespace core
