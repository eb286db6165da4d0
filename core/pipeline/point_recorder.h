#pragma once

#include <mutex>
#include <vector>

#include "core/rml/function.h"

namespace apertura::pipeline {

// Passes evaluations through and keeps a copy of the last point evaluated, so iteration observers
// (which see metrics, not the iterate) can publish the current model. Line searches end on the
// accepted point, so the copy is the iterate whenever an iteration completes.
class PointRecorder final : public rml::DifferentiableFunction {
 public:
  explicit PointRecorder(rml::DifferentiableFunction& f) : f_(f) {}
  std::size_t dimension() const override { return f_.dimension(); }
  double evaluate(const double* x, double* gradient) override {
    last_.assign(x, x + f_.dimension());
    return f_.evaluate(x, gradient);
  }
  std::vector<rml::TermValue> lastTermValues() const override { return f_.lastTermValues(); }
  std::vector<rml::StageTime> takeStageTimes() override { return f_.takeStageTimes(); }
  const std::vector<double>& lastPoint() const { return last_; }

 private:
  rml::DifferentiableFunction& f_;
  std::vector<double> last_;
};

}  // namespace apertura::pipeline
