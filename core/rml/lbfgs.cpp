#include "core/rml/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/vector_math.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/lbfgs_history.h"

namespace apertura::rml {

namespace {

using detail::dot;

// Gradient with the held (active) pixels zeroed: pixels at the bound pushed outwards.
void projectedGradient(const Vector& x, const Vector& g, bool positivity, Vector& pg) {
  pg.assign(g.begin(), g.end());
  if (positivity) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i] <= 0.0 && g[i] >= 0.0)
        pg[i] = 0.0;
    }
  }
}

}  // namespace

OptimizerResult minimizeLbfgs(DifferentiableFunction& f, Vector x0, const LbfgsSettings& settings) {
  if (x0.size() != f.dimension())
    throw std::invalid_argument("L-BFGS: x0 has the wrong size");
  const std::size_t n = x0.size();
  OptimizerResult result;
  result.x = std::move(x0);
  Vector& x = result.x;
  if (settings.positivity)
    projectNonNegative(x);
  // Every image-sized buffer (the history's too) is allocated here, once, and reused: memory does
  // not grow with the number of iterations.
  Vector g(n), pg(n), d(n), s(n), y(n);
  double fx = f.evaluate(x.data(), g.data());
  result.evaluations = 1;
  LbfgsHistoryOptions history_options;
  history_options.max_corrections = settings.history;
  history_options.in_memory_limit = settings.in_memory_limit;
  history_options.memory_threshold_bytes = settings.memory_threshold_bytes;
  history_options.scratch_dir = settings.scratch_dir;
  history_options.float_storage = settings.float_history;
  LbfgsHistory history(n, history_options);  // removes its spill files however the run ends
  detail::TrialPoint trial(f, x, d);
  IterationMonitor monitor(settings.stop, &f);

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    projectedGradient(x, g, settings.positivity, pg);
    history.direction(pg, d);
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (pg[i] == 0.0 && settings.positivity && x[i] <= 0.0)
        d[i] = 0.0;
    }
    double gtd = dot(g, d);
    if (!(gtd < 0.0)) {  // not a descent direction: restart from steepest descent
      history.clear();
      for (std::size_t i = 0; i < n; ++i)
        d[i] = -pg[i];
      gtd = dot(g, d);
    }
    if (!(gtd < 0.0)) {
      result.reason = StopReason::GradientNorm;
      break;
    }
    const double initial = history.empty() ? std::min(1.0, 1.0 / detail::norm(pg)) : 1.0;

    const int evaluations_before = trial.evaluations();
    LineSearchResult ls;
    if (!settings.positivity) {
      ls = lineSearch(trial.function(), fx, gtd, initial, settings.line_search);
    } else {
      // Armijo on the projected path x(a) = P(x + a d).
      double a = initial;
      Vector& xt = trial.x();
      for (int k = 0; k < settings.line_search.max_evaluations; ++k, a *= 0.5) {
        for (std::size_t i = 0; i < xt.size(); ++i)
          xt[i] = std::max(0.0, x[i] + a * d[i]);
        ls.value = f.evaluate(xt.data(), trial.gradient().data());
        ++ls.evaluations;
        double decrease = 0.0;  // g . (x(a) - x)
        for (std::size_t i = 0; i < n; ++i)
          decrease += g[i] * (xt[i] - x[i]);
        if (std::isfinite(ls.value) && ls.value <= fx + settings.line_search.c1 * decrease) {
          ls.alpha = a;
          ls.success = true;
          break;
        }
      }
    }
    const int evaluations =
        trial.evaluations() - evaluations_before + ls.evaluations * int(settings.positivity);
    result.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx)) {
      result.reason = StopReason::LineSearchFailed;
      break;
    }
    const Vector& xt = trial.x();
    const Vector& gt = trial.gradient();
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = xt[i] - x[i];
      y[i] = gt[i] - g[i];
    }
    const double sy = dot(s, y);
    if (sy > 1e-12 * detail::norm(s) * detail::norm(y))
      history.push(s, y);
    // The trial buffers are overwritten by the next line search: swap instead of copying.
    x.swap(trial.x());
    g.swap(trial.gradient());
    const double previous = fx;
    fx = ls.value;
    result.iterations = iteration;
    projectedGradient(x, g, settings.positivity, pg);
    const double gnorm = detail::norm(pg);
    if (auto stop = monitor.finishIteration(iteration, previous, fx, ls.alpha, gnorm, evaluations,
                                            f.lastTermValues())) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  return result;
}

}  // namespace apertura::rml
