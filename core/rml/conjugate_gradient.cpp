#include "core/rml/conjugate_gradient.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/vector_math.h"
#include "core/rml/iteration_monitor.h"

namespace apertura::rml {

using detail::dot;

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

// The dot products the beta rules need, with y = g1 - g0 formed on the fly (no image-sized
// buffer). Each sum runs blockwise in index order, as separate dot() calls over a stored y would.
struct BetaProducts {
  double g0g0 = 0.0;
  double g1g1 = 0.0;
  double dy = 0.0;
  double g1y = 0.0;
  double yy = 0.0;
  double dg1 = 0.0;
  double dd = 0.0;
};

BetaProducts betaProducts(const Vector& g0, const Vector& g1, const Vector& d) {
  const auto s = detail::blockedSums<7>(
      g0.size(), [&](std::size_t begin, std::size_t end, std::array<double, 7>& acc) {
        BetaProducts p;
        for (std::size_t i = begin; i < end; ++i) {
          const double y = g1[i] - g0[i];
          p.g0g0 += g0[i] * g0[i];
          p.g1g1 += g1[i] * g1[i];
          p.dy += d[i] * y;
          p.g1y += g1[i] * y;
          p.yy += y * y;
          p.dg1 += d[i] * g1[i];
          p.dd += d[i] * d[i];
        }
        acc = {p.g0g0, p.g1g1, p.dy, p.g1y, p.yy, p.dg1, p.dd};
      });
  BetaProducts p;
  p.g0g0 = s[0];
  p.g1g1 = s[1];
  p.dy = s[2];
  p.g1y = s[3];
  p.yy = s[4];
  p.dg1 = s[5];
  p.dd = s[6];
  return p;
}

// beta from the old gradient g0, the new one g1 and the old direction d.
double computeBeta(CgBeta rule, const Vector& g0, const Vector& g1, const Vector& d) {
  const BetaProducts p = betaProducts(g0, g1, d);
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

}  // namespace

OptimizerResult minimizeConjugateGradient(DifferentiableFunction& f, Vector x0,
                                          const CgSettings& settings) {
  if (x0.size() != f.dimension())
    throw std::invalid_argument("CG: x0 has the wrong size");
  OptimizerResult result;
  result.x = std::move(x0);
  Vector& x = result.x;
  // Image-sized buffers are allocated once here and reused by every iteration: the gradient, the
  // direction and the trial point with its gradient (y = g1 - g0 is never stored).
  Vector g(x.size());
  double fx = f.evaluate(x.data(), g.data());
  result.evaluations = 1;
  Vector d = g;
  for (double& v : d)
    v = -v;
  double previous_gtd = 0.0;
  double previous_alpha = 0.0;
  const int restart = settings.restart_every > 0 ? settings.restart_every : int(x.size());
  IterationMonitor monitor(settings.stop, &f);
  detail::TrialPoint trial(f, x, d);
  int since_restart = 0;

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    double gtd = dot(g, d);
    if (!(gtd < 0.0)) {
      d = g;
      for (double& v : d)
        v = -v;
      gtd = dot(g, d);
      since_restart = 0;
    }
    if (!(gtd < 0.0)) {
      result.reason = StopReason::GradientNorm;
      break;
    }
    // Initial step: the first from the gradient scale, later ones keep alpha * g.d constant.
    const double initial = previous_alpha > 0.0
                               ? std::min(1e10, previous_alpha * previous_gtd / gtd)
                               : std::min(1.0, 1.0 / detail::norm(g));
    const int evaluations_before = trial.evaluations();
    const LineSearchResult ls =
        lineSearch(trial.function(), fx, gtd, initial, settings.line_search);
    const int evaluations = trial.evaluations() - evaluations_before;
    result.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx)) {
      result.reason = StopReason::LineSearchFailed;
      break;
    }
    const Vector& g_new = trial.gradient();
    const double beta = ++since_restart >= restart ? 0.0 : computeBeta(settings.beta, g, g_new, d);
    if (beta == 0.0)
      since_restart = 0;
    detail::parallelFor(d.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        d[i] = -g_new[i] + beta * d[i];
    });
    // The trial buffers are overwritten by the next line search: swap instead of copying.
    x.swap(trial.x());
    g.swap(trial.gradient());
    previous_gtd = gtd;
    previous_alpha = ls.alpha;
    const double previous = fx;
    fx = ls.value;
    result.iterations = iteration;
    if (auto stop = monitor.finishIteration(iteration, previous, fx, ls.alpha, detail::norm(g),
                                            evaluations, f.lastTermValues())) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  return result;
}

}  // namespace apertura::rml
