#include "core/models/plugin/plugin_family.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/models/model_registry.h"
#include "core/models/plugin/mhx_model_plugin.h"
#include "core/random/rng.h"

namespace core {
namespace {

using VersionFunction = int (*)();
using TextFunction = const char *(*)();
using IntFunction = int (*)();
using PointsFunction = int (*)(const double *, const double *, double *, std::size_t);
using BoundFunction = int (*)(int, double *);
using SampleFunction = int (*)(double, double, double *);
using InitialPointFunction = int (*)(double *, std::size_t);

// The library stays loaded while any family made from it lives.
using LibraryHandle = std::shared_ptr<void>;

[[noreturn]] void fail(const std::string &path, const std::string &what)
{
    throw std::invalid_argument("model plugin " + path + ": " + what);
}

// The function `symbol` of the library, or null where it does not export it.
template <typename Function>
Function lookUp(void *library, const char *symbol)
{
    dlerror();
    void *address = dlsym(library, symbol);
    return dlerror() == nullptr ? reinterpret_cast<Function>(address) : nullptr;
}

template <typename Function>
Function require(void *library, const std::string &path, const char *symbol)
{
    if (Function function = lookUp<Function>(library, symbol))
        return function;
    fail(path, std::string("it does not export ") + symbol
                   + ", which every plugin must (see mhx_model_plugin.h; a C++ plugin declares it extern \"C\")");
}

std::string checkedName(const std::string &path, const char *name)
{
    if (name == nullptr || *name == '\0')
        fail(path, "mhx_model_name returned no name");
    const std::string text(name);
    const bool usable = text.size() <= 40 && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    if (!usable)
        fail(path, "mhx_model_name returned '" + text + "'; a name is at most 40 letters, digits, '-' or '_'");
    if (findModel(text))
        fail(path, "mhx_model_name returned '" + text + "', the name of a model built into the program; rename it");
    return text;
}

class PluginFamily final : public GlmFamily {
public:
    PluginFamily(LibraryHandle library, std::string path) : m_library(std::move(library)), m_path(std::move(path))
    {
        void *lib = m_library.get();
        const auto version = require<VersionFunction>(lib, m_path, "mhx_model_plugin_version")();
        if (version != MHX_MODEL_PLUGIN_VERSION)
            fail(m_path, "mhx_model_plugin_version returned " + std::to_string(version) + "; this program reads version "
                             + std::to_string(MHX_MODEL_PLUGIN_VERSION) + " of mhx_model_plugin.h; rebuild the plugin against it");
        m_name = checkedName(m_path, require<TextFunction>(lib, m_path, "mhx_model_name")());
        const char *description = require<TextFunction>(lib, m_path, "mhx_model_description")();
        m_description = description ? description : m_name;
        const int kind = require<IntFunction>(lib, m_path, "mhx_model_response_kind")();
        if (kind == MHX_RESPONSE_BINARY)
            m_response = GlmResponse::Binary;
        else if (kind == MHX_RESPONSE_COUNT)
            m_response = GlmResponse::Count;
        else if (kind == MHX_RESPONSE_REAL)
            m_response = GlmResponse::Real;
        else
            fail(m_path, "mhx_model_response_kind returned " + std::to_string(kind)
                             + "; it must be MHX_RESPONSE_BINARY, MHX_RESPONSE_COUNT or MHX_RESPONSE_REAL");
        m_logLikelihood = require<PointsFunction>(lib, m_path, "mhx_model_log_likelihood");
        m_gradient = require<PointsFunction>(lib, m_path, "mhx_model_gradient");
        m_hessian = lookUp<PointsFunction>(lib, "mhx_model_hessian");
        m_sample = lookUp<SampleFunction>(lib, "mhx_model_sample_response");
        m_initialPoint = lookUp<InitialPointFunction>(lib, "mhx_model_initial_point");
        if (const auto bound = lookUp<BoundFunction>(lib, "mhx_model_derivative_bound"))
            for (int order = 1; order <= 3; ++order) {
                double value = 0.0;
                if (bound(order, &value) != 0)
                    continue; // the supremum is infinite: a declaration, not a failure
                if (!std::isfinite(value) || value < 0.0)
                    fail(m_path, "mhx_model_derivative_bound(" + std::to_string(order) + ") gave "
                                     + std::to_string(value) + "; a bound is a finite number >= 0");
                m_bounds[static_cast<std::size_t>(order - 1)] = value;
            }
        probe();
    }

