#pragma once
/// The model interface the acceptance tests evaluate: a prior and per-point log-likelihoods.
///
/// Everything the minibatch tests need reduces to the per-point log-likelihood ratios
///   l_i(θ, θ') = log p(x_i | θ') − log p(x_i | θ)
/// over an index set (Seita et al., "Minibatch Acceptance Test", Sec. 2, Eq. 3–4). Models evaluate
/// them for a whole batch in one call, vectorised, so there is no virtual call per data point.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/models/model_capabilities.h"
#include "core/models/point_weights.h"

namespace core {

class TaylorProxies;
class CollapsibleLowerBound;
struct GaussianApproximation;

using Vector = Eigen::VectorXd;
/// Row index into a dataset. 64 bits: a file read in place may hold more than 2³¹ rows (the
/// minibatch sampler keeps its N-entry order in 4 bytes a row where N allows, minibatch_sampler.h).
using DataIndex = std::int64_t;

class Model {
public:
    virtual ~Model() = default;

    virtual std::string name() const = 0;
    /// Dimension of θ.
    virtual int dimension() const = 0;
    /// Number of data points N.
    virtual DataIndex dataSize() const = 0;

    /// log p0(θ), up to a constant. Not tempered (the temperature divides only the likelihood).
    virtual double logPrior(const Vector &theta) const = 0;

    /// out[k] = log p(x_{rows[k]} | to) − log p(x_{rows[k]} | from), untempered.
    /// `out` must have rows.size() entries. Allocates nothing.
    virtual void logLikelihoodRatios(const Vector &from, const Vector &to,
                                     std::span<const DataIndex> rows,
                                     std::span<double> out) const = 0;

    /// The part of Σ_i l_i(from, to) a model computes exactly, without reading data, when its
    /// per-point ratios above are only the rest: the Taylor proxies' sum of a model with control
    /// variates (control_variates.h). Every test adds it, untempered, to N times its estimate of
    /// the per-point mean: Σ_i l_i = exact part + Σ_i (per-point ratio)_i. 0 for plain models.
    virtual double exactLogLikelihoodRatioPart(const Vector &, const Vector &) const { return 0.0; }

    /// The same for the contiguous rows [first, first + out.size()).
    virtual void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                          std::span<double> out) const = 0;

    /// Σ_i log p(x_i | θ) over all N points, untempered. Costs a full pass.
    virtual double logLikelihoodSum(const Vector &theta) const = 0;

    /// Where chains start unless told otherwise.
    virtual Vector initialTheta() const = 0;

    /// Says that a pass over every data point is about to start, where that is slow enough to
    /// matter (rows read in place from a file larger than memory: core/data/full_pass_notice.h),
    /// and returns a token that reports the pass's end when released. Empty where passes are
    /// quick (data in memory): the default.
    virtual std::shared_ptr<const void> announceFullPass(const std::string &what, int passes = 1) const;
    /// True when the data are read in place from a file (a pass over them is slow); false for
    /// data in memory, the default.
    virtual bool readsDataInPlace() const { return false; }

    /// Σ_{i<N} l_i(from, to) over the whole dataset in cache-sized chunks, without allocating.
    double logLikelihoodRatioSum(const Vector &from, const Vector &to) const;

    /// max_i |l_i(from, to)| over the whole dataset: a full pass (MHSubLhd's range bound C,
    /// Seita et al., "Minibatch Acceptance Test", Eq. 16).
    double maxAbsLogLikelihoodRatio(const Vector &from, const Vector &to) const;

    /// Population mean and standard deviation of l_i(from, to) over all N points: one pass,
    /// merged chunk by chunk in double precision.
    std::pair<double, double> logLikelihoodRatioMoments(const Vector &from, const Vector &to) const;

    /// Whether the model implements gradLogPrior and sumGradLogLikelihood (gradient-informed
    /// proposals need both). The models of core/models all do.
    virtual bool hasGradient() const { return false; }

