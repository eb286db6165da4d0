#pragma once

#include "core/rml/line_search.h"
#include "core/rml/optimizer.h"

namespace apertura::rml {

enum class CgBeta {
  FletcherReeves,
  PolakRibiere,
  PolakRibierePlus,  // max(0, PR): restarts automatically
  HestenesStiefel,
  DaiYuan,
  HagerZhang  // CG_DESCENT's beta with its lower bound eta_k
};
std::string toString(CgBeta beta);

struct CgSettings {
  CgBeta beta = CgBeta::PolakRibierePlus;
  LineSearchSettings line_search = [] {
    LineSearchSettings s;
    s.c2 = 0.1;  // Fletcher-Reeves needs c2 < 1/2 for descent; 0.1 suits the whole family
    return s;
  }();
  int restart_every = 0;  // steepest-descent restart period; 0 = the problem dimension
  StopCriteria stop;
};

// Nonlinear conjugate gradients: d_k+1 = -g_k+1 + beta_k d_k, restarted when d is not a descent
// direction.
OptimizerResult minimizeConjugateGradient(DifferentiableFunction& f, const Vector& x0,
                                          const CgSettings& settings);

}  // namespace apertura::rml
