#include "core/models/model_capabilities.h"

#include <array>

namespace core {
namespace {

struct CapabilityText {
    ModelCapability capability;
    std::string_view key;
    std::string_view name;
};

constexpr std::array kCapabilityTexts = {
    CapabilityText{ModelCapability::Gradient, "gradient", "per-point gradients"},
    CapabilityText{ModelCapability::TaylorProxies, "taylor-proxies", "Taylor proxies"},
    CapabilityText{ModelCapability::TaylorRemainderBound, "taylor-remainder-bound", "a bound on the Taylor remainders"},
    CapabilityText{ModelCapability::PointLipschitz, "point-lipschitz", "per-point Lipschitz constants"},
    CapabilityText{ModelCapability::CollapsibleLowerBound, "collapsible-lower-bound",
                   "collapsible lower bounds on each point's likelihood"},
    CapabilityText{ModelCapability::LaplaceFit, "laplace-fit", "a Laplace fit"},
    CapabilityText{ModelCapability::ResidualRange, "residual-range", "a bound on the residuals' range for each move"},
    CapabilityText{ModelCapability::GradientLipschitz, "gradient-lipschitz", "per-coordinate Lipschitz constants of "
                                                                            "each point's gradient"},
};

// The table is indexed by the enum: its rows must stay in the enum's order.
constexpr bool inEnumOrder()
{
    for (std::size_t k = 0; k < kCapabilityTexts.size(); ++k)
        if (static_cast<std::size_t>(kCapabilityTexts[k].capability) != k)
            return false;
    return true;
}
static_assert(inEnumOrder(), "kCapabilityTexts must list the capabilities in ModelCapability's order");

const CapabilityText &textOf(ModelCapability capability)
{
    return kCapabilityTexts[static_cast<std::size_t>(capability)];
}

} // namespace

std::vector<ModelCapability> CapabilitySet::members() const
{
    std::vector<ModelCapability> list;
    for (ModelCapability capability : allCapabilities())
        if (has(capability))
            list.push_back(capability);
    return list;
}

const std::vector<ModelCapability> &allCapabilities()
{
    static const std::vector<ModelCapability> all = [] {
        std::vector<ModelCapability> list;
        for (const CapabilityText &text : kCapabilityTexts)
            list.push_back(text.capability);
        return list;
    }();
    return all;
}

std::string_view capabilityName(ModelCapability capability)
{
    return textOf(capability).name;
}

std::string_view capabilityKey(ModelCapability capability)
{
    return textOf(capability).key;
}

} // namespace core
