#include "core/proposals/adaptive_proposal.h"

#include <stdexcept>

#include "core/validation/range_checks.h"

namespace core {

void requireTargetAcceptance(double target)
{
    if (!(target > 0.0 && target < 1.0))
        throw std::invalid_argument("target acceptance must be in (0, 1); got " + std::to_string(target));
}

void requireLowerFactor(const Eigen::MatrixXd &factor, Eigen::Index dimension, const std::string &name)
{
    if (factor.rows() != dimension || factor.cols() != dimension || !factor.allFinite()
        || !(factor.diagonal().array() > 0.0).all())
        throw std::invalid_argument(name + " must be a finite " + std::to_string(dimension) + "×"
                                    + std::to_string(dimension) + " lower-triangular matrix with a positive diagonal");
}

} // namespace core

namespace core {

std::unique_ptr<AdaptiveProposal> AdaptiveProposal::relearning(double scaleFactor) const
{
    requireFinitePositive("scale factor", scaleFactor);
    std::unique_ptr<Proposal> copy = withStep(step() * scaleFactor);
    auto *adaptive = dynamic_cast<AdaptiveProposal *>(copy.get());
    if (!adaptive || !adaptive->resumeScaleLearning())
        return nullptr;
    copy.release(); // now owned as the adaptive proposal it is
    return std::unique_ptr<AdaptiveProposal>(adaptive);
}

} // namespace core
