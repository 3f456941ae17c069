#include "core/models/glm/glm_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/models/feature_rows.h"
#include "core/models/model_registry.h"
#include "core/models/plugin/plugin_family.h"

namespace core {
namespace {

// Rows per call of the family: the chunk's margins, responses and values stay in L1.
constexpr int kChunk = 64;

using feature_rows::accumulateDots;
using feature_rows::addScaledRow;
using feature_rows::prefetchRow;

} // namespace

GlmModel::GlmModel(std::shared_ptr<const GlmData> data, GlmOptions options)
    : GlmModel(std::move(data), options, makeGlmFamily(options.family))
{
    m_inModelTable = m_options.family.plugin.empty();
}

GlmModel::GlmModel(std::shared_ptr<const GlmData> data, GlmOptions options, std::unique_ptr<const GlmFamily> family)
    : m_data(std::move(data)), m_options(std::move(options)), m_family(std::move(family))
{
    if (!m_family)
        throw std::invalid_argument("a GLM needs a family");
    if (!m_data)
        throw std::invalid_argument("a GLM needs data");
    if (!(m_options.priorSd >= 0.0) || !std::isfinite(m_options.priorSd))
        throw std::invalid_argument("prior-sd must be 0 (flat) or finite and > 0; got "
                                    + std::to_string(m_options.priorSd));
    const FeatureMatrix &x = m_data->features;
    const auto n = static_cast<Eigen::Index>(m_data->response.size());
    if (n < 1 || x.rows() != n)
        throw std::invalid_argument("a GLM needs at least one row and one response per row; got "
                                    + std::to_string(x.rows()) + " rows and " + std::to_string(n) + " responses");
    m_features = static_cast<int>(x.cols());
    if (dimension() < 1)
        throw std::invalid_argument("a GLM needs at least one feature or the bias");
    const double bias = m_options.bias ? 1.0 : 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        if (const auto problem = responseProblem(m_family->response(), m_data->response[static_cast<std::size_t>(i)]))
            throw std::invalid_argument("row " + std::to_string(i + 1) + ": " + *problem + " for the "
                                        + std::string(m_family->name()) + " model; got "
                                        + std::to_string(m_data->response[static_cast<std::size_t>(i)]));
        const auto row = x.row(i).cast<double>();
        if (!row.allFinite())
            throw std::invalid_argument("row " + std::to_string(i + 1) + " has a feature that is not a finite number");
        m_maxAbsFeature = std::max({m_maxAbsFeature, bias, row.size() ? row.cwiseAbs().maxCoeff() : 0.0});
        m_maxRowNorm = std::max(m_maxRowNorm, std::sqrt(row.squaredNorm() + bias));
    }
}

CapabilitySet GlmModel::capabilities() const
{
    return m_inModelTable ? modelEntry(name()).capabilities : declaredCapabilities(*m_family);
}

std::string GlmModel::whyItLacks(ModelCapability capability) const
{
    return m_inModelTable ? Model::whyItLacks(capability) : m_family->whyItLacks(capability);
}

Vector GlmModel::initialTheta() const
{
    Vector theta = Vector::Zero(dimension());
    m_family->initialPoint(std::span<double>(theta.data(), static_cast<std::size_t>(theta.size())));
    return theta;
}

double GlmModel::logPrior(const Vector &theta) const
{
    if (m_options.priorSd <= 0.0)
        return 0.0;
    return -0.5 * theta.squaredNorm() / (m_options.priorSd * m_options.priorSd);
}

void GlmModel::gradLogPrior(const Vector &theta, Vector &out) const
{
    if (out.size() != theta.size())
        out.resize(theta.size());
    if (m_options.priorSd <= 0.0)
        out.setZero();
    else
        out = -theta / (m_options.priorSd * m_options.priorSd);
}

