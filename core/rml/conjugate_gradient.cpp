#include "core/rml/conjugate_gradient.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/space_iterate.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/iteration_monitor.h"

namespace apertura::rml {

std::string toString(CgBeta beta) {
  switch (beta) {
    case CgBeta::FletcherReeves:
      return "Fletcher-Reeves";
    case CgBeta::PolakRibiere:
      return "Polak-Ribiere";
    case CgBeta::PolakRibierePlus:
      return "Polak-Ribiere+";
    case CgBeta::HestenesStiefel:
      return "Hestenes-Stiefel";
    case CgBeta::DaiYuan:
      return "Dai-Yuan";
    case CgBeta::HagerZhang:
      return "Hager-Zhang";
  }
  return "unknown";
}

namespace {

using compute::SpaceVectorPtr;
using compute::VectorSpace;

// beta from the old gradient g0, the new one g1 and the old direction d.
double computeBeta(CgBeta rule, const VectorSpace::ConjugateProducts& p) {
  const double dy = p.dy;
  switch (rule) {
    case CgBeta::FletcherReeves:
      return p.g1g1 / p.g0g0;
    case CgBeta::PolakRibiere:
      return p.g1y / p.g0g0;
    case CgBeta::PolakRibierePlus:
      return std::max(0.0, p.g1y / p.g0g0);
    case CgBeta::HestenesStiefel:
      return dy != 0.0 ? p.g1y / dy : 0.0;
    case CgBeta::DaiYuan:
      return dy != 0.0 ? p.g1g1 / dy : 0.0;
    case CgBeta::HagerZhang: {
      if (dy == 0.0)
        return 0.0;
      // beta = (y - 2 d |y|^2 / d.y) . g1 / d.y, bounded below by -1 / (|d| min(0.01, |g0|)).
      const double beta = (p.g1y - 2.0 * p.yy * p.dg1 / dy) / dy;
      const double eta = -1.0 / (std::sqrt(p.dd) * std::min(0.01, std::sqrt(p.g0g0)));
      return std::max(beta, eta);
    }
  }
  return 0.0;
}

// The iteration, written once for every VectorSpace: f's resident space (an accelerator's
// memory: only x0 goes there and the result comes back) or the host space.
OptimizerResult conjugateGradientIn(DifferentiableFunction& f, VectorSpace& space, const Vector& x0,
                                    const CgSettings& settings) {
  const std::size_t n = x0.size();
  OptimizerResult result;
  // Image-sized vectors are allocated once and reused by every iteration (y = g1 - g0 is never
  // stored).
  detail::SpaceIterate it(f, space, x0);
  SpaceVectorPtr &x = it.x, &g = it.g, &d = it.d, &gt = it.gt;
  double fx = f.evaluateIn(*x, g.get());
  result.evaluations = 1;
  const auto steepest = [&] {  // d = -g
    space.copy(*g, *d);
    space.scale(-1.0, *d);
  };
  steepest();
  double previous_gtd = 0.0;
  double previous_alpha = 0.0;
  const int restart = settings.restart_every > 0 ? settings.restart_every : int(n);
  IterationMonitor monitor(settings.stop, &f);
  const LineFunction along = it.along();
  int since_restart = 0;

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    double gtd = space.dot(*g, *d);
    if (!(gtd < 0.0)) {
      steepest();
      gtd = space.dot(*g, *d);
      since_restart = 0;
    }
    if (!(gtd < 0.0)) {
      result.reason = StopReason::GradientNorm;
      break;
    }
    // Initial step: the first from the gradient scale, later ones keep alpha * g.d constant.
    const double initial = previous_alpha > 0.0
                               ? std::min(1e10, previous_alpha * previous_gtd / gtd)
                               : std::min(1.0, 1.0 / std::sqrt(space.dot(*g, *g)));
    const int evaluations_before = it.trial_evaluations;
    const LineSearchResult ls = lineSearch(along, fx, gtd, initial, settings.line_search);
    const int evaluations = it.trial_evaluations - evaluations_before;
    result.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx)) {
      result.reason = StopReason::LineSearchFailed;
      break;
    }
    const double beta = ++since_restart >= restart
                            ? 0.0
                            : computeBeta(settings.beta, space.conjugateProducts(*g, *gt, *d));
    if (beta == 0.0)
      since_restart = 0;
    space.axpby(-1.0, *gt, beta, *d);  // d = -g_new + beta d
    it.accept();
    previous_gtd = gtd;
    previous_alpha = ls.alpha;
    const double previous = fx;
    fx = ls.value;
    result.iterations = iteration;
    if (auto stop =
            monitor.finishIteration(iteration, previous, fx, ls.alpha, std::sqrt(space.dot(*g, *g)),
                                    evaluations, f.lastTermValues())) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  result.x = it.download();
  return result;
}

}  // namespace

OptimizerResult minimizeConjugateGradient(DifferentiableFunction& f, const Vector& x0,
                                          const CgSettings& settings) {
  if (x0.size() != f.dimension())
    throw std::invalid_argument("CG: x0 has the wrong size");
  if (VectorSpace* space = f.residentSpace())
    return conjugateGradientIn(f, *space, x0, settings);
  OnHostSpace host(f);
  return conjugateGradientIn(host, *host.residentSpace(), x0, settings);
}

}  // namespace apertura::rml
