#include "core/engine/memory_tracker.h"

namespace apertura::engine {

MemoryTracker& MemoryTracker::instance() {
  static MemoryTracker tracker;
  return tracker;
}

void MemoryTracker::add(MemoryCategory c, std::int64_t bytes) {
  bytes_[static_cast<int>(c)].fetch_add(bytes, std::memory_order_relaxed);
}

std::uint64_t MemoryTracker::bytes(MemoryCategory c) const {
  const std::int64_t b = bytes_[static_cast<int>(c)].load(std::memory_order_relaxed);
  return b > 0 ? static_cast<std::uint64_t>(b) : 0;
}

std::uint64_t MemoryTracker::total() const {
  std::uint64_t sum = 0;
  for (int c = 0; c < static_cast<int>(MemoryCategory::Count); ++c) {
    sum += bytes(static_cast<MemoryCategory>(c));
  }
  return sum;
}

}  // namespace apertura::engine