namespace {

// Calls body(start, n, rowOf) for each chunk of `count` rows, where rowOf(k) is the data row of
// the chunk's k-th entry.
template <typename RowOf, typename Body>
void forEachChunk(std::size_t count, RowOf rowOf, Body body)
{
    for (std::size_t start = 0; start < count; start += kChunk) {
        const int n = static_cast<int>(std::min<std::size_t>(kChunk, count - start));
        body(start, n, [&](int k) { return rowOf(start + static_cast<std::size_t>(k)); });
    }
}

} // namespace

namespace {

// Reads row r's K margins into margins[m][k].
template <int K>
void rowMargins(const GlmData &data, int features, bool bias, const std::array<const Vector *, K> &thetas,
                DataIndex r, int k, std::array<std::array<double, kChunk>, K> &margins)
{
    std::array<double, K> acc{};
    std::array<const double *, K> weights{};
    for (std::size_t m = 0; m < K; ++m) {
        weights[m] = thetas[m]->data();
        acc[m] = bias ? (*thetas[m])[features] : 0.0;
    }
    accumulateDots<K>(data.features.data() + static_cast<Eigen::Index>(r) * features, weights, features, acc);
    for (std::size_t m = 0; m < K; ++m)
        margins[m][static_cast<std::size_t>(k)] = acc[m];
}

} // namespace

namespace {

// The ratios ℓ(y, z') − ℓ(y, z) for the rows rowOf(0 … count), into out.
template <typename RowOf>
void ratios(const GlmModel &model, const Vector &from, const Vector &to, std::size_t count, RowOf rowOf,
            std::span<double> out)
{
    const GlmData &data = model.data();
    const int d = data.features.cols() > 0 ? static_cast<int>(data.features.cols()) : 0;
    const bool bias = model.options().bias;
    const GlmFamily &family = model.family();
    forEachChunk(count, rowOf, [&](std::size_t start, int n, auto row) {
        std::array<std::array<double, kChunk>, 2> z;
        std::array<double, kChunk> y;
        for (int k = 0; k < n; ++k) {
            if (k + 1 < n)
                prefetchRow(data.features.data() + static_cast<Eigen::Index>(row(k + 1)) * d, d);
            const DataIndex r = row(k);
            rowMargins<2>(data, d, bias, {&from, &to}, r, k, z);
            y[static_cast<std::size_t>(k)] = data.response[static_cast<std::size_t>(r)];
        }
        family.logLikelihoodRatio(y.data(), z[0].data(), z[1].data(), out.data() + start, n);
    });
}

// The Taylor residuals of order 1 or 2 around `anchor` (control_variates.h): with ẑ the anchor's
// margin, q̂(z) = ℓ(ẑ) + ℓ'(ẑ)(z − ẑ) [+ ½ℓ''(ẑ)(z − ẑ)²], so
// q̂(z') − q̂(z) = ℓ'(ẑ)(z' − z) [+ ½ℓ''(ẑ)(z' − z)(z' + z − 2ẑ)].
template <typename RowOf>
void residuals(const GlmModel &model, const Vector &from, const Vector &to, const Vector &anchor, int order,
               std::size_t count, RowOf rowOf, std::span<double> out)
{
    const GlmFamily &family = model.family();
    if (order == 2 && family.derivativeBound(3) == 0.0) {
        // ℓ is quadratic in z: the proxy is exact and every residual is 0, not rounding noise.
        std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count), 0.0);
        return;
    }
    const GlmData &data = model.data();
    const int d = static_cast<int>(data.features.cols());
    const bool bias = model.options().bias;
    forEachChunk(count, rowOf, [&](std::size_t start, int n, auto row) {
        std::array<std::array<double, kChunk>, 3> z;
        std::array<double, kChunk> y, ratio, slope, curvature;
        for (int k = 0; k < n; ++k) {
            if (k + 1 < n)
                prefetchRow(data.features.data() + static_cast<Eigen::Index>(row(k + 1)) * d, d);
            const DataIndex r = row(k);
            rowMargins<3>(data, d, bias, {&from, &to, &anchor}, r, k, z);
            y[static_cast<std::size_t>(k)] = data.response[static_cast<std::size_t>(r)];
        }
        family.logLikelihoodRatio(y.data(), z[0].data(), z[1].data(), ratio.data(), n);
        family.derivatives(y.data(), z[2].data(), slope.data(), curvature.data(), n);
        for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
            const double step = z[1][k] - z[0][k];
            double proxy = slope[k] * step;
            if (order == 2)
                proxy += 0.5 * curvature[k] * step * (z[1][k] + z[0][k] - 2.0 * z[2][k]);
            out[start + k] = ratio[k] - proxy;
        }
    });
}

