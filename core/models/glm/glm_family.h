#pragma once
/// The response distributions of the generalised linear models: each point's log-likelihood is
/// a function ℓ(y, z) of its response y and its linear predictor z = x̃ᵀθ alone, so everything
/// a method needs of the model (ratios, gradients, Taylor proxies and their remainder bounds,
/// Lipschitz constants) follows from ℓ's derivatives in z:
///
///   ∂ℓ_i/∂θ = ℓ'(y_i, z_i) x̃_i,   ∂²ℓ_i/∂θ∂θᵀ = ℓ''(y_i, z_i) x̃_i x̃_iᵀ,
///   |∂^{k}ℓ_i/∂θ_{j1}…∂θ_{jk}| ≤ sup|ℓ^{(k)}| · max_j |x̃_ij|^k.
///
/// The last line is the per-point bound of Cornish et al. ("Scalable Metropolis–Hastings for exact
/// Bayesian inference with large datasets", ICML 2019, Sec. 3.2 and their Sec. 4's logistic and
/// robust-regression constants), the first-derivative one with ‖x̃_i‖₂ the Lipschitz constant of
/// Zhang, Cooper & De Sa ("Asymptotically Optimal Exact Minibatch Metropolis–Hastings", NeurIPS
/// 2020, Sec. 4). A family states sup_{y,z}|ℓ^{(k)}| for k = 1, 2, 3, or that it is unbounded;
/// the model offers exactly the capabilities those bounds allow (its row of model_registry.h,
/// which says why it lacks the others).
///
/// The families evaluate whole chunks of points (one virtual call per chunk, never per point).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/models/model_capabilities.h"

namespace core {

class Rng;

/// What a response may be.
enum class GlmResponse {
    Binary, ///< 0 or 1
    Count,  ///< a non-negative integer
    Real,   ///< any finite number
};

/// A GLM's response distribution: the family by its model's name (Model::name()) and the
/// family's parameters.
struct GlmFamilySpec {
    /// "probit", "poisson", "linear" or "robust-linear" (glmFamilyNames()).
    std::string name = "robust-linear";
    /// A model plugin's file (core/models/plugin/mhx_model_plugin.h); when set, the plugin is
    /// the family and `name`, `nu` and `noiseScale` are not used.
    std::string plugin;
    /// robust-linear: the Student-t's degrees of freedom ν > 0.
    double nu = 4.0;
    /// linear: the Gaussian noise's sd; robust-linear: the Student-t's scale. > 0.
    double noiseScale = 1.0;

    bool operator==(const GlmFamilySpec &) const = default;
};

/// The families' names, in the order help and boxes list them.
const std::vector<std::string> &glmFamilyNames();

class GlmFamily {
public:
    virtual ~GlmFamily() = default;
    /// The model's name (Model::name(), its row of model_registry.h; a plugin's own).
    virtual std::string_view name() const = 0;
    virtual GlmResponse response() const = 0;
    /// One line for headers: "Student-t (nu = 4, scale 1) robust linear regression".
    virtual std::string describe() const = 0;
    /// out[k] = ℓ(y[k], z[k]) for k < n, normalising constants included.
    virtual void logLikelihood(const double *y, const double *z, double *out, int n) const = 0;
    /// out[k] = ℓ(y[k], to[k]) − ℓ(y[k], from[k]): the hot loop of every test. The default takes
    /// the difference of logLikelihood(); the families override it with Eigen's vectorised exp
    /// and log, leaving out what cancels (log y!, normalising constants).
    virtual void logLikelihoodRatio(const double *y, const double *from, const double *to, double *out, int n) const;
    /// first[k] = ∂ℓ/∂z and second[k] = ∂²ℓ/∂z² at (y[k], z[k]).
    virtual void derivatives(const double *y, const double *z, double *first, double *second, int n) const = 0;
    /// sup over every response and every z of |∂^k ℓ/∂z^k| for k = 1, 2 or 3; std::nullopt
    /// where it is unbounded.
    virtual std::optional<double> derivativeBound(int k) const = 0;
    /// sup over every response and every z ≤ zMax of |∂^k ℓ/∂z^k|: where no global bound exists
    /// there may be one below a margin (Poisson: e^{zMax} for k ≥ 2), which bounds the Taylor
    /// remainders of a move near the anchor. The default is derivativeBound(k).
    virtual std::optional<double> derivativeBoundBelow(int k, double zMax) const;
    /// A response drawn from the model at linear predictor z (the synthetic data).
    virtual double sampleResponse(double z, Rng &rng) const = 0;
    /// Whether derivatives() fills `second`: every built-in family does; a plugin may leave ℓ''
    /// out, and its model then lacks what needs it (plugin_family.h).
    virtual bool hasSecondDerivative() const { return true; }
    /// Writes where chains and the Laplace fit start (theta.size(): the model's dimension) and
    /// returns true, or returns false to start at 0 (the default).
    virtual bool initialPoint(std::span<double>) const { return false; }
    /// For a family outside the model table (a plugin): why its model lacks `capability`.
    virtual std::string whyItLacks(ModelCapability) const { return {}; }
};

/// The family of `spec`: the plugin's where spec.plugin is set (loadModelPlugin). Throws
/// std::invalid_argument naming the setting for an unknown family, ν ≤ 0 or a scale ≤ 0 (each
/// also not finite), and for a plugin that cannot be used (naming its file).
std::unique_ptr<const GlmFamily> makeGlmFamily(const GlmFamilySpec &spec);

/// Whether `y` is a response the family takes; where it is not, says why ("a count must be a
/// non-negative integer").
std::optional<std::string> responseProblem(GlmResponse kind, double y);

/// log Φ(u), the standard normal's log distribution function, to full relative precision for
/// every u (an asymptotic series below u = −30, where erfc underflows).
double logNormalCdf(double u);
/// φ(u)/Φ(u), the inverse Mills ratio, for every u.
double inverseMillsRatio(double u);

} // namespace core
