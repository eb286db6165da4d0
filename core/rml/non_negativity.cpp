#include "core/rml/non_negativity.h"

#include <algorithm>
#include <limits>

namespace apertura::rml {

double NonNegativity::value(const double* x) {
  for (std::size_t k = 0; k < n_; ++k) {
    if (x[k] < 0.0)
      return std::numeric_limits<double>::infinity();
  }
  return 0.0;
}

void NonNegativity::prox(const double* v, double /*step*/, double* out) {
  for (std::size_t k = 0; k < n_; ++k)
    out[k] = std::max(v[k], 0.0);
}

double NonNegativity::valueIn(compute::VectorSpace& space, const compute::SpaceVector& x) {
  // x is feasible exactly when clipping it changes nothing.
  compute::SpaceVectorPtr clipped = space.create(x.size());
  space.copy(x, *clipped);
  space.maxWith(0.0, *clipped);
  return space.distanceSquared(x, *clipped) > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
}

void NonNegativity::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v,
                           double /*step*/, compute::SpaceVector& out) {
  if (&v != &out)
    space.copy(v, out);
  space.maxWith(0.0, out);
}

}  // namespace apertura::rml
