#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/engine/run_context.h"

namespace apertura::engine {

enum class RunState { Idle, Running, Finished, Cancelled, Failed };

struct RunOutcome {
  RunState state = RunState::Idle;
  std::string failed_stage;  // for Failed
  std::string message;       // for Failed
  std::exception_ptr error;  // the original exception, for Failed
  std::map<std::string, double> stage_seconds;
};

// The body of a run: a sequence of ctx.stage(...) calls.
using Pipeline = std::function<void(RunContext&)>;

// Runs one pipeline at a time on its own worker thread (never the caller's), with a telemetry
// sampler beside it. cancel() returns at once; wait() joins and reports how the run ended; the
// engine is then ready for the next start().
class Engine {
 public:
  explicit Engine(std::chrono::milliseconds sample_period = std::chrono::milliseconds(250));
  ~Engine();  // cancels and joins: inputs may be freed once the engine is gone
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Throws std::logic_error when a run is still active.
  void start(project::ProjectSettings settings, Pipeline pipeline,
             std::shared_ptr<RunObserver> observer);
  void cancel();
  void pause();
  void resume();
  bool paused() const;
  bool running() const;
  // Joins the run (call from one thread at a time) and reports how it ended.
  RunOutcome wait();

 private:
  void runOnWorker(const Pipeline& pipeline);
  void sampleResources();

  std::chrono::milliseconds sample_period_;
  project::ProjectSettings settings_;
  std::shared_ptr<RunObserver> observer_;
  CancellationToken token_;
  PauseGate gate_;
  std::thread worker_;
  std::thread sampler_;
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool active_ = false;
  bool done_ = false;
  RunOutcome outcome_;
};

}  // namespace apertura::engine
