#pragma once

// The solver runs the GPU checks compare, CUDA against CPU: 20 iterations from x0 of projected
// L-BFGS (double or float pairs), of unprojected nonlinear CG, or of projected FISTA over the
// objective's smooth part and its proximal terms.
#include <vector>

#include "core/rml/conjugate_gradient.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/proximal_solvers.h"

namespace apertura::imaging::test {

enum class Solver { Lbfgs, LbfgsFloatPairs, ConjugateGradient, Fista };

inline const char* solverName(Solver solver) {
  switch (solver) {
    case Solver::Lbfgs:
      return "L-BFGS";
    case Solver::LbfgsFloatPairs:
      return "L-BFGS (float pairs)";
    case Solver::ConjugateGradient:
      return "CG";
    case Solver::Fista:
      break;
  }
  return "FISTA";
}

inline rml::LbfgsSettings twentyLbfgsIterations(bool float_pairs) {
  rml::LbfgsSettings ls;
  ls.positivity = true;
  ls.float_history = float_pairs;
  ls.stop.max_iterations = 20;
  ls.stop.relative_tolerance = 0.0;
  return ls;
}

inline rml::OptimizerResult twentyIterations(Solver solver, rml::ObjectiveFunction& objective,
                                             const std::vector<double>& x0) {
  if (solver == Solver::Fista) {
    rml::FistaSettings fs;
    fs.positivity = true;
    fs.stop.max_iterations = 20;
    fs.stop.relative_tolerance = 0.0;
    return rml::minimizeFista(objective.smoothPart(), objective.proximalTerms(), x0, fs);
  }
  if (solver == Solver::ConjugateGradient) {
    rml::CgSettings cs;
    cs.stop.max_iterations = 20;
    cs.stop.relative_tolerance = 0.0;
    return rml::minimizeConjugateGradient(objective, x0, cs);
  }
  return rml::minimizeLbfgs(objective, x0,
                            twentyLbfgsIterations(solver == Solver::LbfgsFloatPairs));
}

}  // namespace apertura::imaging::test
