// The "wavelet" plugin: starlet sparsity regularizer (see wavelet_term.h). This file is only the
// C interface (core/plugin/plugin_api.h); it is the template docs/plugins.md walks through.
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>

#include "core/plugin/plugin_api.h"
#include "plugins/wavelet/wavelet_term.h"

namespace {

using apertura_wavelet::WaveletOptions;
using apertura_wavelet::WaveletTerm;

// Exceptions must never cross the C boundary: every entry point catches and reports them.
template <typename F>
int guarded(char* error, std::size_t error_size, F&& body) {
  try {
    body();
    return APERTURA_OK;
  } catch (const std::exception& e) {
    std::snprintf(error, error_size, "%s", e.what());
  } catch (...) {
    std::snprintf(error, error_size, "unknown error");
  }
  return APERTURA_ERROR;
}

WaveletTerm* term(void* handle) {
  return static_cast<WaveletTerm*>(handle);
}

// Order matters: create() receives the values in this order.
const AperturaParameterV1 kParameters[] = {
    {"scales", 4.0, 1.0, 10.0, "number of starlet detail scales J (dyadic: 1, 2, 4, ... pixels)"},
    {"epsilon", 1e-6, 0.0, 1e3,
     "smoothing of |w| for gradient solvers, Jy/pixel (0: exact L1, subgradient)"},
    {"include_coarse", 0.0, 0.0, 1.0, "1: also penalise the coarse (smooth) plane"},
    {"prox_iterations", 200.0, 1.0, 100000.0, "inner dual iterations per prox (FISTA, SDMM)"},
};

void* create(int nx, int ny, const double* params, char* error, size_t error_size) {
  WaveletTerm* result = nullptr;
  guarded(error, error_size, [&] {
    WaveletOptions o;
    o.scales = int(params[0]);
    o.epsilon = params[1];
    o.include_coarse = params[2] >= 0.5;
    o.prox_iterations = int(params[3]);
    if (double(o.scales) != params[0])
      throw std::invalid_argument("scales must be a whole number");
    result = new WaveletTerm(nx, ny, o);
  });
  return result;
}

void destroy(void* handle) {
  delete term(handle);
}

int evaluate(void* handle, const double* image, double* gradient, double scale, double* value,
             char* error, size_t error_size) {
  return guarded(error, error_size,
                 [&] { *value = term(handle)->evaluate(image, gradient, scale); });
}

int prox(void* handle, const double* v, double step, double* out, char* error, size_t error_size) {
  return guarded(error, error_size, [&] { term(handle)->prox(v, step, out); });
}

int proxValue(void* handle, const double* image, double* value, char* error, size_t error_size) {
  return guarded(error, error_size, [&] { *value = term(handle)->exactValue(image); });
}

int setMask(void* handle, const double* mask, char* error, size_t error_size) {
  return guarded(error, error_size, [&] { term(handle)->setMask(mask); });
}

int isSmooth(void* handle) {
  return term(handle)->smooth() ? 1 : 0;
}

const AperturaRegularizerV1 kRegularizers[] = {{
    "wavelet",
    "Starlet (isotropic undecimated B3-spline wavelet) sparsity: L1 of the detail coefficients",
    kParameters,
    sizeof kParameters / sizeof kParameters[0],
    create,
    destroy,
    evaluate,
    prox,
    proxValue,
    setMask,
    isSmooth,
}};

// An L1 norm of detail coefficients: degree 1 in the image. Its coefficients are differences of
// B3-spline smoothings, not pixel differences, and scale with the flux alone: no beam power.
const AperturaTermScaleV1 kScales[] = {{1, 0.0}};

const AperturaPluginV2 kPlugin = {
    APERTURA_PLUGIN_HEADER,
    "wavelet",
    "1.0.0",
    "Wavelet sparsity regularizer (starlet transform) with its proximal operator",
    kRegularizers,
    1,
    nullptr,
    0,
    nullptr,
    0,
    kScales,
};

}  // namespace

extern "C" APERTURA_PLUGIN_EXPORT const AperturaPluginV2* apertura_plugin_entry(void) {
  return &kPlugin;
}
