#pragma once

#include <utility>

#include "core/compute/vector_space.h"
#include "core/rml/function.h"
#include "core/rml/line_search.h"

namespace apertura::rml::detail {

// The vectors a line-search solver keeps where f is evaluated (f's resident space or the host
// space), each allocated once: the iterate x and its gradient g, the direction d, and the trial
// point xt = x + alpha d with its gradient gt (which the line searches leave at the accepted step).
struct SpaceIterate {
  SpaceIterate(DifferentiableFunction& function, compute::VectorSpace& vector_space,
               const Vector& x0)
      : f(function),
        space(vector_space),
        x(space.create(x0.size())),
        g(space.create(x0.size())),
        d(space.create(x0.size())),
        xt(space.create(x0.size())),
        gt(space.create(x0.size())) {
    space.upload(x0.data(), *x);
  }

  // phi(alpha) = f(x + alpha d) and phi'(alpha) = gt . d.
  LineFunction along() {
    return [this](double alpha, double* derivative) {
      space.step(*x, alpha, *d, false, *xt);
      ++trial_evaluations;
      const double value = f.evaluateIn(*xt, derivative ? gt.get() : nullptr);
      if (derivative != nullptr)
        *derivative = space.dot(*gt, *d);
      return value;
    };
  }
  // The trial point becomes the iterate (swapped: the next line search overwrites the trial).
  void accept() {
    std::swap(x, xt);
    std::swap(g, gt);
  }
  Vector download() {
    Vector out(x->size());
    space.download(*x, out.data());
    return out;
  }

  DifferentiableFunction& f;
  compute::VectorSpace& space;
  compute::SpaceVectorPtr x, g, d, xt, gt;
  int trial_evaluations = 0;
};

}  // namespace apertura::rml::detail
