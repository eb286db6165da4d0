#include "core/rml/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/vector_math.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/lbfgs_history.h"
#include "core/rml/resident_lbfgs.h"

namespace apertura::rml {

namespace {

using detail::blockedSum;
using detail::dot;
using detail::parallelFor;

// Pixels held in projected L-BFGS: at the bound with the gradient pushing them outwards. They are
// removed from the two-loop recursion and from the step.
bool held(bool positivity, double x, double g) {
  return positivity && x <= 0.0 && g >= 0.0;
}

// d = sign * P g, the projected gradient (held pixels zeroed) formed straight into the direction
// buffer; returns |P g| (accumulated in double, blockwise).
double projectedGradient(const Vector& x, const Vector& g, bool positivity, double sign,
                         Vector& d) {
  return std::sqrt(blockedSum(x.size(), [&](std::size_t begin, std::size_t end) {
    double norm2 = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      const double pg = held(positivity, x[i], g[i]) ? 0.0 : g[i];
      norm2 += pg * pg;
      d[i] = sign * pg;
    }
    return norm2;
  }));
}

// |P g| without storing P g.
double projectedGradientNorm(const Vector& x, const Vector& g, bool positivity) {
  return std::sqrt(blockedSum(x.size(), [&](std::size_t begin, std::size_t end) {
    double norm2 = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      const double pg = held(positivity, x[i], g[i]) ? 0.0 : g[i];
      norm2 += pg * pg;
    }
    return norm2;
  }));
}

// The iteration. With float pairs only the pairs are float: the direction, the iterate, the
// gradient and the trial point stay double (one vector each, against the 2 m of the pairs), so
// the resident solver (resident_lbfgs.h) runs the same arithmetic on a space's vectors.
OptimizerResult run(DifferentiableFunction& f, Vector x0, const LbfgsSettings& settings) {
  const std::size_t n = x0.size();
  OptimizerResult result;
  result.x = std::move(x0);
  Vector& x = result.x;
  if (settings.positivity)
    projectNonNegative(x);
  // Every image-sized buffer (the history's too) is allocated here, once, and reused: memory does
  // not grow with the number of iterations. Besides x and g there are only the direction and the
  // trial point with its gradient: the projected gradient is formed in d, and s and y straight in
  // the history's slot.
  Vector g(n);
  Vector d(n);
  double fx = f.evaluate(x.data(), g.data());
  result.evaluations = 1;
  LbfgsHistoryOptions history_options;
  history_options.max_corrections = settings.history;
  history_options.in_memory_limit = settings.in_memory_limit;
  history_options.memory_threshold_bytes = settings.memory_threshold_bytes;
  history_options.scratch_dir = settings.scratch_dir;
  history_options.float_storage = settings.float_history;
  // The history removes its spill files however the run ends (a workspace's, when it ends).
  std::unique_ptr<LbfgsHistory> own;
  LbfgsHistory* kept = nullptr;
  if (settings.workspace != nullptr) {
    std::unique_ptr<LbfgsHistory>& h = settings.workspace->history;
    if (h && h->fits(n, history_options))
      h->clear();
    else
      h = std::make_unique<LbfgsHistory>(n, history_options);
    kept = h.get();
  } else {
    own = std::make_unique<LbfgsHistory>(n, history_options);
    kept = own.get();
  }
  LbfgsHistory& history = *kept;
  detail::TrialPoint trial(f, x, d);
  IterationMonitor monitor(settings.stop, &f);

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const double pg_norm = projectedGradient(x, g, settings.positivity, 1.0, d);
    history.direction(d);
    if (settings.positivity) {
      parallelFor(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          if (held(true, x[i], g[i]))
            d[i] = 0.0;
        }
      });
    }
    double gtd = dot(g, d);
    if (!(gtd < 0.0)) {  // not a descent direction: restart from steepest descent
      history.clear();
      projectedGradient(x, g, settings.positivity, -1.0, d);
      gtd = dot(g, d);
    }
    if (!(gtd < 0.0)) {
      result.reason = StopReason::GradientNorm;
      break;
    }
    const double initial = history.empty() ? std::min(1.0, 1.0 / pg_norm) : 1.0;

    const int evaluations_before = trial.evaluations();
    LineSearchResult ls;
    if (!settings.positivity) {
      ls = lineSearch(trial.function(), fx, gtd, initial, settings.line_search);
    } else {
      // Armijo on the projected path x(a) = P(x + a d).
      double a = initial;
      Vector& xt = trial.x();
      for (int k = 0; k < settings.line_search.max_evaluations; ++k) {
        parallelFor(n, [&](std::size_t begin, std::size_t end) {
          for (std::size_t i = begin; i < end; ++i)
            xt[i] = std::max(0.0, x[i] + a * d[i]);
        });
        ls.value = f.evaluate(xt.data(), trial.gradient().data());
        ++ls.evaluations;
        // g . (x(a) - x)
        const double decrease = blockedSum(n, [&](std::size_t begin, std::size_t end) {
          double sum = 0.0;
          for (std::size_t i = begin; i < end; ++i)
            sum += g[i] * (xt[i] - x[i]);
          return sum;
        });
        if (std::isfinite(ls.value) && ls.value <= fx + settings.line_search.c1 * decrease) {
          ls.alpha = a;
          ls.success = true;
          break;
        }
        // Interpolated only from the first step of a fresh history (1 / |g|, a guess that can
        // overshoot 200 times); later trials start at 1 and halve, so that rounding (float
        // grids, another split of the rows) moves no step by a continuous amount.
        a = history.empty() ? projectedBacktrack(a, fx, ls.value, decrease) : 0.5 * a;
      }
    }
    const int evaluations =
        trial.evaluations() - evaluations_before + ls.evaluations * int(settings.positivity);
    result.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx)) {
      result.reason = StopReason::LineSearchFailed;
      break;
    }
    // s = xt - x and y = gt - g, kept when they meet the curvature condition.
    history.push(trial.x(), x, trial.gradient(), g);
    // The trial buffers are overwritten by the next line search: swap instead of copying.
    x.swap(trial.x());
    g.swap(trial.gradient());
    const double previous = fx;
    fx = ls.value;
    result.iterations = iteration;
    const double gnorm = projectedGradientNorm(x, g, settings.positivity);
    if (auto stop = monitor.finishIteration(iteration, previous, fx, ls.alpha, gnorm, evaluations,
                                            f.lastTermValues())) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  return result;
}

}  // namespace

LbfgsWorkspace::LbfgsWorkspace() = default;
LbfgsWorkspace::~LbfgsWorkspace() = default;

OptimizerResult minimizeLbfgs(DifferentiableFunction& f, Vector x0, const LbfgsSettings& settings) {
  if (x0.size() != f.dimension())
    throw std::invalid_argument("L-BFGS: x0 has the wrong size");
  if (lbfgsRunsResident(f, settings))
    return minimizeLbfgsResident(f, std::move(x0), settings);
  return run(f, std::move(x0), settings);
}

}  // namespace apertura::rml
