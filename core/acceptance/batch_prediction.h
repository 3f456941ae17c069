#pragma once
/// What a temperature change costs the corrected minibatch test, predicted from the mean batch
/// measured before it, so that the app can say so before the new batches are read.
///
/// Algorithm 1 of Seita et al. ("Minibatch Acceptance Test", Sec. 4) grows the batch from m by
/// g rows at a time until the variance of its estimate of Δ* falls below σ². With per-point
/// log-likelihood ratios of variance s², that variance is (N/T)² s² (N − b)/((N − 1) b) ≈
/// (N/T)² s² (1/b − 1/N) with the finite-population factor, (N/T)² s²/b without it, so one test
/// stops at about
///   f(b₀) = b₀ / (1 + b₀/N)   (factor on),   b₀   (factor off),   b₀ = N² s² / (T² σ²),
/// rounded up to m + k g and kept within [m, N]. s² is not the same from one proposal to the
/// next: for a smooth model it is about the squared length of the move in the metric of the
/// data, which for a Gaussian move in d dimensions is a χ²_d variable. So b₀ = K χ²_d / d, and
/// the mean batch is the average of the rounded f(K χ²_d / d) over that distribution. K is
/// found from the measured mean batch (the average is increasing in K), scaled by the change,
/// and the average taken again. A proposal whose step follows √T (a learned scale, rescaled and
/// re-learned after the change) makes s² ∝ T and K ∝ 1/T; a fixed step keeps s² and makes
/// K ∝ 1/T².
///
/// Still a prediction: it leaves out the noise of the sample variance the test stops on.
/// tst_batch_prediction measures how close it comes.
namespace core {

struct BatchPredictionInputs {
    double meanBatch = 0.0;          ///< measured at the old temperature
    double fromTemperature = 1.0;
    double toTemperature = 1.0;
    double population = 1.0;        ///< N
    double firstBatch = 1.0;        ///< m: the batch never starts smaller
    double batchGrowth = 1.0;       ///< g: rows added per look
    int dimension = 1;              ///< d of the proposal's moves
    bool finitePopulationCorrection = true;
    bool stepFollowsTemperature = true;
};

/// The mean batch predicted at the new temperature, in [min(m, N), N].
double predictedMeanBatch(const BatchPredictionInputs &inputs);

} // namespace core
