/* A model plugin for Minibatch MH Explorer: Bernoulli regression with the complementary
 * log-log link,
 *
 *     P(y = 1 | θ) = 1 − exp(−e^z),   z = x̃ᵀθ,
 *
 * the link of a binary outcome that is "at least one event of a Poisson process with rate e^z"
 * (McCullagh & Nelder, "Generalized Linear Models", 2nd ed., Sec. 4.3.1). With w = e^z:
 *
 *     y = 1:  ℓ = log(1 − e^{−w}),  ℓ' = w / (e^w − 1),  ℓ'' = ℓ' · (1 − w / (1 − e^{−w}))
 *     y = 0:  ℓ = −w,               ℓ' = −w,             ℓ'' = −w
 *
 * ℓ' and ℓ'' grow without bound as z → ∞ when y = 0, so the plugin declares no derivative
 * bound: the program then runs it with the minibatch tests, AustereMH, MHSubLhd and the Taylor
 * control variates (it exports the Hessian), and refuses SMH and TunaMH, naming the missing
 * bound. Each function is written for every finite z: where e^z underflows, the y = 1 branch
 * uses its limits ℓ → z and ℓ' → 1.
 */
#include <math.h>
#include <stddef.h>

#include <mhx_model_plugin.h>

/* Below this w = e^z, log(1 − e^{−w}) = log w − w/2 + O(w²) to double precision. */
#define SMALL_RATE 1e-12

int mhx_model_plugin_version(void) { return MHX_MODEL_PLUGIN_VERSION; }

const char *mhx_model_name(void) { return "cloglog"; }

const char *mhx_model_description(void)
{
    return "Bernoulli regression with the complementary log-log link, P(y = 1) = 1 - exp(-exp(x'theta))";
}

int mhx_model_response_kind(void) { return MHX_RESPONSE_BINARY; }

int mhx_model_log_likelihood(const double *y, const double *z, double *out, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        const double w = exp(z[k]);
        if (y[k] > 0.5)
            out[k] = w < SMALL_RATE ? z[k] - 0.5 * w : log(-expm1(-w));
        else
            out[k] = -w;
    }
    return 0;
}

/* ℓ' of a y = 1 point, w / (e^w − 1), which tends to 1 as w → 0. */
static double slope_of_event(double w) { return w < SMALL_RATE ? 1.0 - 0.5 * w : w / expm1(w); }

int mhx_model_gradient(const double *y, const double *z, double *slope, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        const double w = exp(z[k]);
        slope[k] = y[k] > 0.5 ? slope_of_event(w) : -w;
    }
    return 0;
}

int mhx_model_hessian(const double *y, const double *z, double *curvature, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        const double w = exp(z[k]);
        if (y[k] > 0.5)
            curvature[k] = w < SMALL_RATE ? -0.5 * w : slope_of_event(w) * (1.0 - w / -expm1(-w));
        else
            curvature[k] = -w;
    }
    return 0;
}

/* y = 1 with probability 1 − exp(−e^z). */
int mhx_model_sample_response(double z, double u, double *y)
{
    *y = u < -expm1(-exp(z)) ? 1.0 : 0.0;
    return 0;
}

/* Start at the predictor where P(y = 1) = ½ (z = log log 2), with every slope 0; the last
 * coordinate is the intercept. */
int mhx_model_initial_point(double *theta, size_t dimension)
{
    for (size_t j = 0; j < dimension; ++j)
        theta[j] = 0.0;
    if (dimension > 0)
        theta[dimension - 1] = log(log(2.0));
    return 0;
}
