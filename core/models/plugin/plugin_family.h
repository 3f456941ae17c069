#pragma once
/// A model from a plugin: a shared library that implements the C interface of
/// mhx_model_plugin.h, loaded as a GLM family (glm_family.h), so that GlmModel supplies the
/// data, the prior, the Taylor control variates, the Laplace fit and each method's bounds from
/// the plugin's ℓ(y, z) and its derivatives.
///
/// The model offers exactly what the plugin declares (declaredCapabilities): the gradient always,
/// the control variates and the Laplace fit with mhx_model_hessian, TunaMH's Lipschitz constants
/// with a bound on |ℓ'|, SMH's remainder bounds with bounds on |ℓ''| and |ℓ'''|. FlyMC is never
/// offered: the interface has no collapsible lower bound.
#include <memory>
#include <string>

#include "core/models/glm/glm_family.h"
#include "core/models/model_capabilities.h"

namespace core {

/// Loads the plugin at `path`. Throws std::invalid_argument naming the file, and the function
/// where one is at fault, when the file is missing or is not a shared library, when its
/// interface version is not this program's, when a required function is missing, when its
/// name is not usable, and when a probe of its functions at a few responses and predictors
/// returns a failure or a value that is not a finite number. Later failures (a function that
/// fails or returns NaN during a run) throw std::invalid_argument from the call, naming the file
/// and the function; the run stops with that message.
std::unique_ptr<const GlmFamily> loadModelPlugin(const std::string &path);

/// The capabilities a family outside the model table declares through its derivatives and
/// bounds (see the file comment): a plugin's, or a C++ family of the caller's own. The built-in
/// families' rows of model_registry.h hold theirs instead.
CapabilitySet declaredCapabilities(const GlmFamily &family);

} // namespace core
