#include "core/proposals/hamiltonian_proposal.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/validation/range_checks.h"

namespace core {

namespace {

void requireStep(double step)
{
    requireFinitePositive("the leapfrog step", step);
}

// Adaptive, the chain's --step means nothing in whitened units: start at the optimum's order.
double initialStep(const Model &model, double step, bool adaptive)
{
    if (adaptive)
        step = std::pow(static_cast<double>(model.dimension()), -0.25);
    requireStep(step);
    return step;
}

} // namespace

HamiltonianProposal::HamiltonianProposal(const Model &model, Eigen::MatrixXd lowerFactor, double step,
                                         DataIndex gradBatch, int leapfrogSteps,
                                         std::optional<AdaptationSettings> adaptation)
    : ScaleAdaptiveProposal(adaptation, ScaleAdaptation(initialStep(model, step, adaptation.has_value()))),
      m_model(model), m_gradBatch(gradBatch), m_leapfrogSteps(leapfrogSteps)
{
    if (!model.hasGradient())
        throw std::invalid_argument("the Hamiltonian proposal needs gradients, which the model '" + model.name()
                                    + "' does not provide");
    const Eigen::Index d = model.dimension();
    setFactor(lowerFactor, d, "the mass matrix's factor");
    if (auto root = LowRankRoot::compress(*m_factor)) {
        m_root = std::make_shared<const LowRankRoot>(std::move(*root));
        m_rootScratch.resize(m_root->rank());
    }
    const DataIndex n = model.dataSize();
    if (gradBatch < 1 || gradBatch > n)
        throw std::invalid_argument("grad-batch must be in [1, " + std::to_string(n) + "] (the data size); got "
                                    + std::to_string(gradBatch));
    if (leapfrogSteps < 1 || leapfrogSteps > 1000)
        throw std::invalid_argument("leapfrog-steps must be in [1, 1000]; got " + std::to_string(leapfrogSteps));
    if (adaptation)
        requireTargetAcceptance(adaptation->targetAcceptance);
    if (gradBatch == n) {
        m_allRows.resize(static_cast<std::size_t>(n));
        std::iota(m_allRows.begin(), m_allRows.end(), DataIndex{0});
    } else {
        m_sampler.reset(n);
    }
    for (Vector *v : {&m_momentum, &m_gradient, &m_whitened, &m_likelihoodSum, &m_from, &m_to, &m_gradientFrom,
                      &m_gradientTo})
        v->resize(d);
}

void HamiltonianProposal::gradient(const Vector &theta, double temperature, Vector &out) const
{
    m_model.gradLogPrior(theta, out);
    m_model.sumGradLogLikelihood(theta, m_subset, m_likelihoodSum);
    const double scale = static_cast<double>(m_model.dataSize()) / (temperature * static_cast<double>(m_subset.size()));
    out += scale * m_likelihoodSum;
}

void HamiltonianProposal::whiten(const Vector &g, Vector &out) const
{
    out.noalias() = m_factor->transpose().triangularView<Eigen::Upper>() * g;
}

void HamiltonianProposal::propose(const Vector &from, Vector &to, double temperature, Rng &rng) const
{
    const bool fullData = !m_allRows.empty();
    if (fullData) {
        m_subset = m_allRows;
    } else {
        m_sampler.beginTest();
        m_subset = m_sampler.drawMore(m_gradBatch, rng);
    }
    // With B = N the gradient is a function of θ alone: the chain's point is one of the last
    // trajectory's ends, whose gradients are kept.
    const bool reusable = fullData && m_haveTrajectory && temperature == m_temperature;
    if (reusable && from == m_to)
        m_gradient = m_gradientTo;
    else if (reusable && from == m_from)
        m_gradient = m_gradientFrom;
    else
        gradient(from, temperature, m_gradient);
    m_from = from;
    m_gradientFrom = m_gradient;
    m_temperature = temperature;

    const double epsilon = m_scale.scale() * (0.8 + 0.4 * rng.uniform01());
    for (Eigen::Index k = 0; k < m_momentum.size(); ++k)
        m_momentum[k] = rng.normal();
    const double initialKinetic = 0.5 * m_momentum.squaredNorm();
    to = from;
    const int steps = 1 + static_cast<int>(rng.uniformIndex(static_cast<std::uint64_t>(2 * m_leapfrogSteps - 1)));
    if (m_root) {
        // The same trajectory in the momentum r = S⁻¹p that S whitens (p = S r): the steps
        // r += (ε/2) ĝ, θ += ε S² r need one product with the root's structure where p's form
        // needs two (S ĝ and S p), and the kinetic energy ½‖p‖² = ½ rᵀ S² r costs one more at
        // the end. Four steps: 6 products instead of 9.
        m_whitened = m_momentum; // ξ ~ N(0, I), the whitened momentum
        m_root->applyInverse(m_whitened, m_momentum, m_rootScratch);
        for (int step = 0; step < steps; ++step) {
            m_momentum += (0.5 * epsilon) * m_gradient;
            m_root->applySquare(m_momentum, m_whitened, m_rootScratch);
            to += epsilon * m_whitened;
            gradient(to, temperature, m_gradient);
            m_momentum += (0.5 * epsilon) * m_gradient;
        }
        m_root->applySquare(m_momentum, m_whitened, m_rootScratch);
        m_kineticChange = initialKinetic - 0.5 * m_momentum.dot(m_whitened);
    } else {
        whiten(m_gradient, m_whitened);
        for (int step = 0; step < steps; ++step) {
            m_momentum += (0.5 * epsilon) * m_whitened;
            m_whitened = epsilon * m_momentum; // reused as scratch for ε p
            to.noalias() += m_factor->triangularView<Eigen::Lower>() * m_whitened;
            gradient(to, temperature, m_gradient);
            whiten(m_gradient, m_whitened);
            m_momentum += (0.5 * epsilon) * m_whitened;
        }
        m_kineticChange = initialKinetic - 0.5 * m_momentum.squaredNorm();
    }
    if (!std::isfinite(m_kineticChange) || !to.allFinite()) {
        // A diverging trajectory (ε far too large for the curvature it met): rejected outright,
        // as a candidate of zero acceptance probability, at the starting point so that the
        // model is never asked about non-finite θ.
        to = from;
        m_kineticChange = -std::numeric_limits<double>::infinity();
        m_gradient = m_gradientFrom;
    }
    m_to = to;
    m_gradientTo = m_gradient;
    m_haveTrajectory = true;
}

double HamiltonianProposal::logProposalRatio(const Vector &from, const Vector &to) const
{
    if (!m_haveTrajectory || from != m_from || to != m_to)
        throw std::logic_error("the Hamiltonian proposal's ratio is defined only for the trajectory propose() just ran");
    return m_kineticChange;
}

std::unique_ptr<Proposal> HamiltonianProposal::withStep(double step) const
{
    requireStep(step);
    // A copy keeps the mass matrix's root, whose subspace iteration would otherwise run again on
    // every step the user sets; it starts as a new proposal would, with no trajectory and the
    // minibatch permutation back at the identity.
    auto copy = std::make_unique<HamiltonianProposal>(*this);
    copy->m_haveTrajectory = false;
    if (m_allRows.empty())
        copy->m_sampler.reset(m_model.dataSize());
    copy->continueFrozen(*this, step);
    return copy;
}

} // namespace core
