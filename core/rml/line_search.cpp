#include "core/rml/line_search.h"

#include <algorithm>
#include <cmath>

namespace apertura::rml {

namespace {

struct Point {
  double a = 0.0;
  double f = 0.0;
  double g = 0.0;
};

// Minimiser of the cubic matching values and slopes at lo and hi, kept at least 10% of the
// interval away from both ends; bisection where the cubic is undefined.
double cubicStep(const Point& lo, const Point& hi) {
  const double left = std::min(lo.a, hi.a);
  const double width = std::abs(hi.a - lo.a);
  const double mid = 0.5 * (lo.a + hi.a);
  if (!std::isfinite(lo.f) || !std::isfinite(hi.f) || width == 0.0)
    return mid;
  const double d1 = lo.g + hi.g - 3.0 * (lo.f - hi.f) / (lo.a - hi.a);
  const double disc = d1 * d1 - lo.g * hi.g;
  if (disc < 0.0)
    return mid;
  const double d2 = std::copysign(std::sqrt(disc), hi.a - lo.a);
  const double denom = hi.g - lo.g + 2.0 * d2;
  if (denom == 0.0)
    return mid;
  const double x = hi.a - (hi.a - lo.a) * (hi.g + d2 - d1) / denom;
  if (!std::isfinite(x) || x < left + 0.1 * width || x > left + 0.9 * width)
    return mid;
  return x;
}

LineSearchResult accept(const Point& p, int evaluations, bool success) {
  return {p.a, p.f, p.g, evaluations, success};
}

}  // namespace

LineSearchResult backtrackingArmijo(const LineFunction& phi, double phi0, double dphi0,
                                    double initial_step, const LineSearchSettings& settings) {
  Point p{std::min(initial_step, settings.max_step), 0.0, 0.0};
  for (int n = 1; n <= settings.max_evaluations; ++n) {
    p.f = phi(p.a, &p.g);
    if (std::isfinite(p.f) && p.f <= phi0 + settings.c1 * p.a * dphi0)
      return accept(p, n, true);
    p.a *= settings.shrink;
  }
  return accept(p, settings.max_evaluations, false);
}

LineSearchResult strongWolfe(const LineFunction& phi, double phi0, double dphi0,
                             double initial_step, const LineSearchSettings& settings) {
  const double c1 = settings.c1;
  const double c2 = settings.c2;
  // Values closer than rounding cannot be ordered: within `noise` the derivative decides
  // (the idea behind Hager & Zhang's approximate Wolfe conditions).
  const double noise = 1e-13 * std::abs(phi0);
  auto sufficient = [&](const Point& p) {
    return std::isfinite(p.f) && p.f <= phi0 + c1 * p.a * dphi0 + noise;
  };
  auto curvature = [&](const Point& p) { return std::abs(p.g) <= -c2 * dphi0; };
  int n = 0;
  Point best{0.0, phi0, dphi0};
  auto evaluate = [&](double a) {
    Point p{a, 0.0, 0.0};
    p.f = phi(a, &p.g);
    ++n;
    if (std::isfinite(p.f) && p.f < best.f)
      best = p;
    return p;
  };
  // Zoom: lo satisfies sufficient decrease with the lowest value so far; the minimiser lies
  // between lo and hi.
  auto zoom = [&](Point lo, Point hi) {
    while (n < settings.max_evaluations) {
      const Point p = evaluate(cubicStep(lo, hi));
      if (!sufficient(p) || p.f > lo.f + noise || (p.f >= lo.f && p.g * (hi.a - lo.a) >= 0.0)) {
        hi = p;
      } else {
        if (curvature(p))
          return accept(p, n, true);
        if (p.g * (hi.a - lo.a) >= 0.0)
          hi = lo;
        lo = p;
      }
      if (std::abs(hi.a - lo.a) <= 1e-16 * std::max(1.0, lo.a))
        break;
    }
    // No Wolfe point: return the best one, evaluated last as promised.
    if (best.a == 0.0)
      return accept(best, n, false);
    const Point p = evaluate(best.a);
    return accept(p, n, p.f < phi0);
  };

  Point prev{0.0, phi0, dphi0};
  double a = std::min(initial_step, settings.max_step);
  while (n < settings.max_evaluations) {
    const Point p = evaluate(a);
    if (!sufficient(p) || (n > 1 && p.f >= prev.f))
      return zoom(prev, p);
    if (curvature(p))
      return accept(p, n, true);
    if (p.g >= 0.0)
      return zoom(p, prev);
    if (a >= settings.max_step)
      return accept(p, n, true);
    prev = p;
    a = std::min(2.0 * a, settings.max_step);
  }
  return accept(prev, n, prev.a > 0.0);
}

LineSearchResult brentLineSearch(const LineFunction& phi, double phi0, double /*dphi0*/,
                                 double initial_step, const LineSearchSettings& settings) {
  int n = 0;
  auto f = [&](double a) {
    ++n;
    return phi(a, nullptr);
  };
  // Bracket [lo, hi] around x: expand while the value keeps dropping.
  double lo = 0.0;
  double x = 0.0;
  double fx = phi0;
  double hi = std::min(initial_step, settings.max_step);
  double fhi = f(hi);
  while (std::isfinite(fhi) && fhi < fx && hi < settings.max_step && n < settings.max_evaluations) {
    lo = x;
    x = hi;
    fx = fhi;
    hi = std::min(hi + 1.618034 * (hi - lo), settings.max_step);
    fhi = f(hi);
  }
  if (x == 0.0)
    x = 0.5 * hi, fx = f(x);  // minimum inside (0, initial_step]

  // Brent's method: parabolic steps through (x, w, v) when they behave, golden sections else.
  constexpr double kGolden = 0.3819660112501051;
  double w = x, v = x, fw = fx, fv = fx;
  double d = 0.0, e = 0.0;
  while (n < settings.max_evaluations) {
    const double m = 0.5 * (lo + hi);
    const double tol1 = settings.brent_tolerance * std::abs(x) + 1e-300;
    const double tol2 = 2.0 * tol1;
    if (std::abs(x - m) <= tol2 - 0.5 * (hi - lo))
      break;
    bool golden = true;
    if (std::abs(e) > tol1 && std::isfinite(fx) && std::isfinite(fw) && std::isfinite(fv)) {
      const double r = (x - w) * (fx - fv);
      double q = (x - v) * (fx - fw);
      double p = (x - v) * q - (x - w) * r;
      q = 2.0 * (q - r);
      if (q > 0.0)
        p = -p;
      q = std::abs(q);
      const double e_prev = e;
      if (q != 0.0 && std::abs(p) < std::abs(0.5 * q * e_prev) && p > q * (lo - x) &&
          p < q * (hi - x)) {
        e = d;
        d = p / q;
        const double u = x + d;
        if (u - lo < tol2 || hi - u < tol2)
          d = std::copysign(tol1, m - x);
        golden = false;
      }
    }
    if (golden) {
      e = (x >= m ? lo : hi) - x;
      d = kGolden * e;
    }
    const double u = std::abs(d) >= tol1 ? x + d : x + std::copysign(tol1, d);
    const double fu = f(u);
    if (fu <= fx) {
      (u >= x ? lo : hi) = x;
      v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
    } else {
      (u < x ? lo : hi) = u;
      if (fu <= fw || w == x) {
        v = w, fv = fw, w = u, fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u, fv = fu;
      }
    }
  }
  Point p{x, 0.0, 0.0};
  p.f = phi(x, &p.g);
  return accept(p, n + 1, std::isfinite(p.f) && p.f < phi0);
}

LineSearchResult lineSearch(const LineFunction& phi, double phi0, double dphi0, double initial_step,
                            const LineSearchSettings& settings) {
  switch (settings.kind) {
    case LineSearchKind::Armijo:
      return backtrackingArmijo(phi, phi0, dphi0, initial_step, settings);
    case LineSearchKind::MoreThuente:
      return moreThuente(phi, phi0, dphi0, initial_step, settings);
    case LineSearchKind::Brent:
      return brentLineSearch(phi, phi0, dphi0, initial_step, settings);
    case LineSearchKind::StrongWolfe:
      break;
  }
  return strongWolfe(phi, phi0, dphi0, initial_step, settings);
}

double projectedBacktrack(double a, double phi0, double value, double decrease) {
  const double curvature = value - phi0 - decrease;  // c a^2 of phi0 + (decrease / a) t + c t^2
  if (!std::isfinite(value) || !(curvature > 0.0) || !(decrease < 0.0))
    return 0.5 * a;
  const double vertex = -0.5 * decrease * a / curvature;
  // A power of two: the vertex is a difference of nearly equal values, and rounding (float
  // grids, another split of the rows over processes) would move a continuous step every time;
  // a discrete one moves only when the vertex is near the boundary between two powers.
  const double halvings = std::clamp(std::round(std::log2(a / vertex)), 1.0, 7.0);
  return std::ldexp(a, -int(halvings));
}

}  // namespace apertura::rml

namespace apertura {

template <>
const std::vector<ChoiceName<rml::LineSearchKind>>& choiceTable<rml::LineSearchKind>() {
  using rml::LineSearchKind;
  static const std::vector<ChoiceName<LineSearchKind>> t = {
      {LineSearchKind::Armijo, "armijo"},
      {LineSearchKind::StrongWolfe, "wolfe"},
      {LineSearchKind::MoreThuente, "more-thuente"},
      {LineSearchKind::Brent, "brent"}};
  return t;
}

}  // namespace apertura