    std::string_view name() const override { return m_name; }
    GlmResponse response() const override { return m_response; }
    std::string describe() const override { return m_description + " (model plugin " + m_path + ")"; }

    void logLikelihood(const double *y, const double *z, double *out, int n) const override
    {
        call(m_logLikelihood, "mhx_model_log_likelihood", y, z, out, n);
    }

    void derivatives(const double *y, const double *z, double *first, double *second, int n) const override
    {
        call(m_gradient, "mhx_model_gradient", y, z, first, n);
        if (m_hessian)
            call(m_hessian, "mhx_model_hessian", y, z, second, n);
        else
            std::fill(second, second + n, std::nan(""));
    }

    std::optional<double> derivativeBound(int k) const override
    {
        if (k < 1 || k > 3)
            return std::nullopt;
        return m_bounds[static_cast<std::size_t>(k - 1)];
    }

    double sampleResponse(double z, Rng &rng) const override
    {
        if (!m_sample)
            fail(m_path, "it does not export mhx_model_sample_response, so --dataset tall-glm cannot generate data "
                         "for it; export it, or sample the model on data of your own");
        double y = 0.0;
        const double u = rng.uniformOpen01();
        if (m_sample(z, u, &y) != 0)
            fail(m_path, "mhx_model_sample_response failed at z = " + std::to_string(z));
        if (const auto problem = responseProblem(m_response, y))
            fail(m_path, "mhx_model_sample_response gave " + std::to_string(y) + " at z = " + std::to_string(z)
                             + ": " + *problem);
        return y;
    }

    bool hasSecondDerivative() const override { return m_hessian != nullptr; }

    bool initialPoint(std::span<double> theta) const override
    {
        if (!m_initialPoint)
            return false;
        if (m_initialPoint(theta.data(), theta.size()) != 0)
            fail(m_path, "mhx_model_initial_point failed for dimension " + std::to_string(theta.size()));
        for (double value : theta)
            if (!std::isfinite(value))
                fail(m_path, "mhx_model_initial_point gave a coordinate that is not a finite number");
        return true;
    }

    std::string whyItLacks(ModelCapability capability) const override
    {
        const std::string plugin = "the plugin " + m_path;
        switch (capability) {
        case ModelCapability::Gradient: return {};
        case ModelCapability::TaylorProxies:
        case ModelCapability::LaplaceFit: return plugin + " does not export mhx_model_hessian";
        case ModelCapability::PointLipschitz:
            return plugin + " declares no bound on |dl/dz| (mhx_model_derivative_bound(1))";
        case ModelCapability::TaylorRemainderBound:
        case ModelCapability::ResidualRange:
            if (!m_hessian)
                return plugin + " does not export mhx_model_hessian";
            return plugin + " declares no bound on " + std::string(!m_bounds[1] ? "|d2l/dz2|" : "|d3l/dz3|")
                   + " (mhx_model_derivative_bound(" + (!m_bounds[1] ? "2" : "3") + "))";
        case ModelCapability::CollapsibleLowerBound:
            return "the plugin interface has no collapsible lower bound of the likelihood";
        case ModelCapability::GradientLipschitz:
            return "the plugin interface has no Lipschitz constants of each point's gradient";
        }
        return {};
    }

private:
    // Calls a per-point function and checks its status and every value it wrote.
    void call(PointsFunction function, const char *symbol, const double *y, const double *z, double *out, int n) const
    {
        const int status = function(y, z, out, static_cast<std::size_t>(n));
        if (status != 0)
            fail(m_path, std::string(symbol) + " returned " + std::to_string(status) + " (failure) on "
                             + std::to_string(n) + (n == 1 ? " point" : " points") + ", the first at y = "
                             + std::to_string(n > 0 ? y[0] : 0.0) + ", z = " + std::to_string(n > 0 ? z[0] : 0.0));
        for (int k = 0; k < n; ++k)
            if (!std::isfinite(out[k]))
                fail(m_path, std::string(symbol) + " gave " + std::to_string(out[k]) + " at y = " + std::to_string(y[k])
                                 + ", z = " + std::to_string(z[k]) + "; it must give finite numbers");
    }

