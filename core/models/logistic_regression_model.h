#pragma once
/// Bayesian logistic regression for binary classification (Seita et al., "Minibatch Acceptance
/// Test", Sec. 6.2, the later version, Sec. 6.2, its appendix C.3: MNIST 1s vs 7s, 784 pixel
/// weights, flat prior).
///
///   p(y = 1 | x, θ) = σ(θᵀx),  σ(z) = 1 / (1 + e^−z),
///   log p(y | x, θ) = log σ(s·z) with s = 2y − 1 and z = θᵀx (+ θ_bias when enabled).
///
/// The per-point ratio is l_i = log σ(s_i z'_i) − log σ(s_i z_i), with log σ(u) = −softplus(−u)
/// and softplus(v) = max(v, 0) + log(1 + e^−|v|), which never overflows. The log1p is taken as
/// log(w) − ((w − 1) − e^−|v|)/w with w = 1 + e^−|v|: that keeps full relative precision for
/// tiny e^−|v| (confidently classified points, where the log-likelihood is itself tiny) while
/// using only Eigen's vectorised exp and log.
///
/// The minibatch kernel reads each selected row once and forms both margins z = x·θ and
/// z' = x·θ' from it (a b × d by d × 2 product done row by row), widening the float features
/// to double in registers so that the two dot products are vectorised and accumulated in
/// double precision. While one row is multiplied, the next row of the batch is prefetched: the
/// rows are random, so the hardware prefetcher cannot guess them.
///
/// Thread safety: every method is const and keeps its scratch on the stack (no member or
/// thread-local buffers, no allocation per call), so any number of threads may evaluate the
/// same model at once, e.g. several chains sharing one data set.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/data/classification_data.h"
#include "core/models/model.h"

namespace core {

struct LogisticRegressionOptions {
    /// Appends an intercept as the last coordinate of θ (dimension d + 1). Off by default:
    /// the paper's model has only the 784 pixel weights (Seita et al., "Minibatch Acceptance Test",
    /// appendix C.3).
    bool bias = false;
    /// Standard deviation s of a Gaussian prior N(0, s²I) on θ; 0 selects the paper's flat
    /// (improper, uniform) prior. Must be 0 or finite and > 0.
    double priorSd = 0.0;

    bool operator==(const LogisticRegressionOptions &) const = default;
};

/// Test-set figures of one θ (Seita et al., "Minibatch Acceptance Test", Sec. 6.2, Figure 3).
struct ClassifierFit {
    double accuracy = 0.0;          ///< fraction of rows classified correctly
    double meanLogLikelihood = 0.0; ///< mean log p(y | x, θ), nats per row
};

class LogisticRegressionModel final : public Model {
public:
    /// Takes the training data (shared, never copied; it must stay unchanged while the model
    /// lives). Throws std::invalid_argument on invalid data (see validate()) or options.
    explicit LogisticRegressionModel(std::shared_ptr<const ClassificationData> train,
                                     LogisticRegressionOptions options = {});

