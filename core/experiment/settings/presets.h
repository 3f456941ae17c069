#pragma once
/// The two presets a run starts from. The paper's preset is RunConfig{} with the dataset's own
/// temperature and step (applyDatasetDefaults): Seita et al.'s settings, which every
/// reproduction of their figures and tables names. The recommended preset is what the front
/// ends open with: on top of the paper's model settings it picks a proposal that mixes on the
/// dataset (an adaptive random walk on the mixture, Hamiltonian moves preconditioned by the
/// Laplace approximation on images, Crank–Nicolson moves around it on tall data), a burn-in for
/// it to learn from, enough samples for a few thousand effective draws in seconds (two chains
/// on images, presetChains), a
/// N(0, I) prior where the paper's flat prior is improper (separable images), Taylor
/// control variates on tall data, and for the worst case N = 10⁵ (the same third of N a test,
/// in a tenth of the time). Only settings the user did not give are filled.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/experiment/settings/run_config.h"

namespace core {

/// The worst case's N under the recommended preset (the paper's is RunConfig{}.nData, 10⁶).
inline constexpr std::int64_t kRecommendedWorstCaseSize = 100'000;
/// AustereMH(nc)'s bound on the mean |error| of its acceptance probability under the
/// recommended preset (the paper's is 0, which AustereMH(nc) refuses).
inline constexpr double kRecommendedAustereErrorBound = 0.05;

/// "paper" or "recommended".
std::string presetName(Preset preset);
/// Throws std::invalid_argument naming the allowed values.
Preset parsePreset(const std::string &name);

/// Fills every setting of `config.preset` that `given(flag)` says the user did not give, for
/// `config.dataset` and for running each of `methods` (the samples and control variates
/// depend on what every method reads per iteration). The paper's preset is exactly
/// applyDatasetDefaults.
void applyPreset(RunConfig &config, const std::vector<TestMethod> &methods,
                 const std::function<bool(std::string_view flag)> &given);

/// The chains per method a run of `config` (as its preset filled it) starts with when its user
/// gives no count: 2 for the recommended preset's Hamiltonian run on images where every method
/// reads a minibatch, 1 otherwise. Its 784 weights need about 1,500 effective draws each before
/// split R-hat settles under 1.01, and two chains of 10,000 draws give them in half the time
/// of one of 20,000 on two cores (the bundled digits: 1.4 s against 2.6 s of sampling), with an
/// R-hat that compares chains from different starts. The front ends run such chains at once.
int presetChains(const RunConfig &config, const std::vector<TestMethod> &methods);

/// `config` with every setting a preset decides reset and then filled by `preset` for
/// `config.dataset`: what a front end shows when its user picks a preset or a dataset. N is
/// one of them for the worst case only: other datasets keep the user's N.
RunConfig withPreset(RunConfig config, Preset preset, const std::vector<TestMethod> &methods);

} // namespace core
