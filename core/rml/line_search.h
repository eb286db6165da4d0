#pragma once

#include <functional>

#include "core/rml/line_search_kind.h"

namespace apertura::rml {

// phi(alpha) = f(x + alpha d): returns the value and, when `derivative` is not null, phi'(alpha).
// A non-finite value means alpha left the function's domain; every search then shortens the step.
using LineFunction = std::function<double(double alpha, double* derivative)>;

struct LineSearchSettings {
  LineSearchKind kind = LineSearchKind::StrongWolfe;
  double c1 = 1e-4;     // sufficient decrease
  double c2 = 0.9;      // curvature (strong Wolfe); CG wants 0.1
  double shrink = 0.5;  // Armijo backtracking factor
  double max_step = 1e20;
  int max_evaluations = 50;
  double brent_tolerance = 1e-8;  // relative on alpha (sqrt(eps): f is flat to 2nd order)
};

struct LineSearchResult {
  double alpha = 0.0;
  double value = 0.0;
  double derivative = 0.0;
  int evaluations = 0;
  bool success = false;
};

// Each search starts at alpha = initial_step, needs phi(0) = phi0 and phi'(0) = dphi0 < 0, and
// returns the accepted step with the value and derivative there. The LAST call of phi made by
// every search is at the returned alpha (the optimizers rely on it for the gradient there).
LineSearchResult backtrackingArmijo(const LineFunction& phi, double phi0, double dphi0,
                                    double initial_step, const LineSearchSettings& settings);
LineSearchResult strongWolfe(const LineFunction& phi, double phi0, double dphi0,
                             double initial_step, const LineSearchSettings& settings);
LineSearchResult moreThuente(const LineFunction& phi, double phi0, double dphi0,
                             double initial_step, const LineSearchSettings& settings);
LineSearchResult brentLineSearch(const LineFunction& phi, double phi0, double dphi0,
                                 double initial_step, const LineSearchSettings& settings);
LineSearchResult lineSearch(const LineFunction& phi, double phi0, double dphi0, double initial_step,
                            const LineSearchSettings& settings);

// The next trial of a backtracking search on the projected path x(a) = P(x + a d) after step `a`
// gave `value` where phi(0) = phi0 and `decrease` = g . (x(a) - x) < 0: the vertex of the parabola
// through phi0 with slope decrease / a and through value, rounded to a / 2^k with k in 1 ... 7
// (halving alone needs eight trials where the first step, 1 / |g|, overshoots 200 times, as it
// does on a fresh L-BFGS history); a / 2 where the parabola has no vertex.
double projectedBacktrack(double a, double phi0, double value, double decrease);

}  // namespace apertura::rml
