#pragma once

#include "core/rml/objective_term.h"
#include "core/rml/tv_prox.h"

namespace apertura::rml {

// Base of the regularizers of the image gradient whose prox is the fast gradient projection on
// the dual (tv_prox.h): total variation and Huber. The four proxes (host arrays or a space, over
// all images or over x >= 0) are that one method with the term's settings. In a space the dual
// fields stay allocated between calls: FISTA calls the prox at every backtracking step, and on a
// GPU each allocation is a cudaMalloc.
class DualProxRegularizer : public Regularizer {
 public:
  using Regularizer::Regularizer;
  bool hasProx() const final { return true; }
  void prox(const double* v, double step, double* out) final;
  bool hasNonNegativeProx() const final { return true; }
  void proxNonNegative(const double* v, double step, double* out) final;
  bool residentProx(compute::VectorSpace& /*space*/) const final { return true; }
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) final;
  void proxNonNegativeIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                         compute::SpaceVector& out) final;

 protected:
  // The term's prox settings; `nonnegative` is set by the caller.
  virtual TvProxSettings proxSettings() const = 0;

 private:
  TvProxSettings settings(bool nonnegative) const;
  void proxInSpace(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                   bool nonnegative, compute::SpaceVector& out);
};

}  // namespace apertura::rml