    // Every function over a few responses the model takes and predictors from -8 to 8, so that
    // a plugin that fails or gives NaN is refused when it is loaded, before a run; and each
    // declared bound against the derivatives there (the third by central differences of the
    // second), so that a bound that is plainly too small is refused too. A bound that holds on
    // this grid may still fail elsewhere: the plugin's author derives it.
    void probe() const
    {
        std::vector<double> responses;
        switch (m_response) {
        case GlmResponse::Binary: responses = {0.0, 1.0}; break;
        case GlmResponse::Count: responses = {0.0, 1.0, 3.0, 10.0}; break;
        case GlmResponse::Real: responses = {-3.0, -0.5, 0.0, 0.5, 3.0}; break;
        }
        constexpr double kStep = 1e-4; // for the third derivative by central differences
        std::vector<double> y, z, below, above;
        for (double response : responses)
            for (int step = -32; step <= 32; ++step) {
                y.push_back(response);
                z.push_back(0.25 * step);
                below.push_back(0.25 * step - kStep);
                above.push_back(0.25 * step + kStep);
            }
        const int n = static_cast<int>(y.size());
        std::vector<double> values(y.size()), first(y.size()), second(y.size()), secondBelow(y.size()),
            secondAbove(y.size());
        logLikelihood(y.data(), z.data(), values.data(), n);
        derivatives(y.data(), z.data(), first.data(), second.data(), n);
        std::vector<double> third;
        if (m_hessian) {
            derivatives(y.data(), below.data(), values.data(), secondBelow.data(), n);
            derivatives(y.data(), above.data(), values.data(), secondAbove.data(), n);
            for (int k = 0; k < n; ++k)
                third.push_back((secondAbove[k] - secondBelow[k]) / (2.0 * kStep));
        } else {
            second.clear();
        }
        const std::array<const std::vector<double> *, 3> derivative = {&first, &second, &third};
        for (std::size_t order = 0; order < 3; ++order) {
            if (!m_bounds[order] || derivative[order]->empty())
                continue;
            // Rounding, and for the third derivative the differences' error, stay below this.
            const double slack = order == 2 ? 1e-3 * *m_bounds[order] + 1e-5 : 1e-9 * *m_bounds[order] + 1e-12;
            for (std::size_t k = 0; k < y.size(); ++k) {
                const double value = (*derivative[order])[k];
                if (std::abs(value) > *m_bounds[order] + slack)
                    fail(m_path, "mhx_model_derivative_bound(" + std::to_string(order + 1) + ") declares "
                                     + std::to_string(*m_bounds[order]) + ", but the derivative of order "
                                     + std::to_string(order + 1) + " is " + std::to_string(value) + " at y = "
                                     + std::to_string(y[k]) + ", z = " + std::to_string(z[k])
                                     + "; a bound that is too small makes SMH and TunaMH sample the wrong distribution");
            }
        }
    }

    LibraryHandle m_library;
    std::string m_path;
    std::string m_name, m_description;
    GlmResponse m_response = GlmResponse::Real;
    PointsFunction m_logLikelihood = nullptr, m_gradient = nullptr, m_hessian = nullptr;
    SampleFunction m_sample = nullptr;
    InitialPointFunction m_initialPoint = nullptr;
    std::array<std::optional<double>, 3> m_bounds;
};

} // namespace

std::unique_ptr<const GlmFamily> loadModelPlugin(const std::string &path)
{
    if (path.empty())
        throw std::invalid_argument("model plugin: no file given");
    // dlopen searches the library path for a name without a slash; a plugin is a file.
    const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
    dlerror();
    void *library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        fail(path, std::string("cannot be loaded: ") + (why ? why : "unknown reason")
                       + " (a plugin is a shared library built against mhx_model_plugin.h)");
    }
    LibraryHandle handle(library, [](void *opened) { dlclose(opened); });
    return std::make_unique<PluginFamily>(std::move(handle), path);
}

CapabilitySet declaredCapabilities(const GlmFamily &family)
{
    using enum ModelCapability;
    CapabilitySet set{Gradient};
    if (family.hasSecondDerivative()) {
        set = set | CapabilitySet{TaylorProxies, LaplaceFit};
        if (family.derivativeBound(2) && family.derivativeBound(3))
            set = set | CapabilitySet{TaylorRemainderBound, ResidualRange};
    }
    if (family.derivativeBound(1))
        set = set | CapabilitySet{PointLipschitz};
    return set;
}

} // namespace core
