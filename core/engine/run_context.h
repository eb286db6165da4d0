#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "core/engine/run_observer.h"
#include "core/project/project_settings.h"
#include "core/util/cancellation.h"

namespace apertura::engine {

// An exception raised inside a named stage, carried back from the worker thread with the stage's
// name; cause() rethrows the original.
class StageError : public std::runtime_error {
 public:
  StageError(std::string stage, const std::string& message, std::exception_ptr cause)
      : std::runtime_error(stage + ": " + message),
        stage_(std::move(stage)),
        cause_(std::move(cause)) {}
  const std::string& stage() const { return stage_; }
  std::exception_ptr cause() const { return cause_; }

 private:
  std::string stage_;
  std::exception_ptr cause_;
};

// Pause/resume between iterations. wait() blocks while paused and wakes up on cancel.
class PauseGate {
 public:
  void pause();
  void resume();
  bool paused() const;
  void wait(const CancellationToken& token);
  void wakeAll();

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool paused_ = false;
};

// What a pipeline sees of its run: the settings, the observer, cancellation and pausing, and the
// stage wrapper that times stages and attributes errors to them.
class RunContext {
 public:
  RunContext(const project::ProjectSettings& settings, RunObserver& observer,
             const CancellationToken& token, PauseGate& gate);

  const project::ProjectSettings& settings() const { return settings_; }
  RunObserver& observer() { return observer_; }
  const CancellationToken& cancellation() const { return token_; }

  // Runs `fn` as the named stage. Cancellation passes through untouched; any other exception
  // becomes a StageError naming the stage.
  void stage(const std::string& name, const std::function<void()>& fn);

  // Call between units of work (iterations, chunks): throws OperationCancelled when cancelled and
  // blocks while the run is paused.
  void checkpoint();

  const std::map<std::string, double>& stageSeconds() const { return stage_seconds_; }

 private:
  const project::ProjectSettings& settings_;
  RunObserver& observer_;
  const CancellationToken& token_;
  PauseGate& gate_;
  std::map<std::string, double> stage_seconds_;
};

// Decides when an iteration's images are worth publishing: every `every` iterations, but not more
// often than `min_interval` (so fast small runs do not flood the front end).
class SnapshotThrottle {
 public:
  SnapshotThrottle(int every, std::chrono::milliseconds min_interval);
  bool due(int iteration);

 private:
  int every_;
  std::chrono::milliseconds min_interval_;
  std::chrono::steady_clock::time_point last_{};
  bool first_ = true;
};

}  // namespace apertura::engine
