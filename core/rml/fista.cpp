#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/rml/host_vector_space.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/space_sdmm.h"

namespace apertura::rml {

namespace {

using compute::SpaceVector;
using compute::SpaceVectorPtr;
using compute::VectorSpace;

// prox_{t sum_i g_i} (+ positivity) on vectors of `space`: direct for one term (clipping
// commutes with a separable prox; a non-separable term may have its own prox over x >= 0), by an
// inner SDMM in the same space otherwise.
class JointProx {
 public:
  JointProx(const std::vector<ProximableFunction*>& terms, std::size_t n,
            const FistaSettings& settings)
      : terms_(terms), positivity_(n), n_(n), settings_(settings) {
    const bool single = terms_.size() == 1;
    const bool clip_commutes = single && terms_[0]->isSeparable();
    nonnegative_ =
        settings.positivity && single && !clip_commutes && terms_[0]->hasNonNegativeProx();
    if (settings.positivity && !terms_.empty() && !clip_commutes && !nonnegative_)
      terms_.push_back(&positivity_);
    // Clipping is exact where it commutes with the prox; after an inner SDMM it makes the result
    // feasible (the consensus point is feasible only in the limit).
    clip_ = settings.positivity && !nonnegative_;
  }
  // Whether every step can run in `space`: every term's prox is resident there, and the solver's
  // vectors (FISTA's five and an inner SDMM's) fit in its free memory.
  bool resident(VectorSpace& space) const {
    const std::size_t vectors = 5 + (terms_.size() > 1 ? proxOfSumVectors(terms_.size()) : 0);
    return std::all_of(terms_.begin(), terms_.end(),
                       [&space](ProximableFunction* g) { return g->residentIn(space); }) &&
           vectors * n_ * sizeof(double) <= space.bytesAvailable();
  }
  // `space` is the host space unless resident(space).
  void apply(VectorSpace& space, const SpaceVector& v, double t, SpaceVector& out) {
    if (terms_.empty()) {
      space.copy(v, out);
    } else if (terms_.size() == 1) {
      proxWhere(space, *terms_[0], v, t, out, nonnegative_);
    } else {
      proxOfSumIn(space, terms_, v, t, out, settings_.prox_iterations, settings_.prox_tolerance);
    }
    if (clip_)
      space.maxWith(0.0, out);
  }

 private:
  std::vector<ProximableFunction*> terms_;
  NonNegativity positivity_;
  std::size_t n_;
  FistaSettings settings_;
  bool clip_ = false;
  bool nonnegative_ = false;  // terms_[0]'s own prox over x >= 0
};

// The sum of the non-smooth terms' values at x, and each one.
double nonsmoothValue(VectorSpace& space, const std::vector<ProximableFunction*>& terms,
                      const SpaceVector& x, std::vector<TermValue>* values = nullptr) {
  double value = 0.0;
  for (ProximableFunction* g : terms) {
    const double v =
        g->residentIn(space) ? g->valueIn(space, x) : g->value(HostVectorSpace::of(x).data());
    if (values != nullptr)
      values->push_back({g->name(), v});
    value += v;
  }
  return value;
}

// The iteration, written once for every VectorSpace: the smooth part's resident space (when the
// joint prox can run there too) or the host space.
OptimizerResult fistaIn(DifferentiableFunction& smooth, VectorSpace& space,
                        const std::vector<ProximableFunction*>& terms, JointProx& prox, Vector x0,
                        const FistaSettings& settings) {
  const std::size_t n = x0.size();
  OptimizerResult result;
  if (settings.positivity)
    projectNonNegative(x0);
  // Vectors allocated once: the iterate, the extrapolated point, its gradient, the prox input and
  // its output p (the new iterate, swapped into x; the previous x then waits in p until the
  // next prox overwrites it).
  SpaceVectorPtr x = space.create(n), y = space.create(n), gy = space.create(n);
  SpaceVectorPtr p = space.create(n), v = space.create(n);
  space.upload(x0.data(), *x);
  space.copy(*x, *y);
  double fx = smooth.evaluateIn(*x, nullptr) + nonsmoothValue(space, terms, *x);
  result.evaluations = 1;
  double lipschitz = settings.initial_lipschitz;
  double t = 1.0;
  IterationMonitor monitor(settings.stop, &smooth);

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const double fy = smooth.evaluateIn(*y, gy.get());
    int evaluations = 1;
    double fp = 0.0;
    double quadratic = 0.0;
    // Backtracking: raise L until the quadratic model at y majorises f at p.
    for (;;) {
      space.gradientStep(*y, *gy, lipschitz, *v);
      prox.apply(space, *v, 1.0 / lipschitz, *p);
      fp = smooth.evaluateIn(*p, nullptr);
      ++evaluations;
      const double linear = space.dotDifference(*gy, *p, *y);
      quadratic = space.distanceSquared(*p, *y);
      if (std::isfinite(fp) &&
          fp <= fy + linear + 0.5 * lipschitz * quadratic + 1e-12 * std::abs(fy))
        break;
      if (lipschitz > 1e300)
        break;
      lipschitz *= settings.backtrack_factor;
    }
    const double mapping = lipschitz * std::sqrt(quadratic);

    const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    const double momentum = (t - 1.0) / t_next;
    space.extrapolate(*p, *x, momentum, *y);
    std::swap(x, p);
    t = t_next;

    const double previous = fx;
    std::vector<TermValue> values = smooth.lastTermValues();
    fx = fp + nonsmoothValue(space, terms, *x, &values);
    result.iterations = iteration;
    result.evaluations += evaluations;
    if (auto stop = monitor.finishIteration(iteration, previous, fx, 1.0 / lipschitz, mapping,
                                            evaluations, std::move(values))) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  result.x.resize(n);
  space.download(*x, result.x.data());
  return result;
}

}  // namespace

bool fistaRunsResident(DifferentiableFunction& smooth,
                       const std::vector<ProximableFunction*>& terms,
                       const FistaSettings& settings) {
  VectorSpace* space = smooth.residentSpace();
  return space != nullptr && JointProx(terms, smooth.dimension(), settings).resident(*space);
}

OptimizerResult minimizeFista(DifferentiableFunction& smooth,
                              const std::vector<ProximableFunction*>& terms, Vector x0,
                              const FistaSettings& settings) {
  const std::size_t n = smooth.dimension();
  if (x0.size() != n)
    throw std::invalid_argument("FISTA: x0 has the wrong size");
  JointProx prox(terms, n, settings);
  if (VectorSpace* space = smooth.residentSpace(); space != nullptr && prox.resident(*space))
    return fistaIn(smooth, *space, terms, prox, std::move(x0), settings);
  OnHostSpace host(smooth);
  return fistaIn(host, *host.residentSpace(), terms, prox, std::move(x0), settings);
}

}  // namespace apertura::rml
