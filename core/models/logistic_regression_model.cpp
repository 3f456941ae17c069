#include "core/models/logistic_regression_model.h"
#include "core/models/model_registry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "core/data/full_pass_notice.h"
#include "core/io/mapped_file.h"
#include "core/models/feature_rows.h"
#include "core/validation/range_checks.h"

namespace core {

CapabilitySet LogisticRegressionModel::capabilities() const
{
    return modelEntry(name()).capabilities;
}
namespace {

using namespace feature_rows;

// Rows per block: the margins of one block live in stack arrays and stay in L1.
constexpr DataIndex kChunk = 64;

using ChunkArray = Eigen::Map<Eigen::ArrayXd, Eigen::Aligned64>;

// z[j][k] = x_{rowOf(first + k)} · w_j + bias_j and s[k] = ±1 (label 1 / 0) for k < count.
// `total` is the number of rows of the whole call, so the next block's first row is
// prefetched too. Only random rows are prefetched by hand: on contiguous rows the hardware
// prefetcher already streams, and extra prefetch instructions only occupy fill buffers.
template <int K, bool RandomRows, typename Rows, typename RowOf>
void blockMargins(const ClassificationData &data, const Rows &rows, RowOf rowOf, DataIndex first, DataIndex count,
                  DataIndex total, const std::array<const double *, K> &weights, const std::array<double, K> &bias,
                  double (&z)[K][kChunk], double (&sign)[kChunk])
{
    const Eigen::Index d = data.featureCount();
    for (DataIndex k = 0; k < count; ++k) {
        const DataIndex row = rowOf(first + k);
        if (RandomRows && first + k + 1 < total)
            prefetchRow(rows.address(rowOf(first + k + 1)), d);
        std::array<double, K> acc = bias;
        accumulateDots<K>(rows.read(row), weights, d, acc);
        if constexpr (Rows::kChecked)
            if (!std::isfinite(acc[0]))
                rows.checkFinite(row);
        for (int m = 0; m < K; ++m)
            z[m][k] = acc[static_cast<std::size_t>(m)];
        sign[k] = data.labels[static_cast<std::size_t>(row)] != 0 ? 1.0 : -1.0;
    }
}

// values = u on entry, −log σ(u) = softplus(−u) on exit (see the header for the log1p form).
void negLogSigmoidInPlace(double *values, DataIndex count)
{
    alignas(64) double tail[kChunk];
    ChunkArray u(values, count), y(tail, count);
    y = (-u.abs()).exp();
    u = (-u).max(0.0) + ((y + 1.0).log() - (((y + 1.0) - 1.0) - y) / (y + 1.0));
}

struct Margins {
    const double *weights;
    double bias;
};

// θ = (w, b) with the bias last when the model has one.
Margins marginsOf(const Vector &theta, bool bias)
{
    return {theta.data(), bias ? theta[theta.size() - 1] : 0.0};
}

template <bool RandomRows, typename Rows, typename RowOf>
void ratioKernel(const ClassificationData &data, const Rows &rows, RowOf rowOf, DataIndex total, Margins from,
                 Margins to, double *out)
{
    for (DataIndex first = 0; first < total; first += kChunk) {
        const DataIndex count = std::min(kChunk, total - first);
        alignas(64) double z[2][kChunk];
        alignas(64) double sign[kChunk];
        blockMargins<2, RandomRows>(data, rows, rowOf, first, count, total, {from.weights, to.weights},
                                    {from.bias, to.bias}, z, sign);
        const ChunkArray s(sign, count);
        ChunkArray zFrom(z[0], count), zTo(z[1], count);
        zFrom *= s;
        zTo *= s;
        negLogSigmoidInPlace(z[0], count);
        negLogSigmoidInPlace(z[1], count);
        // log σ(u') − log σ(u) = softplus(−u) − softplus(−u').
        Eigen::Map<Eigen::ArrayXd>(out + first, count) = zFrom - zTo;
    }
}

// The Taylor residuals r = [ℓ(θ') − ℓ(θ)] − [q̂(θ') − q̂(θ)] of ℓ = log σ(s z) around the anchor
// θ̂, from the three margins of each row (control_variates.h). With u = s z the proxy's
// terms are a (z' − z), a = s σ(−s ẑ), and for order 2 −½ w [(z' − ẑ)² − (z − ẑ)²], w = σ(ẑ) σ(−ẑ):
// the gradient and Hessian of ℓ at θ̂ are a·x and −w·x xᵀ, so every proxy is a function of margins.
template <bool RandomRows, typename Rows, typename RowOf>
void residualKernel(const ClassificationData &data, const Rows &rows, RowOf rowOf, DataIndex total, Margins from,
                    Margins to, Margins anchor, int order, double *out)
{
    for (DataIndex first = 0; first < total; first += kChunk) {
        const DataIndex count = std::min(kChunk, total - first);
        alignas(64) double z[3][kChunk];
        alignas(64) double sign[kChunk];
        blockMargins<3, RandomRows>(data, rows, rowOf, first, count, total, {from.weights, to.weights, anchor.weights},
                                    {from.bias, to.bias, anchor.bias}, z, sign);
        alignas(64) double loss[2][kChunk];
        const ChunkArray s(sign, count), zFrom(z[0], count), zTo(z[1], count), zHat(z[2], count);
        ChunkArray uFrom(loss[0], count), uTo(loss[1], count);
        uFrom = zFrom * s;
        uTo = zTo * s;
        negLogSigmoidInPlace(loss[0], count);
        negLogSigmoidInPlace(loss[1], count);
        // a = s σ(−s ẑ) = s / (1 + e^{s ẑ}); w = σ(ẑ) σ(−ẑ) = e^{−|ẑ|} / (1 + e^{−|ẑ|})². Stack
        // buffers: nothing is allocated per call.
        alignas(64) double slopes[kChunk], curvatures[kChunk];
        ChunkArray slope(slopes, count), curvature(curvatures, count);
        slope = s / (1.0 + (s * zHat).min(700.0).exp());
        Eigen::Map<Eigen::ArrayXd> r(out + first, count);
        r = (uFrom - uTo) - slope * (zTo - zFrom);
        if (order == 2) {
            curvature = (-zHat.abs()).exp();
            curvature = curvature / (1.0 + curvature).square();
            r += 0.5 * curvature * ((zTo - zHat).square() - (zFrom - zHat).square());
        }
    }
}

// Calls kernel(reader, rowOf, count, randomRows) over the listed rows in their order: the
// gathered form, its rows prefetched when mapped; randomRows is std::true_type.
template <typename Kernel>
void overListedRows(const ClassificationData &data, const std::uint8_t *bytes, std::span<const DataIndex> rows,
                    Kernel kernel)
{
    if (data.mapped)
        data.mapped->prefetch(rows);
    const DataIndex *indices = rows.data();
    withRows(data, bytes, [&](const auto &reader) {
        kernel(reader, [indices](DataIndex k) { return indices[k]; }, static_cast<DataIndex>(rows.size()),
               std::true_type{});
    });
}

// The same over the contiguous rows first … first + count − 1; randomRows is std::false_type.
template <typename Kernel>
void overRowRange(const ClassificationData &data, const std::uint8_t *bytes, DataIndex first, std::size_t count,
                  Kernel kernel)
{
    withRows(data, bytes, [&](const auto &reader) {
        kernel(reader, [first](DataIndex k) { return first + k; }, static_cast<DataIndex>(count), std::false_type{});
    });
}

// The ratio and residual kernels as the row visitors above call them.
auto ratiosInto(const ClassificationData &data, Margins from, Margins to, double *out)
{
    return [&data, from, to, out](const auto &reader, auto rowOf, DataIndex count, auto randomRows) {
        ratioKernel<decltype(randomRows)::value>(data, reader, rowOf, count, from, to, out);
    };
}

auto residualsInto(const ClassificationData &data, Margins from, Margins to, Margins anchor, int order, double *out)
{
    return [&data, from, to, anchor, order, out](const auto &reader, auto rowOf, DataIndex count, auto randomRows) {
        residualKernel<decltype(randomRows)::value>(data, reader, rowOf, count, from, to, anchor, order, out);
    };
}

// Calls visit(marginsBlock, signBlock, count) for the blocks of all rows of `data`.
template <typename Visit>
void forEachBlock(const ClassificationData &data, const std::uint8_t *bytes, Margins theta, Visit visit)
{
    withRows(data, bytes, [&](const auto &rows) {
        const DataIndex total = data.size();
        const auto identity = [](DataIndex k) { return k; };
        for (DataIndex first = 0; first < total; first += kChunk) {
            const DataIndex count = std::min(kChunk, total - first);
            alignas(64) double z[1][kChunk];
            alignas(64) double sign[kChunk];
            blockMargins<1, false>(data, rows, identity, first, count, total, {theta.weights}, {theta.bias}, z, sign);
            visit(z[0], sign, count);
        }
    });
}

double logLikelihoodTotal(const ClassificationData &data, const std::uint8_t *bytes, Margins theta)
{
    double total = 0.0;
    forEachBlock(data, bytes, theta, [&](double *z, const double *sign, DataIndex count) {
        ChunkArray u(z, count);
        u *= Eigen::Map<const Eigen::ArrayXd, Eigen::Aligned64>(sign, count);
        negLogSigmoidInPlace(z, count);
        total -= u.sum();
    });
    return total;
}

} // namespace

LogisticRegressionModel::LogisticRegressionModel(std::shared_ptr<const ClassificationData> train,
                                                 LogisticRegressionOptions options)
    : m_data(requireGiven(std::move(train), "logistic regression needs training data")), m_options(options)
{
    validate(*m_data);
    if (m_options.priorSd != 0.0 && !(m_options.priorSd > 0.0 && std::isfinite(m_options.priorSd)))
        throw std::invalid_argument("prior-sd must be 0 (flat prior) or finite and > 0; got "
                                    + std::to_string(m_options.priorSd));
    m_features = m_data->featureCount();
    if (!m_data->mapped) {
        m_pixelBytes = pixelBytesOf(m_data->features); // first: the bounds read the rows as the kernels do
        dataBounds(); // quick in memory; rows read in place wait until a bound is asked for
    }
}

std::shared_ptr<const void> LogisticRegressionModel::announceFullPass(const std::string &what, int passes) const
{
    if (!m_data->mapped)
        return {};
    return std::make_shared<const FullPassNotice>(*m_data, what, passes);
}

template <typename Visit>
void LogisticRegressionModel::forEachRow(const std::string &what, Visit visit) const
{
    // Each row as the likelihood's kernels read it: pixel bytes k as k·(1/255) in double, where
    // the kernels take the 1/255 out of their sums (feature_rows.h), so that a bound or a sum
    // made here holds for exactly the values the residuals and ratios are made of; the float
    // k/255 differs from it in the eighth digit.
    const auto notice = announceFullPass(what);
    Eigen::ArrayXd x(m_features);
    if (const std::uint8_t *bytes = pixelBytes()) {
        for (DataIndex i = 0; i < m_data->size(); ++i) {
            const std::uint8_t *row = bytes + static_cast<std::size_t>(i) * static_cast<std::size_t>(m_features);
            for (Eigen::Index j = 0; j < m_features; ++j)
                x[j] = static_cast<double>(row[j]) * kFeatureScale<std::uint8_t>;
            visit(i, x);
        }
        return;
    }
    withFloatRows(*m_data, [&](const auto &rows) {
        for (DataIndex i = 0; i < m_data->size(); ++i) {
            const Eigen::Map<const Eigen::ArrayXf> stored(rows.read(i), m_features);
            if constexpr (std::decay_t<decltype(rows)>::kChecked)
                if (!stored.allFinite())
                    rows.checkFinite(i);
            x = stored.cast<double>();
            visit(i, x);
        }
    });
}

Eigen::VectorXd LogisticRegressionModel::rowAsRead(DataIndex i) const
{
    Eigen::VectorXd x(m_features);
    copyRowAsRead(i, x.data());
    return x;
}

void LogisticRegressionModel::copyRowAsRead(DataIndex i, double *out) const
{
    if (const std::uint8_t *bytes = pixelBytes()) {
        const std::uint8_t *row = bytes + static_cast<std::size_t>(i) * static_cast<std::size_t>(m_features);
        for (int j = 0; j < m_features; ++j)
            out[j] = static_cast<double>(row[j]) * kFeatureScale<std::uint8_t>;
        return;
    }
    m_data->copyRow(i, out);
}

double LogisticRegressionModel::marginAsRead(DataIndex i, const Vector &theta) const
{
    double margin = 0.0;
    if (const std::uint8_t *bytes = pixelBytes()) {
        const std::uint8_t *row = bytes + static_cast<std::size_t>(i) * static_cast<std::size_t>(m_features);
        for (int j = 0; j < m_features; ++j)
            margin += static_cast<double>(row[j]) * kFeatureScale<std::uint8_t> * theta[j];
    } else {
        const ClassificationData &data = *m_data;
        margin = data.mapped ? data.dotRow(i, theta.data()) : data.features.row(i).cast<double>().dot(theta.head(m_features));
    }
    if (m_options.bias)
        margin += theta[m_features];
    return margin;
}

const LogisticRegressionModel::DataBounds &LogisticRegressionModel::dataBounds() const
{
    std::call_once(m_boundsOnce, [this] {
        double maxSquaredNorm = 0.0, maxAbs = 0.0;
        forEachRow("the largest row norm and feature (the bounds of MHSubLhd, SMH and the control variates)",
                   [&](DataIndex, const Eigen::ArrayXd &x) {
                       maxSquaredNorm = std::max(maxSquaredNorm, x.square().sum());
                       maxAbs = std::max(maxAbs, x.size() ? x.abs().maxCoeff() : 0.0);
                   });
        m_bounds.maxRowNorm = std::sqrt(maxSquaredNorm);
        m_bounds.maxAbsFeature = std::max(maxAbs, m_options.bias ? 1.0 : 0.0);
    });
    return m_bounds;
}

std::vector<double> LogisticRegressionModel::rowMaxAbsFeatures() const
{
    std::vector<double> out(static_cast<std::size_t>(m_data->size()));
    const double bias = m_options.bias ? 1.0 : 0.0;
    forEachRow("SMH's per-point bounds", [&](DataIndex i, const Eigen::ArrayXd &x) {
        out[static_cast<std::size_t>(i)] = std::max(x.size() ? x.abs().maxCoeff() : 0.0, bias);
    });
    return out;
}

std::optional<std::vector<double>> LogisticRegressionModel::pointLipschitzConstants() const
{
    std::vector<double> out(static_cast<std::size_t>(m_data->size()));
    const double bias = m_options.bias ? 1.0 : 0.0;
    forEachRow("TunaMH's per-point Lipschitz constants", [&](DataIndex i, const Eigen::ArrayXd &x) {
        out[static_cast<std::size_t>(i)] = std::sqrt(x.square().sum() + bias);
    });
    return out;
}

std::optional<Vector> LogisticRegressionModel::pointGradientLipschitz() const
{
    Vector out = Vector::Zero(dimension());
    const bool bias = m_options.bias;
    forEachRow("the Zig-Zag sampler's gradient bounds", [&](DataIndex, const Eigen::ArrayXd &x) {
        const double norm = std::sqrt(x.square().sum() + (bias ? 1.0 : 0.0));
        out.head(m_features) = out.head(m_features).cwiseMax((x.abs() * norm).matrix());
        if (bias)
            out[m_features] = std::max(out[m_features], norm);
    });
    return out / 4.0;
}

std::optional<double> LogisticRegressionModel::priorGradientLipschitz() const
{
    return m_options.priorSd == 0.0 ? 0.0 : 1.0 / (m_options.priorSd * m_options.priorSd);
}

std::optional<double> LogisticRegressionModel::logLikelihoodRatioBound(const Vector &from, const Vector &to) const
{
    const double weights = (to.head(m_features) - from.head(m_features)).norm();
    const double bias = m_options.bias ? std::abs(to[m_features] - from[m_features]) : 0.0;
    return dataBounds().maxRowNorm * weights + bias;
}

double LogisticRegressionModel::logPrior(const Vector &theta) const
{
    if (m_options.priorSd == 0.0)
        return 0.0;
    return -0.5 * theta.squaredNorm() / (m_options.priorSd * m_options.priorSd);
}

void LogisticRegressionModel::gradLogPrior(const Vector &theta, Vector &out) const
{
    if (m_options.priorSd == 0.0)
        out.setZero(dimension());
    else
        out = -theta / (m_options.priorSd * m_options.priorSd);
}

void LogisticRegressionModel::sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows,
                                                   Vector &out) const
{
    out.setZero(dimension());
    const Eigen::Index d = m_features;
    const Margins margins = marginsOf(theta, m_options.bias);
    double biasSum = 0.0;
    if (m_data->mapped)
        m_data->mapped->prefetch(rows);
    withRows(*m_data, pixelBytes(), [&](const auto &data) {
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const auto *row = data.read(rows[k]);
            if (k + 1 < rows.size())
                prefetchRow(data.address(rows[k + 1]), d);
            std::array<double, 1> z = {margins.bias};
            accumulateDots<1>(row, {margins.weights}, d, z);
            if constexpr (std::decay_t<decltype(data)>::kChecked)
                if (!std::isfinite(z[0]))
                    data.checkFinite(rows[k]);
            const double s = m_data->labels[static_cast<std::size_t>(rows[k])] != 0 ? 1.0 : -1.0;
            // d/dz log σ(s z) = s σ(−s z) = s / (1 + e^{s z}); e^{s z} = ∞ gives the exact limit 0.
            const double weight = s / (1.0 + std::exp(s * z[0]));
            addScaledRow(row, weight, d, out.data());
            biasSum += weight;
        }
    });
    if (m_options.bias)
        out[m_features] = biasSum;
}

