#include "core/experiment/settings/dataset_presets.h"

#include <algorithm>
#include <cmath>

#include "core/experiment/inputs/logistic_dataset.h"
#include "core/experiment/settings/presets.h"
#include "core/experiment/settings/dataset_registry.h"
#include "core/experiment/settings/method_registry.h"

namespace core {
namespace {

// The recommended control variates are second order: a method whose variates are first order
// (SGLD-CV) is run plain unless its variant is named ("sgld+taylor1").
bool takesSecondOrderControlVariates(TestMethod method)
{
    const MethodEntry &row = methodRow(method);
    return takesControlVariates(row) && row.maxControlVariateOrder >= 2;
}

} // namespace

// The tests whose cost per iteration is a minibatch of about a hundred points whatever N is:
// a run of 10⁵ of their iterations takes about a second. AustereMH and MHSubLhd often read
// most of the data (Seita et al. Table 1), and the exact tests read all of it, so a run that
// includes one of them keeps the paper's length. SMH with its Taylor proxies reads a few
// points per iteration (Cornish et al. 2019, Sec. 3.3); TunaMH's batch grows with N.
bool PresetContext::allMinibatch() const
{
    return !methods.empty()
           && std::all_of(methods.begin(), methods.end(), [](TestMethod m) { return methodRow(m).readsSmallMinibatch; });
}

bool PresetContext::allStochasticGradient() const
{
    return !methods.empty() && std::all_of(methods.begin(), methods.end(), movesWithoutAcceptStep);
}

// The recommended proposals learn during a burn-in at the target temperature: an annealed
// burn-in (the paper's schedule, given by the user) keeps the paper's random walk.
// The stochastic-gradient methods move by their own dynamics: a run of them alone keeps the
// plain proposal setting (no Laplace fit for a proposal no chain uses), and gets a burn-in for
// the walk from the start to the posterior, as the learning proposals do.
void PresetContext::chooseProposal(RunConfig &config, ProposalKind kind) const
{
    if (!set("proposal") && !(config.annealFrom > 0.0) && !allStochasticGradient())
        config.proposal = kind;
}

bool isImageRun(const RunConfig &config)
{
    return findDataset(config.dataset) == &fileDataset() && !isUserTable(config.logreg);
}

void fileLogisticPaperDefaults(RunConfig &config, const PresetContext &context)
{
    // A user's table comes in its own units (glucose near 100 beside a score near 0.5);
    // the paper's pixels are already in [0, 1].
    if (!context.set("standardize") && !context.set("no-standardize"))
        config.logreg.standardize = isUserTable(config.logreg);
    if (!context.set("temperature"))
        config.temperature = 100.0;
    if (!context.set("step"))
        config.step = 0.05;
}

void fileGlmPaperDefaults(RunConfig &config, const PresetContext &context)
{
    // A regression on a user's table: the Bayesian posterior (T = 1) of standardised features
    // under a N(0, I) prior, as for a user's table with logistic regression.
    if (!context.set("standardize") && !context.set("no-standardize"))
        config.logreg.standardize = true;
    if (!context.set("temperature"))
        config.temperature = 1.0;
    if (!context.set("prior-sd"))
        config.logreg.model.priorSd = 1.0;
    if (!context.set("step"))
        config.step = 0.05;
}

void tallPaperDefaults(RunConfig &config, const PresetContext &context)
{
    if (!context.set("temperature"))
        config.temperature = 1.0;
    if (!context.set("prior-sd"))
        config.logreg.model.priorSd = 1.0;
    config.logreg.model.bias = true; // the dimension d counts the bias weight
    if (!context.set("step") && config.nData > 0)
        config.step = 1.0 / std::sqrt(static_cast<double>(config.nData));
}

void worstCasePaperDefaults(RunConfig &config, const PresetContext &context)
{
    if (!context.set("temperature"))
        config.temperature = 1.0;
    if (!context.set("step") && config.nData > 0)
        config.step = 1.0 / std::sqrt(static_cast<double>(config.nData));
}

void mixtureRecommended(RunConfig &config, const PresetContext &context)
{
    // The mixture's two modes lie along a ridge that the paper's isotropic random walk
    // (step 0.15, 3000 samples) crosses a few times at most: split R-hat ≈ 1.6, bulk ESS ≈ 2.
    // A random walk whose covariance the burn-in learns follows the ridge (measured: bulk
    // ESS ≈ 7,000 of 10⁵ samples, split R-hat 1.000, 0.8 s of sampling).
    context.chooseProposal(config, ProposalKind::Adaptive);
    if (!context.set("samples") && context.allMinibatch())
        config.samples = 100'000;
}

void fileLogisticRecommended(RunConfig &config, const PresetContext &context)
{
    // On images that two classes separate, the paper's flat prior leaves the posterior
    // improper in some directions (the weights of pixels that are always 0 in one class
    // drift forever): a N(0, I) prior makes it proper, and then the Laplace approximation
    // is a good preconditioner for Hamiltonian moves (measured on the bundled digits at
    // T = 100: median bulk ESS ≈ 300 of 3,000 samples against ≈ 2 for the random walk).
    if (!context.set("prior-sd") && config.logreg.model.priorSd == 0.0)
        config.logreg.model.priorSd = 1.0;
    // A user's own table is not the paper's experiment: its posterior is the Bayesian one
    // (T = 1), and its standardised features need an intercept to model a base rate. At
    // T = 1 the posterior is close to its Laplace approximation, where Crank–Nicolson
    // moves around it are nearly independent draws (measured on a 768-row, 8-feature table
    // of the Pima diabetes shape, full-data test: bulk ESS ≈ 1,350 of 3,000 samples, where
    // the Hamiltonian moves gave ≈ 17 and split R-hat 1.27).
    const bool userTable = isUserTable(config.logreg);
    context.chooseProposal(config, userTable ? ProposalKind::LaplaceCrankNicolson : ProposalKind::LaplaceHamiltonian);
    if (userTable) {
        if (!context.set("temperature"))
            config.temperature = 1.0;
        if (!context.set("bias") && !context.set("no-bias"))
            config.logreg.model.bias = true;
    } else if (!context.set("samples") && context.allMinibatch()) {
        // Split R-hat is taken on each of the 784 weights, so its largest value carries the
        // noise of 784 estimates: it stays above 1.01 until every weight has about 1,500
        // effective draws (measured on the bundled digits, 1 vs 7, seeds 1–3: 3,000 samples
        // gave split R-hat 1.04 and min bulk ESS 95–300; 12,000 gave 1.008–1.013; 20,000
        // gave 1.004–1.008 with min bulk ESS 1,540–1,650). They come from two chains of
        // 10,000 (presetChains), which a machine with two cores runs at once.
        config.samples = 10'000;
    }
    // The Hamiltonian trajectory's minibatch gradient grows noisier with N: choose its
    // batch from N when the images are loaded (gradBatchFor: 100 for the bundled digits,
    // 400 for Fashion-MNIST's 12,000 rows, where 100 left the chain not converged).
    if (!userTable && !context.set("grad-batch") && config.proposal == ProposalKind::LaplaceHamiltonian)
        config.gradBatch = 0;
}

void tallRecommended(RunConfig &config, const PresetContext &context)
{
    // Tall data (tall-logreg, tall-glm, and a user's file for a regression, which may be as
    // tall): the minibatch's variance grows with N unless Taylor control variates remove the
    // part the proxies explain (Bardenet, Doucet & Holmes 2017); around the same mode,
    // Crank–Nicolson moves draw nearly independent proposals from the Laplace approximation
    // (measured at N = 10⁶, d = 20: bulk ESS ≈ 5,700 of 20,000 samples, 100 points read per
    // iteration).
    context.chooseProposal(config, ProposalKind::LaplaceCrankNicolson);
    if (!context.set("control-variates") && config.controlVariates == ControlVariates::Auto
        && std::all_of(context.methods.begin(), context.methods.end(), takesSecondOrderControlVariates))
        config.controlVariates = ControlVariates::Taylor2;
    if (!context.set("samples") && context.allMinibatch())
        config.samples = 20'000;
    const auto runs = [&](TestMethod method) {
        return std::find(context.methods.begin(), context.methods.end(), method) != context.methods.end();
    };
    // TunaMH's χ from its forecast (tuna_forecast.h), made once the data are loaded: the χ at
    // which a move as long as a mixing random walk's has a log-ratio noise of variance 1. A
    // smaller χ reads fewer points a test but rejects such moves, and the burn-in then learns a
    // step that barely moves (at N = 10⁶, d = 20, χ = 10⁻⁵: split R-hat 2.07, min bulk ESS 1 of
    // 2,700). Where the forecast's batch exceeds N, moves of that length take the full-data
    // test, and the forecast says before the chain that TunaMH costs full-data MH's here.
    if (!context.set("tuna-chi") && runs(TestMethod::Tuna))
        config.tunaChi = 0.0;
    // SGLD's and SGHMC's step from their forecast (gradient_setup.h), once the data are loaded:
    // the largest whose sds stay within 10 % of the posterior's, where an effective draw then
    // costs under ten times full-data MH's and the run's draws mix at it; elsewhere the step
    // stays and the forecast says why (at N = 10⁶, d = 20, SGLD-CV at the chosen 0.00238 reads
    // 2,180 points an effective draw against 13,600 at 1/√N; plain SGLD within 10 % would read
    // 13 N). Set whatever the methods, since only those two read it: the app's form keeps it
    // when the method changes after the preset was shown.
    if (!context.set("sg-step-bias") && !context.set("step"))
        config.sgStepBias = 0.1;
    // FlyMC's joint chain over θ and the brightness of each point mixes slowly in θ however
    // q_db is set (at N = 10⁶, d = 20, seed 1: min bulk ESS 677 and split R-hat 1.011 from
    // 100,000 samples, 915 and 1.003 from 150,000 in 53 s): 150,000 samples, with each method
    // that reads a small batch.
    if (!context.set("samples") && runs(TestMethod::Firefly)
        && std::all_of(context.methods.begin(), context.methods.end(), [](TestMethod method) {
               return method == TestMethod::Firefly || methodRow(method).readsSmallMinibatch;
           }))
        config.samples = 150'000;
}

void worstCaseRecommended(RunConfig &config, const PresetContext &context)
{
    // Sec. 2.1's single Gaussian, where the random walk at step 1/√N already mixes: its
    // lesson is the minibatch's size, a third of N a test whatever N is (measured with seed
    // 1: 346,000 of 10⁶ and 34,100 of 10⁵). At N = 10⁵ the lesson takes a tenth of the time,
    // which pays for 10,000 samples (bulk ESS 811, split R-hat 1.0006, 0.94 s), where the
    // paper's 3,000 at 10⁶ give an ESS of 225 in 4 s.
    if (!context.set("n-data")) {
        config.nData = kRecommendedWorstCaseSize;
        if (!context.set("step"))
            config.step = 1.0 / std::sqrt(static_cast<double>(config.nData));
    }
    if (!context.set("samples") && context.allMinibatch())
        config.samples = 10'000;
}

} // namespace core
