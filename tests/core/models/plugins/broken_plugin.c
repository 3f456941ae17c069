/* Model plugins that the program must refuse, one per compile definition (tests/CMakeLists.txt
 * builds each): a Gaussian linear model (ℓ = −(y − z)²/2, ℓ' = y − z, ℓ'' = −1) with one defect.
 *   BROKEN_VERSION        reports interface version 99
 *   BROKEN_NO_GRADIENT    does not export mhx_model_gradient
 *   BROKEN_NAN            gives NaN for z > 2 (inside the range probed when it is loaded)
 *   BROKEN_NAN_FAR        gives NaN for responses above 100 only, which its sampler makes one
 *                         time in a hundred (beyond the probe's responses: found during a run)
 *   BROKEN_NAME           calls itself "probit", a built-in model's name
 *   BROKEN_BOUND          declares sup|ℓ''| = 0.5 where it is 1
 *   BROKEN_FAILS          returns a failure status from mhx_model_log_likelihood there
 */
#include <math.h>
#include <stddef.h>

#include <mhx_model_plugin.h>

int mhx_model_plugin_version(void)
{
#ifdef BROKEN_VERSION
    return 99;
#else
    return MHX_MODEL_PLUGIN_VERSION;
#endif
}

const char *mhx_model_name(void)
{
#ifdef BROKEN_NAME
    return "probit";
#else
    return "broken-gaussian";
#endif
}

const char *mhx_model_description(void) { return "a Gaussian linear model with a defect"; }

int mhx_model_response_kind(void) { return MHX_RESPONSE_REAL; }

int mhx_model_log_likelihood(const double *y, const double *z, double *out, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        out[k] = -0.5 * (y[k] - z[k]) * (y[k] - z[k]);
#ifdef BROKEN_NAN
        if (z[k] > 2.0)
            out[k] = NAN;
#endif
#ifdef BROKEN_NAN_FAR
        if (y[k] > 100.0)
            out[k] = NAN;
#endif
#ifdef BROKEN_FAILS
        if (y[k] > 100.0)
            return 7;
#endif
    }
    return 0;
}

#ifndef BROKEN_NO_GRADIENT
int mhx_model_gradient(const double *y, const double *z, double *slope, size_t count)
{
    for (size_t k = 0; k < count; ++k)
        slope[k] = y[k] - z[k];
    return 0;
}
#endif

int mhx_model_hessian(const double *y, const double *z, double *curvature, size_t count)
{
    (void)y;
    (void)z;
    for (size_t k = 0; k < count; ++k)
        curvature[k] = -1.0;
    return 0;
}

int mhx_model_derivative_bound(int order, double *bound)
{
    if (order == 2) {
#ifdef BROKEN_BOUND
        *bound = 0.5;
#else
        *bound = 1.0;
#endif
        return 0;
    }
    if (order == 3) {
        *bound = 0.0;
        return 0;
    }
    return 1; /* |ℓ'| = |y − z| has no bound */
}

int mhx_model_sample_response(double z, double u, double *y)
{
    /* z plus a logistic variable: any real response will do for these tests */
    *y = z + log(u / (1.0 - u));
#if defined(BROKEN_NAN_FAR) || defined(BROKEN_FAILS)
    if (u > 0.99)
        *y = 1000.0;
#endif
    return 0;
}
