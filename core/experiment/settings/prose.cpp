#include "core/experiment/settings/prose.h"

namespace core {

std::string joinAsProse(const std::vector<std::string_view> &items, std::string_view conjunction)
{
    std::string text;
    for (std::size_t k = 0; k < items.size(); ++k) {
        // Appended piece by piece: GCC 12 takes "+" on std::string for an overlapping memcpy
        // (-Wrestrict, an error under -Werror).
        if (k > 0 && k + 1 == items.size()) {
            text += ' ';
            text += conjunction;
            text += ' ';
        } else if (k > 0) {
            text += ", ";
        }
        text += items[k];
    }
    return text;
}

} // namespace core
