#include "core/rml/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/vector_math.h"
#include "core/rml/iteration_monitor.h"

namespace apertura::rml {

namespace {

using detail::axpy;
using detail::dot;

// Correction pairs (s, y) in a ring buffer of fixed capacity.
class History {
 public:
  explicit History(int capacity) : capacity_(std::max(1, capacity)) {}
  void push(Vector s, Vector y) {
    const double rho = 1.0 / dot(s, y);
    if (int(s_.size()) < capacity_) {
      s_.push_back(std::move(s));
      y_.push_back(std::move(y));
      rho_.push_back(rho);
      newest_ = int(s_.size()) - 1;
    } else {
      newest_ = (newest_ + 1) % capacity_;
      s_[newest_] = std::move(s);
      y_[newest_] = std::move(y);
      rho_[newest_] = rho;
    }
  }
  void clear() {
    s_.clear();
    y_.clear();
    rho_.clear();
    newest_ = -1;
  }
  bool empty() const { return s_.empty(); }

  // d = -H g by the two-loop recursion, newest pair first.
  Vector direction(const Vector& g) const {
    Vector q = g;
    const int k = int(s_.size());
    std::vector<double> alpha(k);
    for (int j = 0; j < k; ++j) {
      const int i = (newest_ - j + k) % k;
      alpha[i] = rho_[i] * dot(s_[i], q);
      axpy(-alpha[i], y_[i], q);
    }
    if (k > 0) {
      const double gamma = dot(s_[newest_], y_[newest_]) / dot(y_[newest_], y_[newest_]);
      for (double& v : q)
        v *= gamma;
    }
    for (int j = k - 1; j >= 0; --j) {
      const int i = (newest_ - j + k) % k;
      const double beta = rho_[i] * dot(y_[i], q);
      axpy(alpha[i] - beta, s_[i], q);
    }
    for (double& v : q)
      v = -v;
    return q;
  }

 private:
  int capacity_;
  int newest_ = -1;
  std::vector<Vector> s_, y_;
  std::vector<double> rho_;
};

// Gradient with the held (active) pixels zeroed: pixels at the bound pushed outwards.
Vector projectedGradient(const Vector& x, const Vector& g, bool positivity) {
  Vector pg = g;
  if (positivity) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i] <= 0.0 && g[i] >= 0.0)
        pg[i] = 0.0;
    }
  }
  return pg;
}

}  // namespace

OptimizerResult minimizeLbfgs(DifferentiableFunction& f, Vector x0, const LbfgsSettings& settings) {
  if (x0.size() != f.dimension())
    throw std::invalid_argument("L-BFGS: x0 has the wrong size");
  OptimizerResult result;
  result.x = std::move(x0);
  Vector& x = result.x;
  if (settings.positivity)
    projectNonNegative(x);
  Vector g(x.size());
  double fx = f.evaluate(x.data(), g.data());
  result.evaluations = 1;
  History history(settings.history);
  IterationMonitor monitor(settings.stop, &f);

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const Vector pg = projectedGradient(x, g, settings.positivity);
    Vector d = history.direction(pg);
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (pg[i] == 0.0 && settings.positivity && x[i] <= 0.0)
        d[i] = 0.0;
    }
    double gtd = dot(g, d);
    if (!(gtd < 0.0)) {  // not a descent direction: restart from steepest descent
      history.clear();
      d = pg;
      for (double& v : d)
        v = -v;
      gtd = dot(g, d);
    }
    if (!(gtd < 0.0)) {
      result.reason = StopReason::GradientNorm;
      break;
    }
    const double initial = history.empty() ? std::min(1.0, 1.0 / detail::norm(pg)) : 1.0;

    detail::TrialPoint trial(f, x, d);
    LineSearchResult ls;
    if (!settings.positivity) {
      ls = lineSearch(trial.function(), fx, gtd, initial, settings.line_search);
    } else {
      // Armijo on the projected path x(a) = P(x + a d).
      double a = initial;
      Vector& xt = trial.x();
      for (int n = 0; n < settings.line_search.max_evaluations; ++n, a *= 0.5) {
        for (std::size_t i = 0; i < xt.size(); ++i)
          xt[i] = std::max(0.0, x[i] + a * d[i]);
        ls.value = f.evaluate(xt.data(), trial.gradient().data());
        ++ls.evaluations;
        Vector step = trial.x();
        axpy(-1.0, x, step);
        if (std::isfinite(ls.value) && ls.value <= fx + settings.line_search.c1 * dot(g, step)) {
          ls.alpha = a;
          ls.success = true;
          break;
        }
      }
    }
    const int evaluations = trial.evaluations() + ls.evaluations * int(settings.positivity);
    result.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx)) {
      result.reason = StopReason::LineSearchFailed;
      break;
    }
    Vector s = trial.x();
    axpy(-1.0, x, s);
    Vector y = trial.gradient();
    axpy(-1.0, g, y);
    const double sy = dot(s, y);
    if (sy > 1e-12 * detail::norm(s) * detail::norm(y))
      history.push(std::move(s), std::move(y));
    x = trial.x();
    g = trial.gradient();
    const double previous = fx;
    fx = ls.value;
    result.iterations = iteration;
    const double gnorm = detail::norm(projectedGradient(x, g, settings.positivity));
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
