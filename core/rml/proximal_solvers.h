#pragma once

#include <vector>

#include "core/rml/optimizer.h"

namespace apertura::rml {

// The indicator of x >= 0 (value 0 or +infinity; prox = projection).
class NonNegativity final : public ProximableFunction {
 public:
  explicit NonNegativity(std::size_t n) : n_(n) {}
  std::string name() const override { return "positivity"; }
  double value(const double* x) override;
  void prox(const double* v, double step, double* out) override;
  bool isSeparable() const override { return true; }

 private:
  std::size_t n_;
};

struct FistaSettings {
  double initial_lipschitz = 1.0;  // first guess of L; backtracking raises it
  double backtrack_factor = 2.0;
  bool positivity = false;
  // Several non-smooth terms (or positivity with a non-separable one that has no prox over
  // x >= 0 of its own): their joint prox is computed by an inner SDMM run of at most this many
  // iterations.
  int prox_iterations = 500;
  double prox_tolerance = 1e-10;
  StopCriteria stop;
};

// FISTA with backtracking (Beck & Teboulle 2009) for smooth(x) + sum_i terms_i(x). The report's
// gradient_norm is the gradient-mapping norm L |p - y|.
OptimizerResult minimizeFista(DifferentiableFunction& smooth,
                              const std::vector<ProximableFunction*>& terms, Vector x0,
                              const FistaSettings& settings);

struct SdmmSettings {
  double gamma = 1.0;  // proximal step of every function
  bool positivity = false;
  int smooth_prox_iterations = 30;  // inner L-BFGS iterations for the smooth term's prox
  StopCriteria stop;
};

// Simultaneous-direction method of multipliers (Combettes & Pesquet 2011; ADMM for several
// functions) on smooth(x) + sum_i terms_i(x), every linear operator the identity:
//   x = mean_i (y_i - z_i),  y_i = prox_{gamma g_i}(x + z_i),  z_i += x - y_i.
// The smooth term (may be null) enters through its prox, solved by warm-started L-BFGS. The
// report's gradient_norm is the consensus residual sqrt(sum_i |x - y_i|^2).
OptimizerResult minimizeSdmm(DifferentiableFunction* smooth,
                             const std::vector<ProximableFunction*>& terms, Vector x0,
                             const SdmmSettings& settings);

// Whether minimizeFista runs in smooth's resident space (an accelerator's memory) with these
// terms and settings: at most one term, with a resident prox (over x >= 0 with positivity).
bool fistaRunsResident(DifferentiableFunction& smooth,
                       const std::vector<ProximableFunction*>& terms,
                       const FistaSettings& settings);

// prox_{step * sum_i g_i}(v) by SDMM on {1/2 |x - v|^2, step g_1, ...}.
void proxOfSum(const std::vector<ProximableFunction*>& terms, std::size_t n, const double* v,
               double step, double* out, int max_iterations, double tolerance);

}  // namespace apertura::rml
