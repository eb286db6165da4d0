#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "core/rml/detail/parallel_sum.h"
#include "core/rml/function.h"
#include "core/rml/line_search.h"

// Small dense-vector helpers shared by the solvers (internal to core/rml). Parallel over blocks of
// elements, bitwise the same whatever the number of threads (parallel_sum.h).
namespace apertura::rml::detail {

inline double dot(const Vector& a, const Vector& b) {
  return blockedSum(a.size(), [&a, &b](std::size_t begin, std::size_t end) {
    double s = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      s += a[i] * b[i];
    return s;
  });
}
inline double norm(const Vector& a) {
  return std::sqrt(dot(a, a));
}
// y += a x
inline void axpy(double a, const Vector& x, Vector& y) {
  parallelFor(y.size(), [a, &x, &y](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      y[i] += a * x[i];
  });
}

// The trial point x + alpha d of a line search, keeping the value and gradient of the last
// evaluation (the line searches end with an evaluation at the accepted step).
class TrialPoint {
 public:
  TrialPoint(DifferentiableFunction& f, const Vector& x, const Vector& d)
      : f_(f), x_(x), d_(d), xt_(x.size()), gt_(x.size()) {}
  LineFunction function() {
    return [this](double alpha, double* derivative) {
      parallelFor(xt_.size(), [this, alpha](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
          xt_[i] = x_[i] + alpha * d_[i];
      });
      ++evaluations_;
      value_ = f_.evaluate(xt_.data(), derivative ? gt_.data() : nullptr);
      if (derivative != nullptr)
        *derivative = dot(gt_, d_);
      return value_;
    };
  }
  Vector& x() { return xt_; }
  Vector& gradient() { return gt_; }
  double value() const { return value_; }
  int evaluations() const { return evaluations_; }

 private:
  DifferentiableFunction& f_;
  const Vector& x_;
  const Vector& d_;
  Vector xt_;
  Vector gt_;
  double value_ = 0.0;
  int evaluations_ = 0;
};

}  // namespace apertura::rml::detail
