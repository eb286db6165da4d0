#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>

#include "core/rml/detail/vector_math.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/lbfgs.h"
#include "core/rml/proximal_solvers.h"

namespace apertura::rml {

namespace {

using ProxMap = std::function<void(const double* v, double* out)>;

// SDMM with identity operators; one call is one iteration. Returns the consensus residual.
class Sdmm {
 public:
  Sdmm(std::vector<ProxMap> proxes, const Vector& x0)
      : proxes_(std::move(proxes)), y_(proxes_.size(), x0), z_(proxes_.size(), Vector(x0.size())) {}

  // x holds the current consensus point on entry and the next one on return.
  double step(Vector& x) {
    const std::size_t n = x.size();
    double residual = 0.0;
    Vector& u = u_;  // reused across steps
    u.resize(n);
    for (std::size_t i = 0; i < y_.size(); ++i) {
      for (std::size_t k = 0; k < n; ++k)
        u[k] = x[k] + z_[i][k];
      proxes_[i](u.data(), y_[i].data());
      for (std::size_t k = 0; k < n; ++k) {
        const double r = x[k] - y_[i][k];
        z_[i][k] += r;
        residual += r * r;
      }
    }
    std::fill(x.begin(), x.end(), 0.0);
    for (std::size_t i = 0; i < y_.size(); ++i) {
      for (std::size_t k = 0; k < n; ++k)
        x[k] += y_[i][k] - z_[i][k];
    }
    for (double& v : x)
      v /= double(y_.size());
    return std::sqrt(residual);
  }

 private:
  std::vector<ProxMap> proxes_;
  std::vector<Vector> y_;
  std::vector<Vector> z_;
  Vector u_;
};

// gamma * f(x) + 1/2 |x - u|^2, minimised by L-BFGS for the smooth term's prox.
class ProxObjective final : public DifferentiableFunction {
 public:
  ProxObjective(DifferentiableFunction& f, double gamma, const double* u)
      : f_(f), gamma_(gamma), u_(u) {}
  std::size_t dimension() const override { return f_.dimension(); }
  double evaluate(const double* x, double* gradient) override {
    double value = gamma_ * f_.evaluate(x, gradient);
    for (std::size_t k = 0; k < dimension(); ++k) {
      const double d = x[k] - u_[k];
      value += 0.5 * d * d;
      if (gradient != nullptr)
        gradient[k] = gamma_ * gradient[k] + d;
    }
    return value;
  }
  std::vector<StageTime> takeStageTimes() override { return f_.takeStageTimes(); }

 private:
  DifferentiableFunction& f_;
  double gamma_;
  const double* u_;
};

}  // namespace

double NonNegativity::value(const double* x) {
  for (std::size_t k = 0; k < n_; ++k) {
    if (x[k] < 0.0)
      return std::numeric_limits<double>::infinity();
  }
  return 0.0;
}

void NonNegativity::prox(const double* v, double /*step*/, double* out) {
  for (std::size_t k = 0; k < n_; ++k)
    out[k] = std::max(v[k], 0.0);
}

void proxOfSum(const std::vector<ProximableFunction*>& terms, std::size_t n, const double* v,
               double step, double* out, int max_iterations, double tolerance) {
  std::vector<ProxMap> proxes;
  // gamma = 1: prox of 1/2 |x - v|^2 is (u + v) / 2.
  proxes.emplace_back([v, n](const double* u, double* o) {
    for (std::size_t k = 0; k < n; ++k)
      o[k] = 0.5 * (u[k] + v[k]);
  });
  for (ProximableFunction* g : terms) {
    proxes.emplace_back([g, step](const double* u, double* o) { g->prox(u, step, o); });
  }
  Vector x(v, v + n);
  Vector previous = x;
  Sdmm sdmm(std::move(proxes), x);
  for (int it = 0; it < max_iterations; ++it) {
    sdmm.step(x);
    double change = 0.0;
    for (std::size_t k = 0; k < n; ++k)
      change += (x[k] - previous[k]) * (x[k] - previous[k]);
    previous = x;
    if (it > 0 && std::sqrt(change) <= tolerance * std::max(detail::norm(x), 1e-300))
      break;
  }
  std::copy(x.begin(), x.end(), out);
}

OptimizerResult minimizeSdmm(DifferentiableFunction* smooth,
                             const std::vector<ProximableFunction*>& terms, Vector x0,
                             const SdmmSettings& settings) {
  const std::size_t n = x0.size();
  if (smooth != nullptr && smooth->dimension() != n)
    throw std::invalid_argument("SDMM: x0 has the wrong size");
  const double gamma = settings.gamma;
  std::vector<ProxMap> proxes;
  Vector smooth_warm = x0;
  if (smooth != nullptr) {
    proxes.emplace_back([&, smooth](const double* u, double* o) {
      ProxObjective inner(*smooth, gamma, u);
      LbfgsSettings s;
      s.stop.max_iterations = settings.smooth_prox_iterations;
      // The history is allocated up front: no more pairs than inner iterations.
      s.history = std::max(1, std::min(s.history, settings.smooth_prox_iterations));
      s.stop.relative_tolerance = 1e-14;
      const OptimizerResult r = minimizeLbfgs(inner, smooth_warm, s);
      smooth_warm = r.x;
      std::copy(r.x.begin(), r.x.end(), o);
    });
  }
  for (ProximableFunction* g : terms) {
    proxes.emplace_back([g, gamma](const double* u, double* o) { g->prox(u, gamma, o); });
  }
  NonNegativity positivity(n);
  if (settings.positivity) {
    proxes.emplace_back([&positivity](const double* u, double* o) { positivity.prox(u, 1.0, o); });
  }
  if (proxes.empty())
    throw std::invalid_argument("SDMM: nothing to minimise");

  auto objective = [&](const Vector& x) {
    double value = smooth != nullptr ? smooth->evaluate(x.data(), nullptr) : 0.0;
    for (ProximableFunction* g : terms)
      value += g->value(x.data());
    return value;
  };
  auto term_values = [&](const Vector& x) {
    std::vector<TermValue> values =
        smooth != nullptr ? smooth->lastTermValues() : std::vector<TermValue>{};
    for (ProximableFunction* g : terms)
      values.push_back({g->name(), g->value(x.data())});
    return values;
  };

  OptimizerResult result;
  result.x = std::move(x0);
  Vector& x = result.x;
  if (settings.positivity)
    projectNonNegative(x);
  IterationMonitor monitor(settings.stop, smooth);
  double fx = objective(x);
  Sdmm sdmm(std::move(proxes), x);
  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const double residual = sdmm.step(x);
    const double previous = fx;
    fx = objective(x);
    result.iterations = iteration;
    result.evaluations = iteration;
    if (auto stop =
            monitor.finishIteration(iteration, previous, fx, gamma, residual, 1, term_values(x))) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  return result;
}

}  // namespace apertura::rml
