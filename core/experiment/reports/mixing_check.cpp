#include "core/experiment/reports/mixing_check.h"

#include <cmath>
#include <cstdio>
#include <algorithm>

#include "core/experiment/settings/method_registry.h"

namespace core {

MixingVerdict checkMixing(const ChainReport &chain)
{
    const bool rhatKnown = std::isfinite(chain.splitRhat), essKnown = std::isfinite(chain.essBulkMin);
    if (!rhatKnown && !essKnown)
        return {};
    MixingVerdict verdict{.level = Mixing::Mixed};
    char part[96];
    if (rhatKnown && chain.splitRhat > kMixedRhatAtMost) {
        std::snprintf(part, sizeof part, "split R-hat %.4f > %.2f", chain.splitRhat, kMixedRhatAtMost);
        verdict.figures = part;
        verdict.level = chain.splitRhat > kNotMixedRhatAbove ? Mixing::NotMixed : Mixing::NotConverged;
    }
    if (essKnown && chain.essBulkMin < kMixedEssPerChainAtLeast) {
        std::snprintf(part, sizeof part, "min bulk ESS %.0f < %.0f", chain.essBulkMin, kMixedEssPerChainAtLeast);
        verdict.figures += (verdict.figures.empty() ? "" : "; ") + std::string(part);
        verdict.level = Mixing::NotMixed;
    }
    return verdict;
}

std::string mixingRule()
{
    char rule[120];
    std::snprintf(rule, sizeof rule, "Vehtari et al. 2021 ask for split R-hat <= %.2f and a bulk ESS of at least %.0f a chain",
                  kMixedRhatAtMost, kMixedEssPerChainAtLeast);
    return rule;
}

std::string mixingName(Mixing level)
{
    switch (level) {
    case Mixing::Unmeasured:
        return "";
    case Mixing::Mixed:
        return "mixed";
    case Mixing::NotConverged:
        return "not converged";
    case Mixing::NotMixed:
        return "not mixed";
    }
    return "";
}

std::string mixingAdvice(const RunConfig &config)
{
    if (config.method == TestMethod::Tuna)
        return "TunaMH's acceptance falls fast as the move grows when its Lipschitz bounds are loose (on "
               "tall-logreg a point's bound |x_i| |theta - theta'| is several times the change "
               "|x_i . (theta - theta')| it bounds), so its burn-in learned a small step: a larger --tuna-chi buys "
               "larger moves with a larger batch (--tuna-chi 0 takes the forecast's, printed before the chain); smh, or minibatch with --control-variates taylor2, mixes on this "
               "data";
    if (config.method == TestMethod::ZigZag)
        return "a larger --zigzag-spacing (or --step) reads the skeleton off less often, so its outputs are less "
               "correlated; give more --samples";
    if (movesWithoutAcceptStep(config.method))
        return "a larger --step moves further per iteration, at the price of a larger bias (nothing corrects it); "
               "give more --samples and a longer --burn-in first";
    if (config.proposal == ProposalKind::RandomWalk)
        return "the random walk moves slowly on this posterior: --preset recommended picks a proposal that mixes "
               "on this dataset (or give more --samples)";
    return "give more --samples and a longer --burn-in, or another --proposal";
}

std::string approximationNote(const RunConfig &config)
{
    if (!isApproximateDynamics(config.method))
        return "";
    char step[64];
    std::snprintf(step, sizeof step, "h = %.4g, so epsilon = h^2 = %.4g", config.step, config.step * config.step);
    std::string note = "approximate: no accept step keeps the chain on the posterior, so its draws are biased, and the "
                       "bias grows with the step (";
    note += step;
    note += config.sgDecay > 0.0 ? ", then falling as (1 + t/t0)^-gamma)" : ")";
    note += config.method == TestMethod::Sghmc ? "; the gradient's noise adds to the friction's (no estimate of it is subtracted)"
                                               : "; the gradient's noise adds (epsilon/2)^2 Var(g) per move";
    note += controlVariateOrder(config) > 0 ? ", which the control variates shrink near the mode" : "";
    note += ". Run it beside an exact method (compare --methods " + methodName(config.method)
            + ",smh,mh), or on data with a known posterior (gmm, worst-case), to see the bias.";
    return note;
}

std::vector<std::string> unmixedMethods(const RunOutcome &outcome)
{
    // The worst chain of each method, in the methods' order.
    struct Worst {
        std::string label;
        MixingVerdict verdict;
        int chainNumber;
    };
    std::vector<Worst> worst;
    for (const ChainReport &chain : outcome.chains) {
        MixingVerdict verdict = checkMixing(chain);
        if (verdict.level != Mixing::NotConverged && verdict.level != Mixing::NotMixed)
            continue;
        Worst entry{chain.methodLabel(), std::move(verdict), chain.chainIndex + 1};
        const auto found = std::find_if(worst.begin(), worst.end(),
                                        [&entry](const Worst &known) { return known.label == entry.label; });
        if (found == worst.end())
            worst.push_back(std::move(entry));
        else if (entry.verdict.level > found->verdict.level)
            *found = std::move(entry);
    }
    std::vector<std::string> lines;
    for (const Worst &entry : worst)
        lines.push_back(entry.label + ": " + mixingName(entry.verdict.level) + ", " + entry.verdict.figures + " (chain "
                        + std::to_string(entry.chainNumber) + ")");
    return lines;
}

} // namespace core