void LogisticRegressionModel::logLikelihoodRatios(const Vector &from, const Vector &to,
                                                  std::span<const DataIndex> rows, std::span<double> out) const
{
    overListedRows(*m_data, pixelBytes(), rows,
                   ratiosInto(*m_data, marginsOf(from, m_options.bias), marginsOf(to, m_options.bias), out.data()));
}

void LogisticRegressionModel::logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                                       std::span<double> out) const
{
    overRowRange(*m_data, pixelBytes(), first, out.size(),
                 ratiosInto(*m_data, marginsOf(from, m_options.bias), marginsOf(to, m_options.bias), out.data()));
}

void LogisticRegressionModel::taylorResiduals(const Vector &from, const Vector &to, const Vector &anchor, int order,
                                              std::span<const DataIndex> rows, std::span<double> out) const
{
    overListedRows(*m_data, pixelBytes(), rows,
                   residualsInto(*m_data, marginsOf(from, m_options.bias), marginsOf(to, m_options.bias),
                                 marginsOf(anchor, m_options.bias), order, out.data()));
}

void LogisticRegressionModel::taylorResidualsRange(const Vector &from, const Vector &to, const Vector &anchor,
                                                   int order, DataIndex first, std::span<double> out) const
{
    overRowRange(*m_data, pixelBytes(), first, out.size(),
                 residualsInto(*m_data, marginsOf(from, m_options.bias), marginsOf(to, m_options.bias),
                               marginsOf(anchor, m_options.bias), order, out.data()));
}

