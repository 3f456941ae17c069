/* Minibatch MH Explorer: the C interface of a model plugin, version 1.
 *
 * A plugin is a shared library (a CMake MODULE library) that exports the functions below with
 * C linkage. It defines a regression model whose per-point log-likelihood depends on the
 * coefficients θ only through the linear predictor z_i = x̃_iᵀθ (x̃_i: the row's features, with
 * a 1 appended for the intercept):
 *
 *     log p(y_i | θ) = ℓ(y_i, z_i).
 *
 * Every generalised linear model has this form (any link, any response distribution). The
 * program supplies the rest: the data, the Gaussian prior (--prior-sd), the chains, the Taylor
 * control variates, the Laplace fit, and each method's bounds, all from ℓ and its derivatives in
 * z. The plugin states what its mathematics allows and nothing more: a method that needs a bound
 * the plugin does not declare refuses to run, naming the missing function.
 *
 *   ∂ℓ_i/∂θ = ℓ'(y_i, z_i) x̃_i            (Langevin, HMC and Crank–Nicolson proposals)
 *   ∂²ℓ_i/∂θ∂θᵀ = ℓ''(y_i, z_i) x̃_i x̃_iᵀ  (Taylor control variates, the Laplace fit)
 *   sup|ℓ'|    → per-point Lipschitz constants sup|ℓ'|·‖x̃_i‖₂ (TunaMH: Zhang, Cooper & De Sa,
 *                "Asymptotically Optimal Exact Minibatch Metropolis–Hastings", 2020, Sec. 4)
 *   sup|ℓ''|, sup|ℓ'''| → Taylor-remainder bounds (SMH-1 and SMH-2: Cornish et al., "Scalable
 *                Metropolis–Hastings for Exact Bayesian Inference with Large Datasets", 2019,
 *                Sec. 3.2) and the residuals' range (MHSubLhd with control variates)
 *
 * Rules for every function:
 *  - It returns 0 on success and any other value on failure; the program then stops the run with
 *    a message naming the plugin's file and the function. Values that are not finite numbers are
 *    failures too.
 *  - It keeps no state between calls and may be called from several threads at once.
 *  - Arrays hold `count` entries; `count` is at most a few hundred (the program works in chunks).
 *  - ℓ may leave out terms that do not depend on z (log y!, normalising constants): only
 *    differences of ℓ in z are ever used.
 *
 * Versioning: a plugin returns MHX_MODEL_PLUGIN_VERSION from mhx_model_plugin_version(), the
 * version of this header it was built against; the program refuses a plugin of another version.
 * A later version adds functions and never changes the meaning of these.
 */
#ifndef MHX_MODEL_PLUGIN_H
#define MHX_MODEL_PLUGIN_H

#include <stddef.h>

#define MHX_MODEL_PLUGIN_VERSION 1

/* What the responses may be; the program checks every row's response before a run. */
#define MHX_RESPONSE_BINARY 0 /* 0 or 1 */
#define MHX_RESPONSE_COUNT 1  /* a non-negative integer */
#define MHX_RESPONSE_REAL 2   /* any finite number */

#if defined(_WIN32)
#define MHX_PLUGIN_EXPORT __declspec(dllexport)
#else
#define MHX_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Required ---------------------------------------------------------------------------- */

/* MHX_MODEL_PLUGIN_VERSION as this header defined it when the plugin was built. */
MHX_PLUGIN_EXPORT int mhx_model_plugin_version(void);

/* The model's name in messages, headers and the app's model box: letters, digits, '-' and '_',
 * at most 40 characters, and not the name of a model built into the program. */
MHX_PLUGIN_EXPORT const char *mhx_model_name(void);

/* One line for sample headers and summaries: "Bernoulli regression, complementary log-log link". */
MHX_PLUGIN_EXPORT const char *mhx_model_description(void);

/* MHX_RESPONSE_BINARY, MHX_RESPONSE_COUNT or MHX_RESPONSE_REAL. */
MHX_PLUGIN_EXPORT int mhx_model_response_kind(void);

/* out[k] = ℓ(y[k], z[k]). */
MHX_PLUGIN_EXPORT int mhx_model_log_likelihood(const double *y, const double *z, double *out, size_t count);

/* slope[k] = ∂ℓ/∂z at (y[k], z[k]). */
MHX_PLUGIN_EXPORT int mhx_model_gradient(const double *y, const double *z, double *slope, size_t count);

/* ---- Optional: each one the plugin exports gives the model more capabilities ----------------- */

/* curvature[k] = ∂²ℓ/∂z² at (y[k], z[k]). Gives the Taylor control variates (taylor1, taylor2)
 * and the Laplace fit (the laplace-* proposals, and the mode the control variates expand
 * around). */
MHX_PLUGIN_EXPORT int mhx_model_hessian(const double *y, const double *z, double *curvature, size_t count);

/* *bound = sup over every response and every z of |∂^order ℓ / ∂z^order|, for order 1, 2 or 3.
 * Return a non-zero value for an order whose supremum is infinite: that is not a failure, the
 * model then lacks what needs it. Order 1 gives TunaMH; orders 2 and 3 together (with
 * mhx_model_hessian) give SMH-1, SMH-2 and MHSubLhd with control variates. A bound that is too
 * small makes those methods sample the wrong distribution: derive it, and test it. */
MHX_PLUGIN_EXPORT int mhx_model_derivative_bound(int order, double *bound);

/* *y = a response drawn at linear predictor z from the uniform u in (0, 1) (by the inverse
 * distribution function, or any map that makes y's distribution the model's). Lets
 * `--dataset tall-glm` generate data from the model. */
MHX_PLUGIN_EXPORT int mhx_model_sample_response(double z, double u, double *y);

/* theta[0 .. dimension) = where chains and the Laplace fit's Newton steps start (the last
 * coordinate is the intercept). Without it they start at 0. */
MHX_PLUGIN_EXPORT int mhx_model_initial_point(double *theta, size_t dimension);

#ifdef __cplusplus
}
#endif

#endif /* MHX_MODEL_PLUGIN_H */
