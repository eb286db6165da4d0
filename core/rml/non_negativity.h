#pragma once

#include "core/rml/function.h"

namespace apertura::rml {

// The indicator of x >= 0 (value 0 or +infinity; prox = projection), in every space.
class NonNegativity final : public ProximableFunction {
 public:
  explicit NonNegativity(std::size_t n) : n_(n) {}
  std::string name() const override { return "positivity"; }
  double value(const double* x) override;
  void prox(const double* v, double step, double* out) override;
  bool isSeparable() const override { return true; }
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double valueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;

 private:
  std::size_t n_;
};

}  // namespace apertura::rml
