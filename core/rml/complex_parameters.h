#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "core/rml/conjugate_gradient.h"

namespace apertura::rml {

using ComplexVector = std::vector<std::complex<double>>;

// A real-valued function of complex parameters (e.g. a Q + iU polarisation image). evaluate()
// returns f(z) and, when `gradient` is not null, overwrites it with df/dRe z + i df/dIm z
// (= 2 df/d conj(z)): the steepest-ascent direction for the real inner product Re <a, b> below.
class ComplexDifferentiableFunction {
 public:
  virtual ~ComplexDifferentiableFunction() = default;
  virtual std::size_t dimension() const = 0;  // complex parameters
  virtual double evaluate(const std::complex<double>* z, std::complex<double>* gradient) = 0;
};

// The Hermitian inner product <a, b> = sum_k conj(a_k) b_k. Its real part is the Euclidean inner
// product of C^n seen as R^2n, which the solvers' step lengths and CG betas use; <a, a> = |a|^2.
std::complex<double> hermitianDot(const ComplexVector& a, const ComplexVector& b);

struct ComplexOptimizerResult {
  ComplexVector z;
  double objective = 0.0;
  int iterations = 0;
  int evaluations = 0;
  StopReason reason = StopReason::MaxIterations;
};

// Nonlinear CG (every beta rule of CgSettings) over complex parameters: the real solver runs on
// (Re z, Im z) interleaved, so every inner product it takes is Re <a, b>.
ComplexOptimizerResult minimizeConjugateGradient(ComplexDifferentiableFunction& f, ComplexVector z0,
                                                 const CgSettings& settings);

}  // namespace apertura::rml