auto listed(std::span<const DataIndex> rows)
{
    return [rows](std::size_t k) { return rows[k]; };
}

auto contiguous(DataIndex first)
{
    return [first](std::size_t k) { return first + static_cast<DataIndex>(k); };
}

void requireSizes(std::size_t rows, std::size_t out)
{
    if (rows != out)
        throw std::invalid_argument("a GLM's output span must have one entry per row");
}

} // namespace

void GlmModel::logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                                   std::span<double> out) const
{
    requireSizes(rows.size(), out.size());
    ratios(*this, from, to, rows.size(), listed(rows), out);
}

void GlmModel::logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                        std::span<double> out) const
{
    ratios(*this, from, to, out.size(), contiguous(first), out);
}

void GlmModel::taylorResiduals(const Vector &from, const Vector &to, const Vector &anchor, int order,
                               std::span<const DataIndex> rows, std::span<double> out) const
{
    requireSizes(rows.size(), out.size());
    residuals(*this, from, to, anchor, order, rows.size(), listed(rows), out);
}

void GlmModel::taylorResidualsRange(const Vector &from, const Vector &to, const Vector &anchor, int order,
                                    DataIndex first, std::span<double> out) const
{
    residuals(*this, from, to, anchor, order, out.size(), contiguous(first), out);
}

void GlmModel::margins(const Vector &theta, DataIndex first, std::span<double> out) const
{
    forEachChunk(out.size(), contiguous(first), [&](std::size_t start, int n, auto row) {
        std::array<std::array<double, kChunk>, 1> z;
        for (int k = 0; k < n; ++k)
            rowMargins<1>(*m_data, m_features, m_options.bias, {&theta}, row(k), k, z);
        std::copy_n(z[0].begin(), n, out.begin() + static_cast<std::ptrdiff_t>(start));
    });
}

double GlmModel::largestMargin(const Vector &theta) const
{
    double largest = -std::numeric_limits<double>::infinity();
    forEachChunk(static_cast<std::size_t>(dataSize()), contiguous(0), [&](std::size_t, int n, auto row) {
        std::array<std::array<double, kChunk>, 1> z;
        for (int k = 0; k < n; ++k)
            rowMargins<1>(*m_data, m_features, m_options.bias, {&theta}, row(k), k, z);
        for (int k = 0; k < n; ++k)
            largest = std::max(largest, z[0][static_cast<std::size_t>(k)]);
    });
    return largest;
}

double GlmModel::logLikelihoodSum(const Vector &theta) const
{
    double total = 0.0;
    forEachChunk(static_cast<std::size_t>(dataSize()), contiguous(0), [&](std::size_t, int n, auto row) {
        std::array<std::array<double, kChunk>, 1> z;
        std::array<double, kChunk> y, values;
        for (int k = 0; k < n; ++k) {
            rowMargins<1>(*m_data, m_features, m_options.bias, {&theta}, row(k), k, z);
            y[static_cast<std::size_t>(k)] = m_data->response[static_cast<std::size_t>(row(k))];
        }
        m_family->logLikelihood(y.data(), z[0].data(), values.data(), n);
        for (int k = 0; k < n; ++k)
            total += values[static_cast<std::size_t>(k)];
    });
    return total;
}

