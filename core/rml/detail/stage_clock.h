#pragma once

#include <chrono>

namespace apertura::rml::detail {

// The clock the data terms time their stages with (ObjectiveTerm::takeStageTimes).
using StageClock = std::chrono::steady_clock;

inline double secondsSince(StageClock::time_point start) {
  return std::chrono::duration<double>(StageClock::now() - start).count();
}

}  // namespace apertura::rml::detail