LogisticRegressionModel::TaylorSums LogisticRegressionModel::taylorSums(const Vector &anchor) const
{
    // One pass: G = Σ a_i x_i and H = −Σ w_i x_i x_iᵀ (the bias column included), rows widened
    // to double a block at a time so the d×d update is one matrix product per block.
    const int d = dimension();
    TaylorSums sums{Vector::Zero(d), Eigen::MatrixXd::Zero(d, d)};
    Eigen::MatrixXd block(kChunk, d);
    Eigen::VectorXd slope(kChunk), curvature(kChunk);
    const auto notice = announceFullPass("the control variates' sums at the mode");
    forEachBlock(*m_data, pixelBytes(), marginsOf(anchor, m_options.bias),
                 [&, row = DataIndex{0}](double *z, const double *sign, DataIndex count) mutable {
                     for (DataIndex k = 0; k < count; ++k) {
                         block.row(k).head(m_features) = rowAsRead(row + k).transpose();
                         if (m_options.bias)
                             block(k, m_features) = 1.0;
                         const double e = std::exp(-std::abs(z[k]));
                         slope[k] = sign[k] / (1.0 + std::exp(std::min(sign[k] * z[k], 700.0)));
                         curvature[k] = e / ((1.0 + e) * (1.0 + e));
                     }
                     const auto rows = block.topRows(count);
                     sums.gradient.noalias() += rows.transpose() * slope.head(count);
                     sums.hessian.noalias() -= rows.transpose() * curvature.head(count).asDiagonal() * rows;
                     row += count;
                 });
    return sums;
}

