#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/vector_math.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/proximal_solvers.h"

namespace apertura::rml {

namespace {

// prox_{t sum_i g_i} (+ positivity): direct for one term (clipping commutes with a separable
// prox), inner SDMM otherwise.
class JointProx {
 public:
  JointProx(const std::vector<ProximableFunction*>& terms, std::size_t n,
            const FistaSettings& settings)
      : terms_(terms), positivity_(n), n_(n), settings_(settings) {
    const bool clip_commutes = terms_.size() == 1 && terms_[0]->isSeparable();
    if (settings.positivity && !terms_.empty() && !clip_commutes) {
      terms_.push_back(&positivity_);
      clip_ = false;
    } else {
      clip_ = settings.positivity;
    }
  }
  void apply(const double* v, double t, double* out) {
    if (terms_.empty()) {
      std::copy(v, v + n_, out);
    } else if (terms_.size() == 1) {
      terms_[0]->prox(v, t, out);
    } else {
      proxOfSum(terms_, n_, v, t, out, settings_.prox_iterations, settings_.prox_tolerance);
    }
    if (clip_) {
      detail::parallelFor(n_, [out](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k)
          out[k] = std::max(out[k], 0.0);
      });
    }
  }

 private:
  std::vector<ProximableFunction*> terms_;
  NonNegativity positivity_;
  std::size_t n_;
  FistaSettings settings_;
  bool clip_ = false;
};

}  // namespace

OptimizerResult minimizeFista(DifferentiableFunction& smooth,
                              const std::vector<ProximableFunction*>& terms, Vector x0,
                              const FistaSettings& settings) {
  const std::size_t n = smooth.dimension();
  if (x0.size() != n)
    throw std::invalid_argument("FISTA: x0 has the wrong size");
  JointProx prox(terms, n, settings);
  auto nonsmooth = [&](const Vector& x) {
    double value = 0.0;
    for (ProximableFunction* g : terms)
      value += g->value(x.data());
    return value;
  };

  OptimizerResult result;
  result.x = std::move(x0);
  Vector& x = result.x;
  if (settings.positivity)
    projectNonNegative(x);
  double fx = smooth.evaluate(x.data(), nullptr) + nonsmooth(x);
  result.evaluations = 1;
  // Image-sized buffers, allocated once: the extrapolated point, its gradient, the prox input and
  // its output p (the new iterate, swapped into x; the previous x then waits in p until the
  // next prox overwrites it).
  Vector y = x, gy(n), p(n), v(n);
  double lipschitz = settings.initial_lipschitz;
  double t = 1.0;
  IterationMonitor monitor(settings.stop, &smooth);

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const double fy = smooth.evaluate(y.data(), gy.data());
    int evaluations = 1;
    double fp = 0.0;
    // Backtracking: raise L until the quadratic model at y majorises f at p.
    for (;;) {
      detail::parallelFor(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k)
          v[k] = y[k] - gy[k] / lipschitz;
      });
      prox.apply(v.data(), 1.0 / lipschitz, p.data());
      fp = smooth.evaluate(p.data(), nullptr);
      ++evaluations;
      const auto sums = detail::blockedSums<2>(
          n, [&](std::size_t begin, std::size_t end, std::array<double, 2>& acc) {
            double lin = 0.0, quad = 0.0;
            for (std::size_t k = begin; k < end; ++k) {
              const double d = p[k] - y[k];
              lin += gy[k] * d;
              quad += d * d;
            }
            acc = {lin, quad};
          });
      const double linear = sums[0], quadratic = sums[1];
      if (std::isfinite(fp) &&
          fp <= fy + linear + 0.5 * lipschitz * quadratic + 1e-12 * std::abs(fy))
        break;
      if (lipschitz > 1e300)
        break;
      lipschitz *= settings.backtrack_factor;
    }
    const double mapping =
        lipschitz * std::sqrt(detail::blockedSum(n, [&](std::size_t begin, std::size_t end) {
          double sum = 0.0;
          for (std::size_t k = begin; k < end; ++k)
            sum += (p[k] - y[k]) * (p[k] - y[k]);
          return sum;
        }));

    const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    const double momentum = (t - 1.0) / t_next;
    detail::parallelFor(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t k = begin; k < end; ++k)
        y[k] = p[k] + momentum * (p[k] - x[k]);
    });
    x.swap(p);
    t = t_next;

    const double previous = fx;
    fx = fp + nonsmooth(x);
    std::vector<TermValue> values = smooth.lastTermValues();
    for (ProximableFunction* g : terms)
      values.push_back({g->name(), g->value(x.data())});
    result.iterations = iteration;
    result.evaluations += evaluations;
    if (auto stop = monitor.finishIteration(iteration, previous, fx, 1.0 / lipschitz, mapping,
                                            evaluations, std::move(values))) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  return result;
}

}  // namespace apertura::rml
