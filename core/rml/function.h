#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/compute/vector_space.h"

namespace apertura::rml {

// Parameter vectors stay plain std::vector in headers; Eigen maps them inside .cpp files only.
using Vector = std::vector<double>;

// The value of one objective term at the last evaluated point (already scaled by its lambda).
struct TermValue {
  std::string name;
  double value = 0.0;
};

// Wall time spent in one stage (degrid, grid, a regularizer, the optimizer's own vector work).
struct StageTime {
  std::string stage;
  double seconds = 0.0;
};

// A function the gradient-based solvers minimise. evaluate() returns f(x) and, when `gradient`
// is not null, overwrites it with grad f(x). +infinity means "outside the domain" (for example a
// negative pixel under an entropy term); line searches then shorten the step.
class DifferentiableFunction {
 public:
  virtual ~DifferentiableFunction() = default;
  virtual std::size_t dimension() const = 0;
  virtual double evaluate(const double* x, double* gradient) = 0;

  // Diagnostics of the last evaluate() call, for iteration reports; empty by default.
  virtual std::vector<TermValue> lastTermValues() const { return {}; }
  // Stage timings accumulated since the previous call (the call resets them).
  virtual std::vector<StageTime> takeStageTimes() { return {}; }

  // Where the function can be evaluated without the point leaving an accelerator's memory, or
  // null (host only). Solvers that support it then keep their whole state in that space and
  // call evaluateIn() instead of evaluate().
  virtual compute::VectorSpace* residentSpace() { return nullptr; }
  virtual double evaluateIn(const compute::SpaceVector& /*x*/, compute::SpaceVector* /*gradient*/) {
    throw std::logic_error("this function has no resident evaluation");
  }
};

// A (possibly non-smooth) convex function with a proximal operator:
//   prox(v, t) = argmin_x  t * g(x) + 1/2 ||x - v||^2.
class ProximableFunction {
 public:
  virtual ~ProximableFunction() = default;
  virtual std::string name() const = 0;
  virtual double value(const double* x) = 0;
  virtual void prox(const double* v, double step, double* out) = 0;
  // True when g(x) = sum_p g_p(x_p): its prox then commutes with clipping at zero.
  virtual bool isSeparable() const { return false; }

  // The prox over x >= 0 of a non-separable function that has its own (see
  // ObjectiveTerm::hasNonNegativeProx); resident as proxIn when residentIn(space).
  virtual bool hasNonNegativeProx() const { return false; }
  virtual void proxNonNegative(const double* /*v*/, double /*step*/, double* /*out*/) {
    throw std::logic_error(name() + " has no proximal operator over non-negative points");
  }
  virtual void proxNonNegativeIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*v*/,
                                 double /*step*/, compute::SpaceVector& /*out*/) {
    throw std::logic_error(name() + " has no resident proximal operator over non-negative points");
  }

  // The value and the prox where the point lives (an accelerator's memory), when
  // residentIn(space) is true.
  virtual bool residentIn(compute::VectorSpace& /*space*/) const { return false; }
  virtual double valueIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*x*/) {
    throw std::logic_error(name() + " has no resident value");
  }
  virtual void proxIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*v*/,
                      double /*step*/, compute::SpaceVector& /*out*/) {
    throw std::logic_error(name() + " has no resident proximal operator");
  }
};

}  // namespace apertura::rml