double LogisticRegressionModel::logLikelihoodSum(const Vector &theta) const
{
    return logLikelihoodTotal(*m_data, pixelBytes(), marginsOf(theta, m_options.bias));
}

void LogisticRegressionModel::checkCompatible(const Vector &theta, const ClassificationData &data) const
{
    if (theta.size() != dimension())
        throw std::invalid_argument("theta has dimension " + std::to_string(theta.size()) + "; the model needs "
                                    + std::to_string(dimension()));
    if (data.featureCount() != m_features)
        throw std::invalid_argument("data have " + std::to_string(data.featureCount()) + " features; the model has "
                                    + std::to_string(m_features));
    if (data.size() < 1 || data.labels.size() != static_cast<std::size_t>(data.size()))
        throw std::invalid_argument("data need at least one row and one label per row");
}

double LogisticRegressionModel::accuracy(const Vector &theta, const ClassificationData &data) const
{
    checkCompatible(theta, data);
    std::int64_t correct = 0;
    forEachBlock(data, nullptr, marginsOf(theta, m_options.bias), [&](double *z, const double *sign, DataIndex count) {
        for (DataIndex k = 0; k < count; ++k)
            correct += (z[k] > 0.0) == (sign[k] > 0.0) ? 1 : 0;
    });
    return static_cast<double>(correct) / static_cast<double>(data.size());
}

