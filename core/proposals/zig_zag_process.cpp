#include "core/proposals/zig_zag_process.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/models/control_variates.h"
#include "core/validation/range_checks.h"

namespace core {
namespace {

// The first event time of a Poisson process of rate a + b s (a, b ≥ 0) for the unit-rate
// exponential draw `e`: the root of a s + b s²/2 = e, in a form without cancellation.
double firstEventTime(double a, double b, double e)
{
    if (b > 0.0)
        return 2.0 * e / (a + std::sqrt(a * a + 2.0 * b * e));
    return a > 0.0 ? e / a : std::numeric_limits<double>::infinity();
}

} // namespace

ZigZagProcess::ZigZagProcess(const Model &model, const TaylorProxies *controlVariates, double spacing,
                             double boundScale, double step)
    : m_model(model), m_proxies(controlVariates), m_spacing(spacing), m_boundScale(boundScale),
      m_step(step > 0.0 ? step : spacing)
{
    requireFinitePositive("zigzag-spacing", spacing);
    requireFinitePositive("the Zig-Zag bound's scale", boundScale);
    if (!model.hasGradient())
        throw std::invalid_argument("the Zig-Zag process needs gradients, which the model '" + model.name()
                                    + "' does not provide");
    const int dim = model.dimension();
    const std::optional<double> prior = model.priorGradientLipschitz();
    if (controlVariates) {
        const std::optional<Vector> lipschitz = model.pointGradientLipschitz();
        if (!lipschitz || !prior)
            throw std::invalid_argument("the Zig-Zag process needs the Lipschitz constants of each point's gradient, "
                                        "which the model '" + model.name() + "' does not provide");
        if (lipschitz->size() != dim || controlVariates->anchor().size() != dim)
            throw std::invalid_argument(
                "the Zig-Zag process: the gradient bounds or the anchor do not have the model's dimension");
        m_lipschitz = *lipschitz;
        m_priorAtAnchor.resize(dim);
        model.gradLogPrior(controlVariates->anchor(), m_priorAtAnchor);
    } else {
        const std::optional<std::vector<double>> constants = model.pointLipschitzConstants();
        if (!constants || !prior)
            throw std::invalid_argument("the Zig-Zag process without control variates needs each point's Lipschitz "
                                        "constant and the prior's gradient bound, which the model '"
                                        + model.name() + "' does not provide (use --control-variates taylor1)");
        m_pointGradientBound = constants->empty() ? 0.0 : *std::max_element(constants->begin(), constants->end());
    }
    m_priorLipschitz = *prior;
    m_anchorGradient.resize(dim);
    m_slopes.resize(dim);
    m_work.resize(dim);
    m_rowGradient.resize(dim);
    m_anchorRowGradient.resize(dim);
    m_priorGradient.resize(dim);
}

Vector ZigZagProcess::rateSlopes(double temperature) const
{
    const double n = static_cast<double>(m_model.dataSize());
    if (!m_proxies)
        return Vector::Zero(m_model.dimension());
    return m_boundScale * ((n / temperature) * m_lipschitz.array() + m_priorLipschitz).matrix();
}

double ZigZagProcess::coordinateEstimate(const Vector &theta, int coordinate, DataIndex point, double temperature) const
{
    const std::array<DataIndex, 1> row{point};
    const double n = static_cast<double>(m_model.dataSize());
    m_model.sumGradLogLikelihood(theta, row, m_rowGradient);
    m_model.gradLogPrior(theta, m_priorGradient);
    if (!m_proxies) // E_i^j(θ) = −∂_i log p0(θ) − (N/T) ∂_iℓ_j(θ)
        return -m_priorGradient[coordinate] - (n / temperature) * m_rowGradient[coordinate];
    // E_i^j(θ) = ∂_iU(θ̂) − [∂_i log p0(θ) − ∂_i log p0(θ̂)] − (N/T) [∂_iℓ_j(θ) − ∂_iℓ_j(θ̂)].
    m_model.sumGradLogLikelihood(m_proxies->anchor(), row, m_anchorRowGradient);
    return m_anchorGradient[coordinate] - (m_priorGradient[coordinate] - m_priorAtAnchor[coordinate])
           - (n / temperature) * (m_rowGradient[coordinate] - m_anchorRowGradient[coordinate]);
}

ZigZagProcess::ProposedEvent ZigZagProcess::firstProposedEvent(Rng &rng) const
{
    const Eigen::Index dim = m_work.size();
    const double speed = std::sqrt(static_cast<double>(dim)); // ‖v‖₂
    ProposedEvent event{std::numeric_limits<double>::infinity(), -1, 0.0};
    double firstA = 0.0, firstB = 0.0;
    // The affine bound a_i + b_i s of each coordinate's rate from m_work (the header's forms).
    const auto consider = [&](Eigen::Index i, double a, double b) {
        const double s = firstEventTime(a, b, -std::log(rng.uniformOpen01()));
        if (s < event.time) {
            event.time = s;
            event.coordinate = static_cast<int>(i);
            firstA = a;
            firstB = b;
        }
    };
    if (m_proxies) {
        const double distance = (m_work - m_proxies->anchor()).norm();
        for (Eigen::Index i = 0; i < dim; ++i)
            consider(i, std::max(0.0, m_velocity[i] * m_anchorGradient[i]) + m_slopes[i] * distance,
                     m_slopes[i] * speed);
    } else {
        m_model.gradLogPrior(m_work, m_priorGradient);
        const double growth = m_priorLipschitz * speed;
        for (Eigen::Index i = 0; i < dim; ++i)
            consider(i, std::max(0.0, -m_velocity[i] * m_priorGradient[i]) + m_dataRate, growth);
    }
    event.bound = firstA + firstB * event.time;
    return event;
}

void ZigZagProcess::propose(const Vector &from, Vector &to, double temperature, Rng &rng) const
{
    const Eigen::Index dim = from.size();
    if (m_velocity.size() != dim) {
        m_velocity.resize(dim);
        for (Eigen::Index i = 0; i < dim; ++i)
            m_velocity[i] = rng.uniformIndex(2) == 0 ? -1.0 : 1.0;
    }
    if (temperature != m_gradientTemperature) {
        // ∂U(θ̂) = −∇ log p0(θ̂) − G / T.
        if (m_proxies)
            m_anchorGradient = -m_priorAtAnchor - m_proxies->gradientSum() / temperature;
        m_slopes = rateSlopes(temperature);
        if (!m_proxies) {
            // The global bound's data term N·M/T: the same for every coordinate and event.
            m_dataRate = m_boundScale * m_pointGradientBound * static_cast<double>(m_model.dataSize()) / temperature;
        }
        m_gradientTemperature = temperature;
    }
    const auto n = static_cast<std::uint64_t>(m_model.dataSize());
    m_cost = {0, 0};
    m_switches = 0;
    m_work = from;
    if (pathCorners() == m_pathStart || !std::equal(from.begin(), from.end(), m_path.end() - dim))
        recordCorner(from); // the first output, or a path that went on elsewhere
    double remaining = m_spacing;
    for (;;) {
        const ProposedEvent event = firstProposedEvent(rng);
        if (!(event.time < remaining)) {
            m_work += remaining * m_velocity;
            break;
        }
        m_work += event.time * m_velocity;
        remaining -= event.time;
        const auto point = static_cast<DataIndex>(rng.uniformIndex(n));
        ++m_cost.pointsRead;
        const int i = event.coordinate;
        const double rate = std::max(0.0, m_velocity[i] * coordinateEstimate(m_work, i, point, temperature));
        if (rate > event.bound * (1.0 + 1e-9))
            ++m_cost.boundViolations;
        if (rng.uniform01() * event.bound < rate) {
            m_velocity[i] = -m_velocity[i];
            ++m_switches;
            recordCorner(m_work);
        }
    }
    recordCorner(m_work);
    to = m_work;
}

void ZigZagProcess::recordCorner(const Vector &corner) const
{
    const auto dim = static_cast<std::size_t>(corner.size());
    // Past the cap the oldest corner is dropped; once as many are dropped as kept, the kept ones
    // move down, so that the buffer stays within twice the cap.
    if (pathCorners() - m_pathStart >= kPathCorners)
        ++m_pathStart;
    if (m_pathStart >= kPathCorners) {
        m_path.erase(m_path.begin(), m_path.begin() + static_cast<std::ptrdiff_t>(m_pathStart * dim));
        m_pathStart = 0;
    }
    m_path.insert(m_path.end(), corner.begin(), corner.end());
}

void ZigZagProcess::takeRecentPath(std::vector<Vector> &out) const
{
    const auto dim = static_cast<std::size_t>(m_work.size());
    const std::size_t corners = dim > 0 ? pathCorners() : 0;
    out.resize(corners - std::min(corners, m_pathStart));
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = Eigen::Map<const Vector>(m_path.data() + (m_pathStart + k) * dim, static_cast<Eigen::Index>(dim));
    // The next stretch starts where this one ended: its last corner stays, so the next path joins on.
    if (!out.empty())
        m_path.erase(m_path.begin(), m_path.end() - static_cast<std::ptrdiff_t>(dim));
    m_pathStart = 0;
}

std::unique_ptr<Proposal> ZigZagProcess::withStep(double step) const
{
    requireFinitePositive("step", step);
    // A copy, not a new process: the bounds' constants were read once (without control variates,
    // a pass over the data), and the velocity and the slopes at the current T go on. Its path
    // starts afresh: the caller may copy a process whose path it no longer drains, and corners
    // already reported must not be drawn twice.
    auto copy = std::make_unique<ZigZagProcess>(*this);
    copy->m_spacing = m_spacing * step / m_step;
    requireFinitePositive("zigzag-spacing", copy->m_spacing);
    copy->m_step = step;
    copy->m_path.clear();
    copy->m_pathStart = 0;
    return copy;
}

} // namespace core
