#pragma once

#include <algorithm>
#include <thread>

namespace apertura {

// The threads a `threads` setting asks for: the number itself, or all hardware threads for 0
// (or less), at least one.
inline int threadCount(int requested) {
  return requested > 0 ? requested : int(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace apertura
