#include "core/rml/resident_lbfgs.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/pair_differences.h"
#include "core/rml/detail/space_iterate.h"
#include "core/rml/iteration_monitor.h"
#include "core/rml/lbfgs_history.h"

namespace apertura::rml {

namespace {

using compute::SpaceVector;
using compute::SpaceVectorPtr;
using compute::VectorSpace;

// The m correction pairs in a ring of vectors allocated once in the space, double or float.
// Acceptance, rho and the recursion are LbfgsHistory's with its pairs held in memory.
class ResidentHistory {
 public:
  ResidentHistory(VectorSpace& space, std::size_t n, int m, bool float_pairs)
      : space_(space), float_pairs_(float_pairs) {
    const int capacity = std::max(1, m);
    for (int k = 0; k < capacity; ++k) {
      s_.push_back(float_pairs ? space.createFloat(n) : space.create(n));
      y_.push_back(float_pairs ? space.createFloat(n) : space.create(n));
    }
    rho_.assign(std::size_t(capacity), 0.0);
    alpha_.assign(std::size_t(capacity), 0.0);
  }
  bool empty() const { return size_ == 0; }
  void clear() { oldest_ = size_ = 0; }

  void push(const SpaceVector& x_new, const SpaceVector& x, const SpaceVector& g_new,
            const SpaceVector& g) {
    const int capacity = int(s_.size());
    const bool free_slot = size_ < capacity;
    // Without a free slot the pair is judged before the oldest one is given up for it.
    const std::size_t slot = std::size_t((oldest_ + size_) % capacity);
    const VectorSpace::PairSums sums =
        free_slot ? space_.differences(x_new, x, g_new, g, s_[slot].get(), y_[slot].get())
                  : space_.differences(x_new, x, g_new, g, nullptr, nullptr);
    if (!detail::keepsPair(sums, float_pairs_))
      return;
    if (!free_slot) {
      const std::size_t reuse = std::size_t(oldest_);
      oldest_ = (oldest_ + 1) % capacity;
      --size_;
      space_.differences(x_new, x, g_new, g, s_[reuse].get(), y_[reuse].get());
    }
    rho_[std::size_t((oldest_ + size_) % capacity)] = detail::pairRho(sums, float_pairs_);
    ++size_;
  }

  // d: the projected gradient on entry, -H d on return (two-loop recursion, newest pair first,
  // Shanno-Phua scaling).
  void direction(SpaceVector& d) {
    if (size_ == 0) {
      space_.scale(-1.0, d);
      return;
    }
    for (int j = size_ - 1; j >= 0; --j) {
      const std::size_t k = index(j);
      alpha_[std::size_t(j)] = rho_[k] * space_.dot(*s_[k], d);
      space_.axpy(-alpha_[std::size_t(j)], *y_[k], d);
    }
    const std::size_t newest = index(size_ - 1);
    const double gamma =
        space_.dot(*s_[newest], *y_[newest]) / space_.dot(*y_[newest], *y_[newest]);
    space_.scale(gamma, d);
    for (int j = 0; j < size_; ++j) {
      const std::size_t k = index(j);
      const double beta = rho_[k] * space_.dot(*y_[k], d);
      space_.axpy(alpha_[std::size_t(j)] - beta, *s_[k], d);
    }
    space_.scale(-1.0, d);
  }

 private:
  std::size_t index(int logical) const { return std::size_t((oldest_ + logical) % int(s_.size())); }

