#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/rml/function.h"
#include "core/util/cancellation.h"

namespace apertura::rml {

enum class StopReason {
  MaxIterations,
  ObjectiveChange,  // relative change of the objective below tolerance
  GradientNorm,     // (projected) gradient or gradient-mapping norm below tolerance
  WallTime,
  Cancelled,
  LineSearchFailed  // no step decreased the objective: a minimum to working precision
};
std::string toString(StopReason reason);

// What every solver reports once per iteration.
struct IterationReport {
  int iteration = 0;
  double objective = 0.0;
  std::vector<TermValue> terms;
  double step = 0.0;              // line-search step, or 1/L for proximal gradient solvers
  double gradient_norm = 0.0;     // (projected) gradient norm, or gradient-mapping norm
  std::vector<StageTime> stages;  // this iteration's time per stage, "optimizer" = the rest
  double iteration_seconds = 0.0;
  double elapsed_seconds = 0.0;
  int evaluations = 0;  // function evaluations in this iteration
};
using IterationObserver = std::function<void(const IterationReport&)>;

struct StopCriteria {
  int max_iterations = 200;
  double relative_tolerance = 1e-10;  // |f_k - f_k+1| <= tol * max(|f_k|, |f_k+1|)
  double gradient_tolerance = 0.0;    // absolute, 0 = off
  double wall_time_seconds = 0.0;     // 0 = no limit
  int patience = 1;  // consecutive iterations meeting relative_tolerance before stopping
  const CancellationToken* cancel = nullptr;  // checked every iteration
  IterationObserver observer;
};

struct OptimizerResult {
  Vector x;
  double objective = 0.0;
  int iterations = 0;
  int evaluations = 0;
  StopReason reason = StopReason::MaxIterations;
};

// Nonnegativity, used by the solvers' projection option.
void projectNonNegative(Vector& x);

}  // namespace apertura::rml
