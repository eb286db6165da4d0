#include "gui/controller/queued_run_observer.h"

namespace apertura::gui {

using namespace apertura::engine;

void QueuedRunObserver::stageStarted(const std::string& stage) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.stages.push_back({stage, false, 0.0});
}

void QueuedRunObserver::stageFinished(const std::string& stage, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.stages.push_back({stage, true, seconds});
}

void QueuedRunObserver::progress(double fraction, const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.progress = std::make_pair(fraction, message);
}

void QueuedRunObserver::iteration(const IterationMetrics& metrics) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.metrics.push_back(metrics);
}

void QueuedRunObserver::snapshot(const std::shared_ptr<const ImageSnapshot>& image) {
  if (!image)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  images_[image->name].put(image);
}

void QueuedRunObserver::resources(const ResourceSample& sample) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.resources = sample;
}

void QueuedRunObserver::warning(const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.warnings.push_back(message);
}

QueuedRunObserver::Batch QueuedRunObserver::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  Batch out = std::move(pending_);
  pending_ = Batch{};
  for (auto& [name, slot] : images_) {
    if (auto image = slot.take())
      out.images.push_back(std::move(image));
  }
  return out;
}

}  // namespace apertura::gui