double LogisticRegressionModel::meanLogLikelihood(const Vector &theta, const ClassificationData &data) const
{
    checkCompatible(theta, data);
    return logLikelihoodTotal(data, nullptr, marginsOf(theta, m_options.bias)) / static_cast<double>(data.size());
}

ClassifierFit LogisticRegressionModel::fit(const Vector &theta, const ClassificationData &data) const
{
    checkCompatible(theta, data);
    std::int64_t correct = 0;
    double total = 0.0;
    forEachBlock(data, nullptr, marginsOf(theta, m_options.bias), [&](double *z, const double *sign, DataIndex count) {
        for (DataIndex k = 0; k < count; ++k)
            correct += (z[k] > 0.0) == (sign[k] > 0.0) ? 1 : 0;
        ChunkArray u(z, count);
        u *= Eigen::Map<const Eigen::ArrayXd, Eigen::Aligned64>(sign, count);
        negLogSigmoidInPlace(z, count);
        total -= u.sum();
    });
    const auto rows = static_cast<double>(data.size());
    return {static_cast<double>(correct) / rows, total / rows};
}

double LogisticRegressionModel::logSigmoid(double u)
{
    return -(std::max(-u, 0.0) + std::log1p(std::exp(-std::abs(u))));
}

} // namespace core
