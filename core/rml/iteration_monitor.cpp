#include "core/rml/iteration_monitor.h"

#include <algorithm>
#include <cmath>

namespace apertura::rml {

std::string toString(StopReason reason) {
  switch (reason) {
    case StopReason::MaxIterations:
      return "maximum iterations";
    case StopReason::ObjectiveChange:
      return "relative objective change below tolerance";
    case StopReason::GradientNorm:
      return "gradient norm below tolerance";
    case StopReason::WallTime:
      return "wall-time limit";
    case StopReason::Cancelled:
      return "cancelled";
    case StopReason::LineSearchFailed:
      return "line search found no decrease";
  }
  return "unknown";
}

void projectNonNegative(Vector& x) {
  for (double& v : x)
    v = std::max(v, 0.0);
}

IterationMonitor::IterationMonitor(const StopCriteria& criteria,
                                   DifferentiableFunction* timed_function)
    : criteria_(criteria),
      function_(timed_function),
      start_(Clock::now()),
      iteration_start_(start_) {
  if (function_ != nullptr)
    function_->takeStageTimes();  // drop anything before the run
}

std::optional<StopReason> IterationMonitor::checkBefore() const {
  if (criteria_.cancel != nullptr && criteria_.cancel->cancelled())
    return StopReason::Cancelled;
  if (criteria_.wall_time_seconds > 0.0 &&
      std::chrono::duration<double>(Clock::now() - start_).count() >= criteria_.wall_time_seconds)
    return StopReason::WallTime;
  return std::nullopt;
}

std::optional<StopReason> IterationMonitor::finishIteration(int iteration, double previous,
                                                            double current, double step,
                                                            double gradient_norm, int evaluations,
                                                            std::vector<TermValue> terms) {
  const auto now = Clock::now();
  IterationReport report;
  report.iteration = iteration;
  report.objective = current;
  report.terms = std::move(terms);
  report.step = step;
  report.gradient_norm = gradient_norm;
  report.evaluations = evaluations;
  report.iteration_seconds = std::chrono::duration<double>(now - iteration_start_).count();
  report.elapsed_seconds = std::chrono::duration<double>(now - start_).count();
  if (function_ != nullptr)
    report.stages = function_->takeStageTimes();
  double accounted = 0.0;
  for (const auto& s : report.stages)
    accounted += s.seconds;
  report.stages.push_back({"optimizer", std::max(0.0, report.iteration_seconds - accounted)});
  iteration_start_ = now;
  if (criteria_.observer)
    criteria_.observer(report);

  if (criteria_.gradient_tolerance > 0.0 && gradient_norm <= criteria_.gradient_tolerance)
    return StopReason::GradientNorm;
  const double scale = std::max(std::abs(previous), std::abs(current));
  if (std::abs(previous - current) <= criteria_.relative_tolerance * scale) {
    if (++quiet_iterations_ >= criteria_.patience)
      return StopReason::ObjectiveChange;
  } else {
    quiet_iterations_ = 0;
  }
  if (iteration >= criteria_.max_iterations)
    return StopReason::MaxIterations;
  return checkBefore();
}

}  // namespace apertura::rml
