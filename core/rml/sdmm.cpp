#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "core/rml/host_vector_space.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/lbfgs.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/space_sdmm.h"

namespace apertura::rml {

namespace {

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

OptimizerResult minimizeSdmm(DifferentiableFunction* smooth,
                             const std::vector<ProximableFunction*>& terms, Vector x0,
                             const SdmmSettings& settings) {
  const std::size_t n = x0.size();
  if (smooth != nullptr && smooth->dimension() != n)
    throw std::invalid_argument("SDMM: x0 has the wrong size");
  const double gamma = settings.gamma;
  // The host space: the smooth prox's inner L-BFGS and the objective read host vectors.
  HostVectorSpace space;
  using compute::SpaceVector;
  std::vector<SpaceSdmm::Prox> proxes;
  Vector smooth_warm = x0;
  if (smooth != nullptr) {
    proxes.emplace_back([&, smooth](const SpaceVector& u, SpaceVector& o) {
      ProxObjective inner(*smooth, gamma, HostVectorSpace::of(u).data());
      LbfgsSettings s;
      s.stop.max_iterations = settings.smooth_prox_iterations;
      // The history is allocated up front: no more pairs than inner iterations.
      s.history = std::max(1, std::min(s.history, settings.smooth_prox_iterations));
      s.stop.relative_tolerance = 1e-14;
      const OptimizerResult r = minimizeLbfgs(inner, smooth_warm, s);
      smooth_warm = r.x;
      space.upload(r.x.data(), o);
    });
  }
  for (ProximableFunction* g : terms) {
    proxes.emplace_back([&space, g, gamma](const SpaceVector& u, SpaceVector& o) {
      proxWhere(space, *g, u, gamma, o);
    });
  }
  NonNegativity positivity(n);
  if (settings.positivity) {
    proxes.emplace_back([&space, &positivity](const SpaceVector& u, SpaceVector& o) {
      positivity.proxIn(space, u, 1.0, o);
    });
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
  if (settings.positivity)
    projectNonNegative(x0);
  compute::SpaceVectorPtr consensus = space.create(n);
  space.upload(x0.data(), *consensus);
  const Vector& x = HostVectorSpace::of(*consensus);
  IterationMonitor monitor(settings.stop, smooth);
  double fx = objective(x);
  SpaceSdmm sdmm(space, std::move(proxes), *consensus);
  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const double residual = sdmm.step(*consensus);
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
  result.x = x;
  return result;
}

}  // namespace apertura::rml
