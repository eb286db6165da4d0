// A test optimizer plugin: projected gradient descent with Barzilai-Borwein steps and Armijo
// backtracking. It exercises the optimizer half of the plugin interface (the stop criteria,
// positivity and errors stay Apertura's); it is not meant to beat L-BFGS.
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/plugin/plugin_api.h"

namespace {

const AperturaParameterV1 kParameters[] = {
    {"armijo", 1e-4, 1e-8, 0.5, "sufficient-decrease constant of the backtracking"},
};

int minimize(const AperturaObjectiveV1* f, const double* params, double* x, char* error,
             size_t error_size) {
  const std::size_t n = f->dimension;
  const double c1 = params[0];
  auto project = [&](std::vector<double>& v) {
    if (f->positivity) {
      for (double& e : v)
        e = e < 0.0 ? 0.0 : e;
    }
  };
  std::vector<double> xc(x, x + n), g(n), xn(n), gn(n);
  project(xc);
  double fx = 0.0;
  if (f->evaluate(f->context, xc.data(), &fx, g.data()) != APERTURA_OK)
    return APERTURA_OK;  // Apertura is stopping the run
  double gmax = 0.0;
  for (double e : g)
    gmax = std::fmax(gmax, std::fabs(e));
  double alpha = gmax > 0.0 ? 1.0 / gmax : 1.0;
  for (;;) {
    double fn = 0.0, decrease = 0.0;
    int evaluations = 0;
    bool accepted = false;
    for (int tries = 0; tries < 60 && !accepted; ++tries) {
      for (std::size_t i = 0; i < n; ++i)
        xn[i] = xc[i] - alpha * g[i];
      project(xn);
      decrease = 0.0;
      for (std::size_t i = 0; i < n; ++i)
        decrease += g[i] * (xc[i] - xn[i]);
      ++evaluations;
      if (f->evaluate(f->context, xn.data(), &fn, gn.data()) != APERTURA_OK)
        return APERTURA_OK;
      accepted = std::isfinite(fn) && fn <= fx - c1 * decrease;
      if (!accepted)
        alpha *= 0.5;
    }
    if (!accepted) {
      if (decrease <= 0.0)
        return APERTURA_OK;  // a stationary point: nothing left to decrease
      std::snprintf(error, error_size, "no step decreased the objective");
      return APERTURA_ERROR;
    }
    double ss = 0.0, sy = 0.0, gnorm = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double s = xn[i] - xc[i], y = gn[i] - g[i];
      ss += s * s;
      sy += s * y;
      gnorm += gn[i] * gn[i];
    }
    const double step = alpha;
    alpha = sy > 0.0 ? ss / sy : 2.0 * alpha;  // Barzilai-Borwein (first form)
    xc.swap(xn);
    g.swap(gn);
    fx = fn;
    for (std::size_t i = 0; i < n; ++i)
      x[i] = xc[i];
    if (f->iteration(f->context, x, fx, std::sqrt(gnorm), step, evaluations) == 1 || ss == 0.0)
      return APERTURA_OK;
  }
}

const AperturaOptimizerV1 kOptimizers[] = {{
    "bb-descent",
    "Projected gradient descent with Barzilai-Borwein steps (test plugin)",
    kParameters,
    1,
    minimize,
}};

const AperturaPluginV2 kPlugin = {
    APERTURA_PLUGIN_HEADER,
    "bb-optimizer",
    "0.1",
    "Test optimizer plugin",
    nullptr,
    0,
    nullptr,
    0,
    kOptimizers,
    1,
    nullptr,
};

}  // namespace

extern "C" APERTURA_PLUGIN_EXPORT const AperturaPluginV2* apertura_plugin_entry(void) {
  return &kPlugin;
}
