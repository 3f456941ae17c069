#pragma once
/// How far each method's posterior lies from the full-data reference run beside it: the first
/// exact full-data test among a request's methods (mh or barker), its chains pooled. Per θ
/// component the mean's shift in the reference's sds and the ratio of the sds
/// (reference_agreement.h), summarised over the components. The compare table prints it, and a
/// sweep reports it per point, so that the bias of an approximate method (the naive minibatch
/// test, SGLD) can be read against its cost on data whose posterior is known only by sampling.
#include <cstddef>
#include <optional>

#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/reference_agreement.h"
#include "core/experiment/service/run_outcome.h"

namespace core {

/// The index in outcome.request.methods of the first mh or barker; nullopt when there is none.
std::optional<std::size_t> fullDataReferenceIndex(const RunOutcome &outcome);

/// One method's chains pooled: the mean of their means, and the sd of all their rows together
/// (each chain's final segment; chains of one request have equal lengths). rows = 0 when none
/// has moments.
ComponentMoments pooledMoments(const RunOutcome &outcome, std::size_t methodIndex);

/// The method's pooled posterior against the reference's; nullopt where either has no rows, their
/// dimensions differ, or no component of the reference varies.
std::optional<AgreementSummary> agreementWithReference(const RunOutcome &outcome, std::size_t methodIndex,
                                                       std::size_t referenceIndex);

} // namespace core
