#include "core/engine/run_context.h"

#include <new>
#include <system_error>

namespace apertura::engine {

void PauseGate::pause() {
  std::lock_guard<std::mutex> lock(mutex_);
  paused_ = true;
}

void PauseGate::resume() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = false;
  }
  cv_.notify_all();
}

bool PauseGate::paused() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return paused_;
}

void PauseGate::wakeAll() {
  cv_.notify_all();
}

void PauseGate::wait(const CancellationToken& token) {
  std::unique_lock<std::mutex> lock(mutex_);
  // The timeout bounds the wait even if a cancel's notify slipped in before we slept.
  while (paused_ && !token.cancelled())
    cv_.wait_for(lock, std::chrono::milliseconds(100));
}

RunContext::RunContext(const project::ProjectSettings& settings, RunObserver& observer,
                       const CancellationToken& token, PauseGate& gate)
    : settings_(settings), observer_(observer), token_(token), gate_(gate) {}

void RunContext::stage(const std::string& name, const std::function<void()>& fn) {
  checkpoint();
  observer_.stageStarted(name);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    fn();
  } catch (const OperationCancelled&) {
    throw;
  } catch (const StageError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw StageError(name,
                     "out of memory: the system (or a ulimit) refused an allocation; try a "
                     "smaller image, data.mode streaming or a lower memory budget",
                     std::current_exception());
  } catch (const std::system_error& e) {
    // std::thread throws this when no thread can be started (EAGAIN under a process limit).
    throw StageError(name,
                     std::string("a system resource was refused (") + e.what() +
                         "); too many threads or too little memory for this run",
                     std::current_exception());
  } catch (const std::exception& e) {
    throw StageError(name, e.what(), std::current_exception());
  } catch (...) {
    throw StageError(name, "unknown error", std::current_exception());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stage_seconds_[name] += seconds;
  observer_.stageFinished(name, seconds);
}

void RunContext::checkpoint() {
  throwIfCancelled(&token_);
  gate_.wait(token_);
  throwIfCancelled(&token_);
}

SnapshotThrottle::SnapshotThrottle(int every, std::chrono::milliseconds min_interval)
    : every_(every < 1 ? 1 : every), min_interval_(min_interval) {}

bool SnapshotThrottle::due(int iteration) {
  if (iteration % every_ != 0)
    return false;
  const auto now = std::chrono::steady_clock::now();
  if (!first_ && now - last_ < min_interval_)
    return false;
  first_ = false;
  last_ = now;
  return true;
}

}  // namespace apertura::engine
