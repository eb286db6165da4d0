#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/compute/vector_space.h"
#include "core/rml/function.h"

namespace apertura::rml {

// SDMM's iteration (Combettes & Pesquet 2011; ADMM for several functions), every linear operator
// the identity, on vectors of a VectorSpace, so that it runs where the solver's state lives:
//   y_i = prox_i(x + z_i),  z_i += x - y_i,  x = mean_i (y_i - z_i).
// One step() is one iteration; the consensus point x belongs to the caller.
class SpaceSdmm {
 public:
  using Prox = std::function<void(const compute::SpaceVector& u, compute::SpaceVector& out)>;
  SpaceSdmm(compute::VectorSpace& space, std::vector<Prox> proxes, const compute::SpaceVector& x0);
  // x holds the current consensus point on entry and the next one on return. Returns the
  // consensus residual sqrt(sum_i |x - y_i|^2).
  double step(compute::SpaceVector& x);
  // Vectors the iteration allocates for `functions` proxes (y_i, z_i and the prox input).
  static std::size_t vectors(std::size_t functions) { return 2 * functions + 1; }

 private:
  compute::VectorSpace& space_;
  std::vector<Prox> proxes_;
  std::vector<compute::SpaceVectorPtr> y_;
  std::vector<compute::SpaceVectorPtr> z_;
  compute::SpaceVectorPtr u_;
};

// prox_g(v, step) (over x >= 0 with `nonnegative`: g's own, ProximableFunction::
// hasNonNegativeProx) where v lives: resident when g is resident in `space`, else through the
// host vectors of a host space.
void proxWhere(compute::VectorSpace& space, ProximableFunction& g, const compute::SpaceVector& v,
               double step, compute::SpaceVector& out, bool nonnegative = false);

// prox_{step * sum_i g_i}(v) by SDMM on {1/2 |x - v|^2, step g_1, ...}, in `space`, to a relative
// change of the iterate below `tolerance` or `max_iterations` (out may not be v).
void proxOfSumIn(compute::VectorSpace& space, const std::vector<ProximableFunction*>& terms,
                 const compute::SpaceVector& v, double step, compute::SpaceVector& out,
                 int max_iterations, double tolerance);
// Vectors proxOfSumIn allocates for `terms` terms.
std::size_t proxOfSumVectors(std::size_t terms);

}  // namespace apertura::rml