    std::string name() const override { return "logreg"; }
    int dimension() const override { return m_features + (m_options.bias ? 1 : 0); }
    DataIndex dataSize() const override { return m_data->size(); }
    /// 0 for the flat prior; −½‖θ‖²/s² for N(0, s²I) (normalising constant dropped).
    double logPrior(const Vector &theta) const override;
    /// l_k = log p(y_r | x_r, to) − log p(y_r | x_r, from) for r = rows[k]. No allocation.
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override;
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override;
    /// Σ_i log p(y_i | x_i, θ) over the training data (nats). One pass, no allocation.
    double logLikelihoodSum(const Vector &theta) const override;
    /// θ = 0: every point has probability ½.
    Vector initialTheta() const override { return Vector::Zero(dimension()); }
    bool hasGradient() const override { return true; }
    /// Its row of the model table (model_registry.h).
    CapabilitySet capabilities() const override;
    /// Defined beside its proxies' class (logistic_taylor_proxies.cpp).
    std::shared_ptr<const TaylorProxies> taylorProxies(const Vector &anchor, int order) const override;
    /// Jaakkola & Jordan's bound on log σ tuned at each point's margin at `anchor`: defined in
    /// logistic_collapsible_bound.cpp.
    std::shared_ptr<const CollapsibleLowerBound> collapsibleLowerBound(const Vector &anchor) const override;
    /// logisticLaplace (logistic_laplace.h).
    GaussianApproximation laplaceFit(double temperature, int maxSteps, std::stop_token stop) const override;
    /// 0 for the flat prior; −θ/s² for N(0, s²I).
    void gradLogPrior(const Vector &theta, Vector &out) const override;
    /// Σ_k s_k σ(−s_k z_k) (x_k, 1): each row is read once, its margin formed as in the ratio
    /// kernel and the row added, scaled, to the sum in double precision while still in L1.
    void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const override;
    /// max_i |l_i| ≤ max_i |z'_i − z_i| ≤ R ‖w' − w‖₂ + |b' − b|, R = max_i ‖x_i‖₂ (log σ is
    /// 1-Lipschitz): the symbolic bound for MHSubLhd, which Seita et al., "Minibatch Acceptance
    /// Test" (later version), Sec. 6.2 found too loose to help on MNIST; offered for comparison. No
    /// pass over the data.
    std::optional<double> logLikelihoodRatioBound(const Vector &from, const Vector &to) const override;

    /// Taylor proxies of ℓ_i = log p(y_i | x_i, θ) around `anchor` of order 1 or 2 (Bardenet et
    /// al. 2017; Cornish et al. 2019, ICML): the residuals
    /// r_k = [ℓ(to) − ℓ(from)] − [q̂(to) − q̂(from)] for r = rows[k], untempered. Each row is read
    /// once and its three margins (at from, to and the anchor) formed together; allocates nothing.
    void taylorResiduals(const Vector &from, const Vector &to, const Vector &anchor, int order,
                         std::span<const DataIndex> rows, std::span<double> out) const;
    /// The same for the contiguous rows [first, first + out.size()).
    void taylorResidualsRange(const Vector &from, const Vector &to, const Vector &anchor, int order, DataIndex first,
                              std::span<double> out) const;
    /// The proxies' sums over all rows at the anchor: G = Σ ∇ℓ_i and H = Σ ∇²ℓ_i. One pass.
    struct TaylorSums {
        Vector gradient;
        Eigen::MatrixXd hessian;
    };
    TaylorSums taylorSums(const Vector &anchor) const;
    /// max_ij |x_ij| over the rows the model reads, the bias column's 1 included: with it the
    /// (k+1)-th derivatives of every ℓ_i are bounded by ¼·max² (k = 1) or max³/(6√3) (k = 2)
    /// (Cornish et al. 2019; max |σ(1−σ)(1−2σ)| = 1/(6√3)).
    double maxAbsFeature() const { return dataBounds().maxAbsFeature; }
    /// max_j |x_ij| of every row i, the bias column's 1 included: the per-point form of the
    /// bound above, which SMH's Poisson thinning draws points by (Cornish et al. 2019, Sec. 3.2).
    /// One pass over the data.
    std::vector<double> rowMaxAbsFeatures() const;
    /// ‖x̃_i‖₂ of every row i (x̃_i: the row with the bias column's 1 when enabled): each
    /// log-likelihood is ‖x̃_i‖₂-Lipschitz in θ (log σ is 1-Lipschitz), the per-point bound
    /// of TunaMH (Zhang, Cooper & De Sa 2020, Sec. 4). One pass over the data.
    std::optional<std::vector<double>> pointLipschitzConstants() const override;
    /// L_i = max_j |x̃_ji| ‖x̃_j‖₂ / 4: ∂_iℓ_j = x̃_ji (y_j − σ(x̃_jᵀθ)) and σ is ¼-Lipschitz, so
    /// |∂_iℓ_j(θ) − ∂_iℓ_j(θ')| ≤ |x̃_ji| |x̃_jᵀ(θ − θ')| / 4 ≤ L_i ‖θ − θ'‖₂ (Bierkens, Fearnhead &
    /// Roberts 2019, Sec. 4, with the Euclidean norm). One pass over the data, as the kernels read it.
    std::optional<Vector> pointGradientLipschitz() const override;
    /// 1/s² for the N(0, s² I) prior, 0 for the flat one.
    std::optional<double> priorGradientLipschitz() const override;
    /// Announces passes over rows read in place from a file (full_pass_notice.h); nothing for
    /// data in memory.
    std::shared_ptr<const void> announceFullPass(const std::string &what, int passes = 1) const override;
    bool readsDataInPlace() const override { return static_cast<bool>(m_data->mapped); }

