#pragma once

#include <mutex>

namespace apertura {

// casacore is not thread-safe, and opening the same table twice in a process shares one
// underlying table object (its table cache), so two readers of one Measurement Set on two I/O
// threads would race inside casacore. Every casacore call in core/io holds this process-wide
// lock: readers take it per chunk, so several sources still interleave.
std::recursive_mutex& casacoreMutex();

inline std::unique_lock<std::recursive_mutex> lockCasacore() {
  return std::unique_lock<std::recursive_mutex>(casacoreMutex());
}

}  // namespace apertura
