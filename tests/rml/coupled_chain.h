#pragma once

#include <cstddef>
#include <vector>

#include "core/rml/function.h"

namespace apertura::rml::test {

// f(x) = 1/2 sum_i w_i (x_i - b_i)^2 + sum_i [mu/2 d_i^2 + log cosh d_i], d_i = x_i - x_i+1 (the
// log cosh only when asked): coupled, as badly conditioned as the weights make it, and
// non-quadratic with the log cosh, so that L-BFGS uses its whole history for many iterations.
// Counts its evaluations, can record every point it is evaluated at, and can fail on purpose.
class CoupledChain final : public DifferentiableFunction {
 public:
  CoupledChain(Vector w, Vector b, double mu, bool log_cosh);

  std::size_t dimension() const override { return w_.size(); }
  double evaluate(const double* x, double* g) override;

  int evaluations = 0;
  int throw_after = 0;         // > 0: throw from that evaluation on
  bool record_points = false;  // keep every evaluated x in `points`
  std::vector<Vector> points;

 private:
  Vector w_, b_;
  double mu_;
  bool log_cosh_;
};

}  // namespace apertura::rml::test
