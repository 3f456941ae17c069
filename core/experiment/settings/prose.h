#pragma once
/// Lists in messages and help: "a, b or c".
#include <string>
#include <string_view>
#include <vector>

namespace core {

/// The items joined with ", " and `conjunction` before the last: "gmm, logreg or tall-logreg".
std::string joinAsProse(const std::vector<std::string_view> &items, std::string_view conjunction = "or");

} // namespace core
