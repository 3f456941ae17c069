#pragma once
/// Each dataset's own part of the two presets (presets.h), one pair of functions per dataset row
/// (DatasetEntry::paperDefaults and ::recommended): the paper's temperature and step for it, and
/// what the recommended preset adds on top (a proposal that mixes, enough samples, control
/// variates, N). applyDatasetDefaults and applyPreset look the row up and call them.
#include <functional>
#include <string_view>
#include <vector>

#include "core/experiment/settings/run_config.h"

namespace core {

/// What a dataset's preset function is given besides the settings: which flags the user gave
/// (filled settings are only those not given) and the methods the run compares.
struct PresetContext {
    std::function<bool(std::string_view flag)> given;
    std::vector<TestMethod> methods;

    bool set(std::string_view flag) const { return given && given(flag); }
    /// Every method reads a minibatch of about a hundred points whatever N is, so a long run
    /// takes seconds (MethodEntry::readsSmallMinibatch).
    bool allMinibatch() const;
    /// Every method moves by its own dynamics, without an accept step (SGLD, SGHMC).
    bool allStochasticGradient() const;
    /// Sets the proposal to `kind` unless the user gave one, an annealed burn-in keeps the paper's
    /// random walk, or no chain uses a proposal.
    void chooseProposal(RunConfig &config, ProposalKind kind) const;
};

/// The paper's settings per dataset (applyDatasetDefaults).
void fileLogisticPaperDefaults(RunConfig &config, const PresetContext &context);
void fileGlmPaperDefaults(RunConfig &config, const PresetContext &context);
void tallPaperDefaults(RunConfig &config, const PresetContext &context);
void worstCasePaperDefaults(RunConfig &config, const PresetContext &context);

/// What the recommended preset adds per dataset (before the burn-in rule common to all).
void mixtureRecommended(RunConfig &config, const PresetContext &context);
void fileLogisticRecommended(RunConfig &config, const PresetContext &context);
void tallRecommended(RunConfig &config, const PresetContext &context);
void worstCaseRecommended(RunConfig &config, const PresetContext &context);

/// logreg on images (not a user's table): the run the recommended preset gives two chains.
bool isImageRun(const RunConfig &config);

} // namespace core
