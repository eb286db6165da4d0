#pragma once

#include <mutex>
#include <vector>

#include "core/rml/function.h"

namespace apertura::pipeline {

// Passes evaluations through and keeps the last point evaluated, so iteration observers (which
// see metrics, not the iterate) can publish the current model. Line searches end on the accepted
// point, so it is the iterate whenever an iteration completes. A resident point stays where it
// is (solvers keep it until their next evaluation) and comes to the host only when asked for:
// lastPoint() is then valid while the solver runs (from its observer), not after it returns.
class PointRecorder final : public rml::DifferentiableFunction {
 public:
  explicit PointRecorder(rml::DifferentiableFunction& f) : f_(f) {}
  std::size_t dimension() const override { return f_.dimension(); }
  double evaluate(const double* x, double* gradient) override {
    resident_ = nullptr;
    last_.assign(x, x + f_.dimension());
    return f_.evaluate(x, gradient);
  }
  std::vector<rml::TermValue> lastTermValues() const override { return f_.lastTermValues(); }
  std::vector<rml::StageTime> takeStageTimes() override { return f_.takeStageTimes(); }
  compute::VectorSpace* residentSpace() override { return f_.residentSpace(); }
  double evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) override {
    resident_ = &x;
    return f_.evaluateIn(x, gradient);
  }
  const std::vector<double>& lastPoint() {
    if (resident_ != nullptr) {
      last_.resize(resident_->size());
      f_.residentSpace()->download(*resident_, last_.data());
      resident_ = nullptr;
    }
    return last_;
  }

 private:
  rml::DifferentiableFunction& f_;
  std::vector<double> last_;
  const compute::SpaceVector* resident_ = nullptr;
};

}  // namespace apertura::pipeline
