#include "core/engine/interrupt.h"

#include <atomic>
#include <csignal>
#include <ctime>
#include <initializer_list>

#include "core/util/cancellation.h"

namespace apertura::engine {
namespace {

// A lock-free atomic is async-signal-safe to read and write (C++17 [support.signal]); a plain
// bool is not.
std::atomic<int> g_interrupt{0};
static_assert(std::atomic<int>::is_always_lock_free, "the interrupt flag must be lock-free");
// When the first signal arrived (CLOCK_MONOTONIC, ms): a repeat within kRepeatGraceMs is the
// same impatient Ctrl-C (or a scheduler's TERM followed by the terminal's HUP), not a request to
// abandon the cleanup that is under way.
std::atomic<long long> g_first_ms{0};
static_assert(std::atomic<long long>::is_always_lock_free, "the time stamp must be lock-free");
constexpr long long kRepeatGraceMs = 2000;

// clock_gettime is async-signal-safe (POSIX.1-2008, signal-safety(7)).
long long monotonicMs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

}  // namespace

// C language linkage for a signal handler, internal linkage (static) so that its name cannot
// clash with a program's own handler.
extern "C" {
static void aperturaOnInterrupt(int sig) {
  int expected = 0;
  if (g_interrupt.compare_exchange_strong(expected, sig)) {
    g_first_ms.store(monotonicMs());
    return;
  }
  if (monotonicMs() - g_first_ms.load() < kRepeatGraceMs)
    return;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}

void installInterruptHandlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1})
    std::signal(sig, aperturaOnInterrupt);
}

bool interruptRequested() {
  return g_interrupt.load() != 0;
}
int interruptSignal() {
  return g_interrupt.load();
}
void throwIfInterrupted() {
  if (interruptRequested())
    throw OperationCancelled();
}
void requestInterrupt() {
  g_first_ms.store(monotonicMs());
  g_interrupt.store(SIGINT);
}
void clearInterrupt() {
  g_interrupt.store(0);
}

}  // namespace apertura::engine
