#include "core/engine/engine.h"

#include <stdexcept>

#include "core/engine/device_memory_gauge.h"
#include "core/engine/memory_tracker.h"
#include "core/engine/process_resources.h"

namespace apertura::engine {

Engine::Engine(std::chrono::milliseconds sample_period) : sample_period_(sample_period) {}

Engine::~Engine() {
  cancel();
  if (worker_.joinable())
    wait();
}

void Engine::start(project::ProjectSettings settings, Pipeline pipeline,
                   std::shared_ptr<RunObserver> observer) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_ && !done_)
      throw std::logic_error("Engine::start: a run is still active");
  }
  if (worker_.joinable())
    wait();  // reap a finished run nobody waited for
  settings_ = std::move(settings);
  observer_ = observer ? std::move(observer) : std::make_shared<RunObserver>();
  token_.reset();
  gate_.resume();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    active_ = true;
    done_ = false;
    outcome_ = RunOutcome{};
    outcome_.state = RunState::Running;
  }
  sampler_ = std::thread([this] { sampleResources(); });
  worker_ = std::thread([this, p = std::move(pipeline)] { runOnWorker(p); });
}

void Engine::runOnWorker(const Pipeline& pipeline) {
  RunOutcome outcome;
  RunContext ctx(settings_, *observer_, token_, gate_);
  try {
    pipeline(ctx);
    outcome.state = RunState::Finished;
  } catch (const OperationCancelled&) {
    outcome.state = RunState::Cancelled;
  } catch (const StageError& e) {
    outcome.state = RunState::Failed;
    outcome.failed_stage = e.stage();
    outcome.message = e.what();
    outcome.error = e.cause();
  } catch (const std::exception& e) {
    outcome.state = RunState::Failed;
    outcome.message = e.what();
    outcome.error = std::current_exception();
  } catch (...) {
    outcome.state = RunState::Failed;
    outcome.message = "unknown error";
    outcome.error = std::current_exception();
  }
  outcome.stage_seconds = ctx.stageSeconds();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    outcome_ = std::move(outcome);
    done_ = true;
  }
  done_cv_.notify_all();
}

void Engine::sampleResources() {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = processCpuSeconds();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    const bool finished = done_;
    lock.unlock();
    ResourceSample s;
    s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.cpu_s = processCpuSeconds() - cpu0;
    s.rss_bytes = currentRssBytes();
    s.peak_rss_bytes = peakRssBytes();
    s.tracked_bytes = MemoryTracker::instance().total();
    s.gpu_bytes = DeviceMemoryGauge::instance().total();
    observer_->resources(s);
    lock.lock();
    if (finished)
      return;  // one last sample after the run ended
    done_cv_.wait_for(lock, sample_period_, [this] { return done_; });
  }
}

void Engine::cancel() {
  token_.cancel();
  gate_.wakeAll();
}

void Engine::pause() {
  gate_.pause();
}

void Engine::resume() {
  gate_.resume();
}

bool Engine::paused() const {
  return gate_.paused();
}

bool Engine::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active_ && !done_;
}

RunOutcome Engine::wait() {
  if (worker_.joinable())
    worker_.join();
  if (sampler_.joinable())
    sampler_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  active_ = false;
  return outcome_;
}

}  // namespace apertura::engine
