#pragma once

#include <atomic>
#include <stdexcept>

namespace apertura {

// Cooperative cancellation shared between a caller and background work (readers, engines).
// An atomic flag, never a volatile bool: setting it from one thread is visible to the others.
class CancellationToken {
 public:
  void cancel() noexcept { cancelled_.store(true, std::memory_order_release); }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_acquire); }
  void reset() noexcept { cancelled_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> cancelled_{false};
};

// Thrown by long-running work that noticed its token was cancelled.
class OperationCancelled : public std::runtime_error {
 public:
  OperationCancelled() : std::runtime_error("operation cancelled") {}
};

inline void throwIfCancelled(const CancellationToken* token) {
  if (token != nullptr && token->cancelled())
    throw OperationCancelled();
}

}  // namespace apertura
