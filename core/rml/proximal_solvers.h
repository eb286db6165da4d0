#pragma once

#include <vector>

#include "core/rml/non_negativity.h"
#include "core/rml/optimizer.h"

namespace apertura::rml {

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
// terms and settings: every term with a resident prox (over x >= 0 with positivity, or an inner
// SDMM with the projection in that space), and the solver's vectors fit there.
bool fistaRunsResident(DifferentiableFunction& smooth,
                       const std::vector<ProximableFunction*>& terms,
                       const FistaSettings& settings);

}  // namespace apertura::rml
