#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace apertura::engine {

// Bytes held by the engine's own large buffers, by category, for telemetry. Buffers register
// through TrackedBytes (RAII) so the count cannot drift when exceptions unwind.
enum class MemoryCategory { Visibilities, Grids, Images, Optimizer, Count };

class MemoryTracker {
 public:
  static MemoryTracker& instance();
  void add(MemoryCategory c, std::int64_t bytes);
  std::uint64_t bytes(MemoryCategory c) const;
  std::uint64_t total() const;

 private:
  std::atomic<std::int64_t> bytes_[static_cast<int>(MemoryCategory::Count)] = {};
};

class TrackedBytes {
 public:
  TrackedBytes() = default;
  TrackedBytes(MemoryCategory c, std::size_t bytes) { reset(c, bytes); }
  ~TrackedBytes() { release(); }
  TrackedBytes(const TrackedBytes&) = delete;
  TrackedBytes& operator=(const TrackedBytes&) = delete;

  void reset(MemoryCategory c, std::size_t bytes) {
    release();
    category_ = c;
    bytes_ = static_cast<std::int64_t>(bytes);
    MemoryTracker::instance().add(category_, bytes_);
  }
  void release() {
    if (bytes_ != 0)
      MemoryTracker::instance().add(category_, -bytes_);
    bytes_ = 0;
  }

 private:
  MemoryCategory category_ = MemoryCategory::Images;
  std::int64_t bytes_ = 0;
};

}  // namespace apertura::engine
