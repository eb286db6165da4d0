#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/rml/line_search.h"
#include "core/rml/optimizer.h"

namespace apertura::rml {

class LbfgsHistory;

// What a caller that runs L-BFGS many times in a row on one problem size (the steps of a lambda
// path) keeps between the runs: the history's image-sized pairs, cleared for each run instead of
// allocated, zeroed and faulted in again (on a cross-validated path that was a fifth of the
// time). Results are bitwise those of fresh runs.
struct LbfgsWorkspace {
  LbfgsWorkspace();
  ~LbfgsWorkspace();
  std::unique_ptr<LbfgsHistory> history;
};

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
  LbfgsWorkspace* workspace = nullptr;  // kept by the caller between runs; null: the run's own
};

// Limited-memory BFGS (Nocedal 1980; two-loop recursion with the Shanno-Phua initial scaling).
OptimizerResult minimizeLbfgs(DifferentiableFunction& f, Vector x0, const LbfgsSettings& settings);

}  // namespace apertura::rml
