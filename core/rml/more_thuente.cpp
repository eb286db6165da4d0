// Moré & Thuente (1994), "Line search algorithms with guaranteed sufficient decrease", ACM TOMS
// 20(3): the interval of uncertainty [stx, sty] always contains a step satisfying the strong Wolfe
// conditions once bracketed; until then steps extrapolate. Stage 1 works on the auxiliary
// function psi(a) = phi(a) - phi(0) - c1 a phi'(0), which guarantees sufficient decrease.
#include <algorithm>
#include <cmath>

#include "core/rml/line_search.h"

namespace apertura::rml {
namespace {

struct End {
  double a = 0.0, f = 0.0, g = 0.0;
};

// Trial step from the interval ends x (best so far), y and the current trial t (section 4 of the
// paper, cases 1-4); updates the interval and `bracketed`.
double nextStep(End& x, End& y, const End& t, bool& bracketed, double lo, double hi) {
  const double sgn = t.g * std::copysign(1.0, x.g);
  double step = t.a;
  auto cubicTheta = [](const End& a, const End& b) {
    return 3.0 * (a.f - b.f) / (b.a - a.a) + a.g + b.g;
  };
  if (t.f > x.f) {
    // Case 1: higher value; the minimiser is bracketed. Take the cubic step unless the
    // quadratic one is closer to x, then halfway between them.
    const double theta = cubicTheta(x, t);
    const double s = std::max({std::abs(theta), std::abs(x.g), std::abs(t.g)});
    double gamma = s * std::sqrt(std::max(0.0, (theta / s) * (theta / s) - (x.g / s) * (t.g / s)));
    if (t.a < x.a)
      gamma = -gamma;
    const double p = (gamma - x.g) + theta;
    const double q = ((gamma - x.g) + gamma) + t.g;
    const double cubic = x.a + (p / q) * (t.a - x.a);
    const double quad = x.a + ((x.g / ((x.f - t.f) / (t.a - x.a) + x.g)) / 2.0) * (t.a - x.a);
    step = std::abs(cubic - x.a) < std::abs(quad - x.a) ? cubic : cubic + (quad - cubic) / 2.0;
    bracketed = true;
  } else if (sgn < 0.0) {
    // Case 2: lower value, derivatives of opposite sign: bracketed; the step farther from t.
    const double theta = cubicTheta(x, t);
    const double s = std::max({std::abs(theta), std::abs(x.g), std::abs(t.g)});
    double gamma = s * std::sqrt(std::max(0.0, (theta / s) * (theta / s) - (x.g / s) * (t.g / s)));
    if (t.a > x.a)
      gamma = -gamma;
    const double p = (gamma - t.g) + theta;
    const double q = ((gamma - t.g) + gamma) + x.g;
    const double cubic = t.a + (p / q) * (x.a - t.a);
    const double secant = t.a + (t.g / (t.g - x.g)) * (x.a - t.a);
    step = std::abs(cubic - t.a) > std::abs(secant - t.a) ? cubic : secant;
    bracketed = true;
  } else if (std::abs(t.g) < std::abs(x.g)) {
    // Case 3: lower value, same sign, the slope shrinks. The cubic may have no minimiser in the
    // direction of t; then go to the end of the allowed range.
    const double theta = cubicTheta(x, t);
    const double s = std::max({std::abs(theta), std::abs(x.g), std::abs(t.g)});
    double gamma = s * std::sqrt(std::max(0.0, (theta / s) * (theta / s) - (x.g / s) * (t.g / s)));
    if (t.a > x.a)
      gamma = -gamma;
    const double p = (gamma - t.g) + theta;
    const double q = (gamma + (x.g - t.g)) + gamma;
    const double r = p / q;
    double cubic;
    if (r < 0.0 && gamma != 0.0)
      cubic = t.a + r * (x.a - t.a);
    else
      cubic = t.a > x.a ? hi : lo;
    const double secant = t.a + (t.g / (t.g - x.g)) * (x.a - t.a);
    if (bracketed) {
      step = std::abs(cubic - t.a) < std::abs(secant - t.a) ? cubic : secant;
      step = t.a > x.a ? std::min(t.a + 0.66 * (y.a - t.a), step)
                       : std::max(t.a + 0.66 * (y.a - t.a), step);
    } else {
      step = std::abs(cubic - t.a) > std::abs(secant - t.a) ? cubic : secant;
      step = std::clamp(step, lo, hi);
    }
  } else {
    // Case 4: lower value, same sign, the slope does not shrink: cubic through t and y when
    // bracketed, else extrapolate to the range's end.
    if (bracketed) {
      const double theta = 3.0 * (t.f - y.f) / (y.a - t.a) + y.g + t.g;
      const double s = std::max({std::abs(theta), std::abs(y.g), std::abs(t.g)});
      double gamma =
          s * std::sqrt(std::max(0.0, (theta / s) * (theta / s) - (y.g / s) * (t.g / s)));
      if (t.a > y.a)
        gamma = -gamma;
      const double p = (gamma - t.g) + theta;
      const double q = ((gamma - t.g) + gamma) + y.g;
      step = t.a + (p / q) * (y.a - t.a);
    } else {
      step = t.a > x.a ? hi : lo;
    }
  }
  // The interval keeps the lowest value at x and a point beyond the minimiser at y.
  if (t.f > x.f) {
    y = t;
  } else {
    if (sgn < 0.0)
      y = x;
    x = t;
  }
  return step;
}

}  // namespace

LineSearchResult moreThuente(const LineFunction& phi, double phi0, double dphi0,
                             double initial_step, const LineSearchSettings& settings) {
  constexpr double kXtol = 1e-14;  // relative width at which the interval is exhausted
  constexpr double kExtrapLow = 1.1, kExtrapHigh = 4.0;
  const double gtest = settings.c1 * dphi0;
  const double max_step = settings.max_step;
  double step = std::min(initial_step, max_step);
  bool bracketed = false;
  bool stage1 = true;
  double width = max_step, width1 = 2.0 * max_step;
  End x{0.0, phi0, dphi0}, y{0.0, phi0, dphi0};
  double stmin = 0.0, stmax = step + kExtrapHigh * step;
  End last{};
  int n = 0;
  while (n < settings.max_evaluations) {
    End t{step, 0.0, 0.0};
    t.f = phi(step, &t.g);
    ++n;
    last = t;
    if (!std::isfinite(t.f) || !std::isfinite(t.g)) {
      // Outside the function's domain: shorten towards the best point, keep the interval.
      step = x.a + 0.5 * (step - x.a);
      stmax = std::min(stmax, t.a);
      continue;
    }
    const double ftest = phi0 + step * gtest;
    if (stage1 && t.f <= ftest && t.g >= 0.0)
      stage1 = false;
    if (t.f <= ftest && std::abs(t.g) <= settings.c2 * -dphi0)
      return {t.a, t.f, t.g, n, true};
    if (step >= max_step && t.f <= ftest && t.g <= gtest)
      return {t.a, t.f, t.g, n, true};  // the longest step allowed still descends steeply
    if (bracketed && (step <= stmin || step >= stmax || stmax - stmin <= kXtol * stmax))
      break;  // rounding errors or an exhausted interval: no Wolfe point is resolvable
    if (stage1 && t.f <= x.f && t.f > ftest) {
      // Stage 1 on psi: shift values and slopes by the sufficient-decrease line.
      End xm{x.a, x.f - x.a * gtest, x.g - gtest};
      End ym{y.a, y.f - y.a * gtest, y.g - gtest};
      const End tm{t.a, t.f - t.a * gtest, t.g - gtest};
      step = nextStep(xm, ym, tm, bracketed, stmin, stmax);
      x = {xm.a, xm.f + xm.a * gtest, xm.g + gtest};
      y = {ym.a, ym.f + ym.a * gtest, ym.g + gtest};
    } else {
      step = nextStep(x, y, t, bracketed, stmin, stmax);
    }
    if (bracketed) {
      // Force sufficient shrinkage of the interval: bisect when two steps did not halve it.
      if (std::abs(y.a - x.a) >= 0.66 * width1)
        step = x.a + 0.5 * (y.a - x.a);
      width1 = width;
      width = std::abs(y.a - x.a);
      stmin = std::min(x.a, y.a);
      stmax = std::max(x.a, y.a);
    } else {
      stmin = step + kExtrapLow * (step - x.a);
      stmax = step + kExtrapHigh * (step - x.a);
    }
    step = std::clamp(step, 0.0, max_step);
    if (bracketed && (step <= stmin || step >= stmax || stmax - stmin <= kXtol * stmax))
      step = x.a;
  }
  // No Wolfe point: the best step found, evaluated last as the optimizers expect.
  if (x.a == 0.0)
    return {0.0, phi0, dphi0, n, false};
  if (last.a != x.a) {
    x.f = phi(x.a, &x.g);
    ++n;
  }
  return {x.a, x.f, x.g, n, x.f < phi0};
}

}  // namespace apertura::rml
