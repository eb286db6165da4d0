#include "core/rml/dual_prox_regularizer.h"

namespace apertura::rml {

TvProxSettings DualProxRegularizer::settings(bool nonnegative) const {
  TvProxSettings s = proxSettings();
  s.nonnegative = nonnegative;
  return s;
}

void DualProxRegularizer::prox(const double* v, double step, double* out) {
  proxTotalVariation(v, nx_, ny_, mask_, step, settings(false), out);
}

void DualProxRegularizer::proxNonNegative(const double* v, double step, double* out) {
  proxTotalVariation(v, nx_, ny_, mask_, step, settings(true), out);
}

void DualProxRegularizer::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v,
                                 double step, compute::SpaceVector& out) {
  proxInSpace(space, v, step, false, out);
}

void DualProxRegularizer::proxNonNegativeIn(compute::VectorSpace& space,
                                            const compute::SpaceVector& v, double step,
                                            compute::SpaceVector& out) {
  proxInSpace(space, v, step, true, out);
}

void DualProxRegularizer::proxInSpace(compute::VectorSpace& space, const compute::SpaceVector& v,
                                      double step, bool nonnegative, compute::SpaceVector& out) {
  const TvProxImage image = residentImage(space);
  proxTotalVariationIn(space, image, v, step, settings(nonnegative),
                       residentWork(space, kTvProxWorkVectors), out);
}

}  // namespace apertura::rml
