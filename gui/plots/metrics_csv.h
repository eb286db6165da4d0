#pragma once

#include <string>
#include <vector>

#include "core/engine/run_observer.h"

namespace apertura::gui {

// The iteration metrics of a run as CSV, one row per iteration:
//   iteration, objective, <each term, lambda-weighted>, chi2_per_dof, gradient_norm, step,
//   seconds (wall time of the iteration), elapsed_s (sum of iteration times so far)
// Term columns are the union of the names seen, in first-seen order; a term missing from an
// iteration leaves its cell empty. Numbers keep 12 significant digits.
std::string metricsToCsv(const std::vector<apertura::engine::IterationMetrics>& metrics);

}  // namespace apertura::gui
