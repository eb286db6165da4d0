#include "core/engine/interrupt.h"

#include <atomic>
#include <csignal>
#include <initializer_list>

#include "core/util/cancellation.h"

namespace apertura::engine {
namespace {

// A lock-free atomic is async-signal-safe to read and write (C++17 [support.signal]); a plain
// bool is not.
std::atomic<int> g_interrupt{0};
static_assert(std::atomic<int>::is_always_lock_free, "the interrupt flag must be lock-free");

}  // namespace

// C language linkage for a signal handler, internal linkage (static) so that its name cannot
// clash with a program's own handler.
extern "C" {
static void aperturaOnInterrupt(int sig) {
  if (g_interrupt.exchange(sig) != 0) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}
}

void installInterruptHandlers() {
  for (int sig : {SIGINT, SIGTERM, SIGUSR1})
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
  g_interrupt.store(SIGINT);
}
void clearInterrupt() {
  g_interrupt.store(0);
}

}  // namespace apertura::engine
