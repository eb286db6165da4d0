#pragma once

#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "core/engine/interrupt.h"
#include "core/util/cancellation.h"

namespace apertura::cli {

// Whether a call was abandoned to a signal: the process must then end with std::_Exit, without
// waiting for (or destroying what is used by) the worker that still runs it.
bool callAbandoned();
void markCallAbandoned();

// Runs `fn` on a worker thread while this thread watches the interrupt flag (signals set it):
// for computations that write nothing and have no cancellation points of their own (the dirty
// image's gridding and w-stacking passes), so a Ctrl-C or a scheduler's SIGTERM ends them at once
// instead of after the last pass. On a signal this throws OperationCancelled: the caller's
// unwinding removes its temporary files, then main ends the process (callAbandoned()). `fn` must
// own (by value or shared_ptr) everything it reads, since the caller's locals are destroyed by
// that unwinding while the worker may still run. Its exceptions are rethrown here.
template <typename F>
auto abandonableCall(F fn) -> decltype(fn()) {
  using Result = decltype(fn());
  auto task = std::make_shared<std::packaged_task<Result()>>(std::move(fn));
  std::future<Result> done = task->get_future();
  std::thread([task] { (*task)(); }).detach();
  while (done.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
    if (engine::interruptRequested()) {
      markCallAbandoned();
      throw OperationCancelled();
    }
  }
  return done.get();
}

}  // namespace apertura::cli