    /// What the model offers beyond its prior and per-point ratios (model_capabilities.h); the
    /// run refuses a method or proposal that needs more, naming what is missing. The built-in
    /// models return their row of core/models/model_registry.h; the default offers the
    /// gradient when hasGradient() says so, and nothing else.
    virtual CapabilitySet capabilities() const;
    /// Why the model lacks `capability`, for refusals: the reason in its row of
    /// model_registry.h by default (empty where it has none).
    virtual std::string whyItLacks(ModelCapability capability) const;
    /// The per-point Taylor proxies of order 1 or 2 around `anchor` (control_variates.h), with
    /// their sums from one pass over the data, when capabilities() has TaylorProxies; null
    /// otherwise (the default). Called through makeTaylorProxies, which checks the arguments.
    virtual std::shared_ptr<const TaylorProxies> taylorProxies(const Vector &anchor, int order) const;
    /// A model whose ratios are the residuals of Taylor proxies (control variates: the
    /// ControlVariateModel that wraps the data's model) gives those proxies here, so that the
    /// methods built around them (SMH, Zig-Zag, SGLD-CV) find the mode and bounds without asking
    /// for the wrapper's class; null for a model of the data itself (the default).
    virtual const TaylorProxies *residualProxies() const { return nullptr; }
    /// Each point's lower bound on its likelihood tuned at `anchor`, with their product in closed
    /// form (collapsible_bound.h; one pass over the data), when capabilities() has
    /// CollapsibleLowerBound; null otherwise (the default).
    virtual std::shared_ptr<const CollapsibleLowerBound> collapsibleLowerBound(const Vector &anchor) const;
    /// The Laplace approximation of the posterior tempered at T > 0, in at most `maxSteps`
    /// Newton steps, when capabilities() has LaplaceFit; throws std::logic_error otherwise (the
    /// default). Throws Cancelled when `stop` is requested.
    virtual GaussianApproximation laplaceFit(double temperature, int maxSteps, std::stop_token stop) const;

    /// ∇θ log p0(θ) into `out`, untempered. `out` is resized to dimension() when its size
    /// differs (so a caller that keeps one vector allocates nothing). Throws std::logic_error
    /// when hasGradient() is false.
    virtual void gradLogPrior(const Vector &theta, Vector &out) const;

    /// Σ_k ∇θ log p(x_{rows[k]} | θ) into `out` (overwritten, resized as in gradLogPrior),
    /// untempered: the caller scales it by N / (T·|rows|) for a minibatch estimate of the
    /// tempered log-likelihood's gradient. Vectorised like logLikelihoodRatios, allocates
    /// nothing and keeps no state, so threads may share the model. Throws std::logic_error when
    /// hasGradient() is false.
    virtual void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const;

    /// A closed-form upper bound on max_i |l_i(from, to)| that needs no pass over the data,
    /// when the model has one; std::nullopt otherwise.
    virtual std::optional<double> logLikelihoodRatioBound(const Vector &, const Vector &) const
    {
        return std::nullopt;
    }

    /// Per-point constants c_i with |log p(x_i | θ') − log p(x_i | θ)| ≤ c_i ‖θ' − θ‖₂ for every
    /// θ, θ' (untempered), when the model has them: the bounds TunaMH draws its points by
    /// (Zhang, Cooper & De Sa 2020, Sec. 4). One pass over the data; std::nullopt where no such
    /// global bound exists (a Gaussian's log-likelihood is not Lipschitz).
    virtual std::optional<std::vector<double>> pointLipschitzConstants() const { return std::nullopt; }
    /// L with |∂_iℓ_j(θ) − ∂_iℓ_j(θ')| ≤ L_i ‖θ − θ'‖₂ for every point j, coordinate i and all θ, θ'
    /// (untempered), where the model has it (ModelCapability::GradientLipschitz): the Zig-Zag
    /// sampler's switching-rate bound (zig_zag_process.h). One pass over the data.
    virtual std::optional<Vector> pointGradientLipschitz() const { return std::nullopt; }
    /// P with |∂_i log p0(θ) − ∂_i log p0(θ')| ≤ P ‖θ − θ'‖₂ for every i: a N(m, s² I) prior's 1/s²,
    /// 0 for a flat one. std::nullopt where the model has none.
    virtual std::optional<double> priorGradientLipschitz() const { return std::nullopt; }
    /// The same as drawable weights, built on the first call and shared by every later one
    /// (from any thread). Throws std::invalid_argument naming the model when it has none.
    const PointWeights &lipschitzWeights() const;

private:
    LazyPointWeights m_lipschitzWeights;
};

} // namespace core
