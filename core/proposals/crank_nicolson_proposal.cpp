#include "core/proposals/crank_nicolson_proposal.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace core {

namespace {

void requireStep(double step)
{
    if (!(step > 0.0 && step <= 1.0))
        throw std::invalid_argument("the Crank-Nicolson step s must be in (0, 1] (1: independent draws from the "
                                    "reference); got " + std::to_string(step));
}

} // namespace

CrankNicolsonProposal::CrankNicolsonProposal(Vector mean, Eigen::MatrixXd lowerFactor, double step,
                                             std::optional<AdaptationSettings> adaptation)
    // s never goes above 1: an independent draw is the boldest move there is.
    : ScaleAdaptiveProposal(adaptation, ScaleAdaptation(adaptation ? 1.0 : step, 1.0)), m_mean(std::move(mean))
{
    if (!adaptation) // an adaptive one starts at 1 whatever the chain's step
        requireStep(step);
    const Eigen::Index d = m_mean.size();
    if (d < 1 || !m_mean.allFinite())
        throw std::invalid_argument("the reference mean must be a finite, non-empty vector");
    setFactor(lowerFactor, d, "the reference covariance factor");
    if (adaptation)
        requireTargetAcceptance(adaptation->targetAcceptance);
    m_whitened.resize(d);
    m_from.resize(d);
    m_to.resize(d);
}

double CrankNicolsonProposal::referenceEnergy(const Vector &theta) const
{
    m_whitened = theta - m_mean;
    m_factor->triangularView<Eigen::Lower>().solveInPlace(m_whitened);
    return 0.5 * m_whitened.squaredNorm();
}

void CrankNicolsonProposal::propose(const Vector &from, Vector &to, double, Rng &rng) const
{
    m_energyFrom = referenceEnergy(from); // leaves z = L⁻¹(θ − μ) in m_whitened
    const double step = m_scale.scale();
    const double keep = std::sqrt(std::max(0.0, 1.0 - step * step));
    for (Eigen::Index k = 0; k < m_whitened.size(); ++k)
        m_whitened[k] = keep * m_whitened[k] + step * rng.normal();
    m_energyTo = 0.5 * m_whitened.squaredNorm();
    to = m_mean;
    to.noalias() += m_factor->triangularView<Eigen::Lower>() * m_whitened;
    m_from = from;
    m_to = to;
    m_haveProposal = true;
}

double CrankNicolsonProposal::logProposalRatio(const Vector &from, const Vector &to) const
{
    if (m_haveProposal && from == m_from && to == m_to)
        return m_energyTo - m_energyFrom;
    const double energyFrom = referenceEnergy(from);
    return referenceEnergy(to) - energyFrom;
}

std::unique_ptr<Proposal> CrankNicolsonProposal::withStep(double step) const
{
    requireStep(step);
    auto copy = std::make_unique<CrankNicolsonProposal>(m_mean, *m_factor, step);
    copy->continueFrozen(*this, step);
    return copy;
}

} // namespace core
