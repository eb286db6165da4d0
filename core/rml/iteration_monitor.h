#pragma once

#include <chrono>
#include <optional>

#include "core/rml/optimizer.h"

namespace apertura::rml {

// Shared bookkeeping of the solvers: builds the per-iteration report (objective terms, stage
// timings, the optimizer's own share) and applies the stopping criteria.
class IterationMonitor {
 public:
  IterationMonitor(const StopCriteria& criteria, DifferentiableFunction* timed_function);

  // Checked before an iteration starts: cancellation and wall time.
  std::optional<StopReason> checkBefore() const;
  // After iteration `iteration` (1-based) moved the objective from previous to current.
  std::optional<StopReason> finishIteration(int iteration, double previous, double current,
                                            double step, double gradient_norm, int evaluations,
                                            std::vector<TermValue> terms);

 private:
  using Clock = std::chrono::steady_clock;
  StopCriteria criteria_;
  DifferentiableFunction* function_;
  Clock::time_point start_;
  Clock::time_point iteration_start_;
  int quiet_iterations_ = 0;
};

}  // namespace apertura::rml