  VectorSpace& space_;
  bool float_pairs_;
  std::vector<SpaceVectorPtr> s_, y_;
  std::vector<double> rho_, alpha_;
  int oldest_ = 0;
  int size_ = 0;
};

}  // namespace

std::size_t residentLbfgsBytes(std::size_t n, int history, bool float_pairs) {
  const std::size_t pair_element = float_pairs ? sizeof(float) : sizeof(double);
  return 2 * std::size_t(std::max(1, history)) * n * pair_element + (5 + 4) * n * sizeof(double);
}

bool lbfgsRunsResident(DifferentiableFunction& f, const LbfgsSettings& settings) {
  VectorSpace* space = f.residentSpace();
  if (space == nullptr)
    return false;
  LbfgsHistoryOptions o;
  o.max_corrections = settings.history;
  o.in_memory_limit = settings.in_memory_limit;
  o.memory_threshold_bytes = settings.memory_threshold_bytes;
  o.float_storage = settings.float_history;
  return LbfgsHistory::residentPairs(f.dimension(), o) == std::max(1, settings.history) &&
         residentLbfgsBytes(f.dimension(), settings.history, settings.float_history) <=
             space->bytesAvailable();
}

OptimizerResult minimizeLbfgsResident(DifferentiableFunction& f, Vector x0,
                                      const LbfgsSettings& settings) {
  VectorSpace* space_ptr = f.residentSpace();
  if (space_ptr == nullptr)
    throw std::logic_error("minimizeLbfgsResident: the function has no resident space");
  if (x0.size() != f.dimension())
    throw std::invalid_argument("L-BFGS: x0 has the wrong size");
  VectorSpace& space = *space_ptr;
  const std::size_t n = x0.size();
  const bool positivity = settings.positivity;
  OptimizerResult result;
  if (positivity)
    projectNonNegative(x0);
  // Every vector is allocated once, here.
  detail::SpaceIterate it(f, space, x0);
  SpaceVectorPtr &x = it.x, &g = it.g, &d = it.d, &xt = it.xt, &gt = it.gt;
  ResidentHistory history(space, n, settings.history, settings.float_history);
  double fx = f.evaluateIn(*x, g.get());
  result.evaluations = 1;
  IterationMonitor monitor(settings.stop, &f);

  const LineFunction along = it.along();

  for (int iteration = 1;; ++iteration) {
    if (auto stop = monitor.checkBefore()) {
      result.reason = *stop;
      break;
    }
    const double pg_norm = std::sqrt(space.projectedGradient(*x, *g, positivity, 1.0, d.get()));
    history.direction(*d);
    if (positivity)
      space.holdAtBound(*x, *g, *d);
    double gtd = space.dot(*g, *d);
    if (!(gtd < 0.0)) {  // not a descent direction: restart from steepest descent
      history.clear();
      space.projectedGradient(*x, *g, positivity, -1.0, d.get());
      gtd = space.dot(*g, *d);
    }
    if (!(gtd < 0.0)) {
      result.reason = StopReason::GradientNorm;
      break;
    }
    const double initial = history.empty() ? std::min(1.0, 1.0 / pg_norm) : 1.0;

    const int evaluations_before = it.trial_evaluations;
    LineSearchResult ls;
    if (!positivity) {
      ls = lineSearch(along, fx, gtd, initial, settings.line_search);
    } else {
      // Armijo on the projected path x(a) = P(x + a d).
      double a = initial;
      for (int k = 0; k < settings.line_search.max_evaluations; ++k) {
        space.step(*x, a, *d, true, *xt);
        ls.value = f.evaluateIn(*xt, gt.get());
        ++ls.evaluations;
        const double decrease = space.dotDifference(*g, *xt, *x);
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
        it.trial_evaluations - evaluations_before + ls.evaluations * int(positivity);
    result.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx)) {
      result.reason = StopReason::LineSearchFailed;
      break;
    }
    history.push(*xt, *x, *gt, *g);
    it.accept();
    const double previous = fx;
    fx = ls.value;
    result.iterations = iteration;
    const double gnorm = std::sqrt(space.projectedGradient(*x, *g, positivity, 1.0, nullptr));
    if (auto stop = monitor.finishIteration(iteration, previous, fx, ls.alpha, gnorm, evaluations,
                                            f.lastTermValues())) {
      result.reason = *stop;
      break;
    }
  }
  result.objective = fx;
  result.x = it.download();
  return result;
}

}  // namespace apertura::rml
