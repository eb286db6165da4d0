#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/engine/communicator.h"

namespace apertura::engine {

// Collective: every rank's `local` values on every rank (rank r's at [r]), each rank broadcasting
// its own in turn (their count first). For the small lists ranks must agree on (warnings, the
// spectral windows they hold); T is trivially copyable.
template <typename T>
std::vector<std::vector<T>> gatherOnEveryRank(const std::vector<T>& local, Communicator& comm) {
  static_assert(std::is_trivially_copyable_v<T>, "gatherOnEveryRank copies bytes");
  std::vector<std::vector<T>> all(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    std::vector<T>& values = all[static_cast<std::size_t>(r)];
    if (r == comm.rank())
      values = local;
    std::uint64_t n = values.size();
    comm.broadcast(&n, sizeof n, r);
    values.resize(static_cast<std::size_t>(n));
    if (n > 0)
      comm.broadcast(values.data(), values.size() * sizeof(T), r);
  }
  return all;
}

}  // namespace apertura::engine