void GlmModel::sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const
{
    if (out.size() != dimension())
        out.resize(dimension());
    out.setZero();
    forEachChunk(rows.size(), listed(rows), [&](std::size_t, int n, auto row) {
        std::array<std::array<double, kChunk>, 1> z;
        std::array<double, kChunk> y, slope, curvature;
        for (int k = 0; k < n; ++k) {
            rowMargins<1>(*m_data, m_features, m_options.bias, {&theta}, row(k), k, z);
            y[static_cast<std::size_t>(k)] = m_data->response[static_cast<std::size_t>(row(k))];
        }
        m_family->derivatives(y.data(), z[0].data(), slope.data(), curvature.data(), n);
        for (int k = 0; k < n; ++k) {
            const double g = slope[static_cast<std::size_t>(k)];
            addScaledRow(m_data->features.data() + static_cast<Eigen::Index>(row(k)) * m_features, g, m_features,
                         out.data());
            if (m_options.bias)
                out[m_features] += g;
        }
    });
}

GlmModel::DerivativeSums GlmModel::derivativeSums(const Vector &theta) const
{
    // Blocks of rows widened to double with the bias column, weighted and multiplied: Xᵀ diag(w) X
    // a block at a time (no N × d copy).
    constexpr Eigen::Index kBlock = 512;
    const int dim = dimension();
    DerivativeSums sums{Vector::Zero(dim), Eigen::MatrixXd::Zero(dim, dim)};
    Eigen::MatrixXd block(kBlock, dim);
    std::vector<double> z(kBlock), slope(kBlock), curvature(kBlock);
    const DataIndex n = dataSize();
    for (DataIndex first = 0; first < n; first += kBlock) {
        const Eigen::Index rows = std::min<Eigen::Index>(kBlock, n - first);
        margins(theta, first, std::span<double>(z.data(), static_cast<std::size_t>(rows)));
        m_family->derivatives(m_data->response.data() + first, z.data(), slope.data(), curvature.data(),
                              static_cast<int>(rows));
        block.topRows(rows).leftCols(m_features) = m_data->features.middleRows(first, rows).cast<double>();
        if (m_options.bias)
            block.topRows(rows).col(m_features).setOnes();
        const Eigen::Map<const Eigen::VectorXd> g(slope.data(), rows), h(curvature.data(), rows);
        sums.gradient.noalias() += block.topRows(rows).transpose() * g;
        sums.hessian.noalias() += block.topRows(rows).transpose() * (h.asDiagonal() * block.topRows(rows));
    }
    sums.hessian = 0.5 * (sums.hessian + sums.hessian.transpose());
    return sums;
}

std::vector<double> GlmModel::rowMaxAbsFeatures() const
{
    std::vector<double> largest(static_cast<std::size_t>(dataSize()));
    const double bias = m_options.bias ? 1.0 : 0.0;
    for (std::size_t i = 0; i < largest.size(); ++i) {
        const auto row = m_data->features.row(static_cast<Eigen::Index>(i));
        largest[i] = std::max(bias, m_features > 0 ? static_cast<double>(row.cwiseAbs().maxCoeff()) : 0.0);
    }
    return largest;
}

std::optional<double> GlmModel::logLikelihoodRatioBound(const Vector &from, const Vector &to) const
{
    const auto slope = m_family->derivativeBound(1);
    if (!slope)
        return std::nullopt;
    return *slope * m_maxRowNorm * (to - from).norm();
}

std::vector<double> GlmModel::rowNorms() const
{
    std::vector<double> norms(static_cast<std::size_t>(dataSize()));
    const double bias = m_options.bias ? 1.0 : 0.0;
    for (std::size_t i = 0; i < norms.size(); ++i)
        norms[i] = std::sqrt(m_data->features.row(static_cast<Eigen::Index>(i)).cast<double>().squaredNorm() + bias);
    return norms;
}

std::optional<std::vector<double>> GlmModel::pointLipschitzConstants() const
{
    const auto slope = m_family->derivativeBound(1);
    if (!slope)
        return std::nullopt;
    std::vector<double> constants = rowNorms();
    for (double &c : constants)
        c *= *slope;
    return constants;
}

} // namespace core
