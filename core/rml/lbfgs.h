#pragma once

#include <cstdint>
#include <string>

#include "core/rml/line_search.h"
#include "core/rml/optimizer.h"

namespace apertura::rml {

struct LbfgsSettings {
  int history = 10;  // m correction pairs kept in a ring buffer
  // Pairs kept in RAM; older ones spill to a file in scratch_dir (see LbfgsHistoryOptions).
  // 0: from memory_threshold_bytes, or all in RAM when that is 0 too.
  int in_memory_limit = 0;
  std::uint64_t memory_threshold_bytes = 0;
  std::string scratch_dir;         // empty: $TMPDIR, else /tmp
  bool float_history = false;      // pairs and direction in float: half the RAM and spill
  LineSearchSettings line_search;  // used without positivity (strong Wolfe by default)
  // Projected L-BFGS: pixels at 0 whose gradient pushes them negative are held (removed from the
  // two-loop recursion) and steps are projected onto x >= 0 with Armijo backtracking on the
  // projected path.
  bool positivity = false;
  StopCriteria stop;
};

// Limited-memory BFGS (Nocedal 1980; two-loop recursion with the Shanno-Phua initial scaling).
OptimizerResult minimizeLbfgs(DifferentiableFunction& f, Vector x0, const LbfgsSettings& settings);

}  // namespace apertura::rml
