#pragma once
/// Generalised linear models with a scalar linear predictor: probit, Poisson (log link), linear
/// regression with Gaussian noise and robust linear regression with Student-t noise
/// (glm_family.h), on float feature rows with a bias column appended, and a Gaussian or flat prior.
///
///   z_i = x̃_iᵀθ,  x̃_i = (x_i, 1) with the bias,   log p(y_i | θ) = ℓ(y_i, z_i).
///
/// A batch is evaluated in chunks: each row is read once for both margins z_i and z'_i (the
/// float row widened to double in registers, feature_rows.h), then the family evaluates the
/// chunk in one call. Nothing is allocated per call; every method is const and keeps its scratch
/// on the stack, so chains may share the model.
///
/// The capabilities follow from the family's derivative bounds (glm_family.h): a Taylor-remainder
/// bound where sup|ℓ''| and sup|ℓ'''| exist (Cornish et al., "Scalable Metropolis–Hastings",
/// ICML 2019, Sec. 3.2), a range of each move's residuals where they are bounded at least below
/// a margin (every family here: Poisson's e^z near the anchor, glm_taylor_proxies.cpp),
/// per-point Lipschitz constants sup|ℓ'|·‖x̃_i‖₂ where sup|ℓ'| exists
/// (Zhang, Cooper & De Sa, "Asymptotically Optimal Exact Minibatch Metropolis–Hastings", NeurIPS
/// 2020, Sec. 4); gradients, Taylor proxies and a Laplace fit always. None has the collapsible
/// lower bound FlyMC needs.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/data/classification_data.h"
#include "core/data/regression_data.h"
#include "core/models/glm/glm_family.h"
#include "core/models/model.h"

namespace core {

/// A GLM's likelihood and prior.
struct GlmOptions {
    GlmFamilySpec family;
    /// sd s of the Gaussian prior N(0, s²I) on θ; 0: flat.
    double priorSd = 1.0;
    /// Appends an intercept as the last coordinate of θ.
    bool bias = true;

    bool operator==(const GlmOptions &) const = default;
};

class GlmModel final : public Model {
public:
    /// Throws std::invalid_argument for bad options (makeGlmFamily), no rows, a feature that is
    /// not finite, or a response the family does not take (naming the row, 1-based).
    GlmModel(std::shared_ptr<const GlmData> data, GlmOptions options);
    /// The same with a family of the caller's own in place of options.family's (a C++ model
    /// outside the model table: its capabilities are those its bounds give, as a plugin's).
    GlmModel(std::shared_ptr<const GlmData> data, GlmOptions options, std::unique_ptr<const GlmFamily> family);

    std::string name() const override { return std::string(m_family->name()); }
    int dimension() const override { return m_features + (m_options.bias ? 1 : 0); }
    DataIndex dataSize() const override { return static_cast<DataIndex>(m_data->response.size()); }
    /// −½‖θ‖²/s², or 0 for the flat prior.
    double logPrior(const Vector &theta) const override;
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override;
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override;
    double logLikelihoodSum(const Vector &theta) const override;
    /// 0, or the family's initial point (a plugin's mhx_model_initial_point).
    Vector initialTheta() const override;
    bool hasGradient() const override { return true; }
    /// The family's row of model_registry.h, or for a plugin what it declares (plugin_family.h).
    CapabilitySet capabilities() const override;
    std::string whyItLacks(ModelCapability capability) const override;
    std::shared_ptr<const TaylorProxies> taylorProxies(const Vector &anchor, int order) const override;
    /// The posterior mode (posterior_mode.h) and the negative Hessian there; where that is not
    /// positive definite (Student-t noise is not log-concave), its negative eigenvalues are
    /// raised to a small fraction of the largest, which keeps the proposal exact (it is only a
    /// preconditioner) and the fit usable.
    GaussianApproximation laplaceFit(double temperature, int maxSteps, std::stop_token stop) const override;
    void gradLogPrior(const Vector &theta, Vector &out) const override;
    void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const override;
    /// sup|ℓ'| · max_i ‖x̃_i‖₂ · ‖θ' − θ‖₂ where sup|ℓ'| exists: MHSubLhd's range without a pass.
    std::optional<double> logLikelihoodRatioBound(const Vector &from, const Vector &to) const override;
    /// sup|ℓ'| · ‖x̃_i‖₂ for every row, where sup|ℓ'| exists.
    std::optional<std::vector<double>> pointLipschitzConstants() const override;

    const GlmFamily &family() const { return *m_family; }
    const GlmOptions &options() const { return m_options; }
    const GlmData &data() const { return *m_data; }

    /// z_i = x̃_iᵀθ for the contiguous rows [first, first + out.size()).
    void margins(const Vector &theta, DataIndex first, std::span<double> out) const;
    /// ℓ'(y_i, z_i) x̃_i and ℓ''(y_i, z_i) x̃_i x̃_iᵀ summed over every row at θ: the Taylor
    /// proxies' sums. One pass.
    struct DerivativeSums {
        Vector gradient;
        Eigen::MatrixXd hessian;
    };
    DerivativeSums derivativeSums(const Vector &theta) const;
    /// max_j |x̃_ij| of every row (the bias's 1 included): with sup|ℓ^{(k+1)}| the per-point
    /// derivative bound of SMH. One pass.
    std::vector<double> rowMaxAbsFeatures() const;
    /// ‖x̃_i‖₂ of every row, the bias included (TunaMH's constants, SMH's margin bounds).
    std::vector<double> rowNorms() const;
    /// max_i x̃_iᵀθ over every row. One pass.
    double largestMargin(const Vector &theta) const;
    /// max_ij |x̃_ij| over every row.
    double maxAbsFeature() const { return m_maxAbsFeature; }

    /// Taylor residuals of order 1 or 2 around `anchor` for `rows` (see control_variates.h).
    void taylorResiduals(const Vector &from, const Vector &to, const Vector &anchor, int order,
                         std::span<const DataIndex> rows, std::span<double> out) const;
    void taylorResidualsRange(const Vector &from, const Vector &to, const Vector &anchor, int order, DataIndex first,
                              std::span<double> out) const;

private:
    std::shared_ptr<const GlmData> m_data;
    GlmOptions m_options;
    std::unique_ptr<const GlmFamily> m_family;
    int m_features = 0;
    double m_maxAbsFeature = 0.0; ///< max_ij |x̃_ij|
    double m_maxRowNorm = 0.0;    ///< max_i ‖x̃_i‖₂
    /// A built-in family, whose row of model_registry.h gives the capabilities; false for a
    /// plugin's or the caller's own family, whose declarations give them.
    bool m_inModelTable = false;
};

} // namespace core
