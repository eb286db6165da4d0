#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/latest_slot.h"
#include "core/engine/run_observer.h"

namespace apertura::gui {

// A RunObserver that only stores: called on worker threads, emptied on the GUI thread by take().
// Metrics and stage events are kept in order (they are small and each one matters to the plots);
// images are latest-wins per name, resources keep only the newest sample.
class QueuedRunObserver : public apertura::engine::RunObserver {
 public:
  struct StageEvent {
    std::string stage;
    bool finished = false;
    double seconds = 0.0;
  };
  struct Batch {
    std::vector<StageEvent> stages;
    std::vector<apertura::engine::IterationMetrics> metrics;
    std::vector<std::shared_ptr<const apertura::engine::ImageSnapshot>> images;
    std::optional<apertura::engine::ResourceSample> resources;
    std::optional<std::pair<double, std::string>> progress;
    std::vector<std::string> warnings;
  };

  void stageStarted(const std::string& stage) override;
  void stageFinished(const std::string& stage, double seconds) override;
  void progress(double fraction, const std::string& message) override;
  void iteration(const apertura::engine::IterationMetrics& metrics) override;
  void snapshot(const std::shared_ptr<const apertura::engine::ImageSnapshot>& image) override;
  void resources(const apertura::engine::ResourceSample& sample) override;
  void warning(const std::string& message) override;

  Batch take();

 private:
  std::mutex mutex_;
  Batch pending_;
  std::map<std::string, apertura::engine::LatestSlot<apertura::engine::ImageSnapshot>> images_;
};

}  // namespace apertura::gui
