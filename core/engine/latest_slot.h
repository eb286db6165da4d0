#pragma once

#include <memory>
#include <mutex>

namespace apertura::engine {

// A one-element mailbox: put() replaces whatever was waiting, take() empties it. Producers never
// block on slow consumers and at most one item is ever pending (latest wins).
template <typename T>
class LatestSlot {
 public:
  // Returns true when an older, never-taken item was dropped.
  bool put(std::shared_ptr<const T> item) {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool dropped = static_cast<bool>(item_);
    item_ = std::move(item);
    return dropped;
  }
  std::shared_ptr<const T> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(item_);
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<const T> item_;
};

}  // namespace apertura::engine