    /// Fraction of rows of `data` classified correctly, predicting label 1 iff z > 0.
    /// Throws std::invalid_argument when θ or the data's feature count do not fit the model.
    double accuracy(const Vector &theta, const ClassificationData &data) const;
    /// Mean over the rows of `data` of log p(y | x, θ) (nats per point). Throws as accuracy().
    double meanLogLikelihood(const Vector &theta, const ClassificationData &data) const;

    /// accuracy() and meanLogLikelihood() from a single pass over the rows of `data` (half the
    /// cost of calling both). Throws as accuracy().
    ClassifierFit fit(const Vector &theta, const ClassificationData &data) const;

    /// Row i's features as the likelihood's kernels read them, widened to double into `out`
    /// (featureCount() values): pixel bytes k as k·(1/255) where the model keeps them, the
    /// stored floats otherwise. A bound or a sum made from these holds for exactly the values
    /// the ratios and residuals are made of. Allocates nothing.
    void copyRowAsRead(DataIndex i, double *out) const;
    /// x̃_i·θ (the bias included) from the row as copyRowAsRead gives it. Allocates nothing.
    double marginAsRead(DataIndex i, const Vector &theta) const;
    const ClassificationData &data() const { return *m_data; }
    const std::shared_ptr<const ClassificationData> &sharedData() const { return m_data; }
    const LogisticRegressionOptions &options() const { return m_options; }

    /// log σ(u) in the stable form above, for one value (reference and tests).
    static double logSigmoid(double u);

private:
    void checkCompatible(const Vector &theta, const ClassificationData &data) const;
    /// visit(i, row i as the kernels read it, in double) for every training row, announced as a
    /// pass for `what`.
    template <typename Visit>
    void forEachRow(const std::string &what, Visit visit) const;
    /// Row i's features as the likelihood's kernels read them (forEachRow), widened to double.
    Eigen::VectorXd rowAsRead(DataIndex i) const;

    struct DataBounds {
        double maxRowNorm = 0.0;    ///< R = max_i ‖x_i‖₂, for the ratio bound
        double maxAbsFeature = 0.0; ///< max_ij |x_ij|, the bias's 1 included
    };
    /// A pass over the data, at construction for data in memory; for rows read in place, on
    /// the first call (from any thread), so a run that needs no bound reads no more rows than
    /// its tests do.
    const DataBounds &dataBounds() const;

    /// The training features as pixel bytes (feature = byte/255) when every one is such a
    /// pixel and the rows are in memory: the likelihood's kernels read a quarter of the bytes
    /// (one per feature instead of a float), in double precision, the 1/255 applied exactly
    /// once per sum. Null otherwise.
    const std::uint8_t *pixelBytes() const { return m_pixelBytes.empty() ? nullptr : m_pixelBytes.data(); }

    std::shared_ptr<const ClassificationData> m_data;
    std::vector<std::uint8_t> m_pixelBytes;
    LogisticRegressionOptions m_options;
    int m_features = 0;
    mutable std::once_flag m_boundsOnce;
    mutable DataBounds m_bounds;
};

} // namespace core
