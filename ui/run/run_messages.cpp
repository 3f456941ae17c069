#include "ui/run/run_messages.h"

#include <stdexcept>
#include <string>

#include "ui/charts/posterior_heat_map.h"

namespace ui {
namespace {

constexpr int kWindowMaxChains = 4;

} // namespace

void validateInWindow(const RunRequest &request)
{
    if (request.methods.empty() || request.methods.size() > static_cast<std::size_t>(kWindowMaxMethods))
        throw std::invalid_argument("methods: choose 1 to " + std::to_string(kWindowMaxMethods) + " methods; got "
                                    + std::to_string(request.methods.size()));
    if (request.chains < 1 || request.chains > kWindowMaxChains)
        throw std::invalid_argument("chains must be in [1, 4]; got " + std::to_string(request.chains));
    for (core::TestMethod method : request.methods)
        if (method == core::TestMethod::AustereNonConservative && !(request.config.austereErrorBound > 0.0))
            throw std::invalid_argument("austere-nc picks its design every iteration under a bound on |ΔP|: set "
                                        "\"AustereMH |ΔP| bound\" in the minibatch-test settings above 0 (e.g. 0.01)");
    core::validate(request);
}

void registerRunMetaTypes()
{
    qRegisterMetaType<core::RunConfig>();
    qRegisterMetaType<core::ChainSegment>();
    qRegisterMetaType<ui::RunRequest>();
    qRegisterMetaType<ui::RunSnapshot>();
    qRegisterMetaType<ui::RunOutcome>();
    qRegisterMetaType<ui::PosteriorImage>();
}

} // namespace ui
