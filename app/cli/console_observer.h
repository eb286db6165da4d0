#pragma once

#include <chrono>
#include <memory>
#include <mutex>

#include "core/engine/run_observer.h"
#include "core/pipeline/imaging_products.h"

namespace apertura::cli {

class SnapshotWriter;

// Prints a run's progress to stdout: readable lines, or JSON lines (`--json`) for scripts and for
// front ends that follow a remote run. Thread-safe: the engine calls it from worker threads.
class ConsoleObserver : public apertura::engine::RunObserver {
 public:
  explicit ConsoleObserver(bool json) : json_(json) {}
  ~ConsoleObserver() override;

  // With a writer (--snapshot-dir), every image the run publishes is written as FITS and then
  // announced: {"event":"snapshot","iteration":N,"name":"model","model":PATH,"path":PATH,...}.
  void setSnapshotWriter(std::shared_ptr<const SnapshotWriter> writer);

  void stageStarted(const std::string& stage) override;
  void stageFinished(const std::string& stage, double seconds) override;
  void progress(double fraction, const std::string& message) override;
  void iteration(const apertura::engine::IterationMetrics& m) override;
  void resources(const apertura::engine::ResourceSample& s) override;
  void snapshot(const std::shared_ptr<const apertura::engine::ImageSnapshot>& image) override;
  void warning(const std::string& message) override;
  void event(const std::string& name, const std::string& message);
  // The automatic lambda's path after a run: a table, or one JSON line
  // {"event":"lambda_path","method":"cv"|"discrepancy","chosen":...,"steps":[{"lambda","training",
  // "held_out","folds"}]} (held_out and folds only for cross-validation). Nothing without a path.
  void lambdaPath(const apertura::pipeline::ImagingProducts& p);

 private:
  std::mutex mutex_;
  std::shared_ptr<const SnapshotWriter> snapshots_;
  bool warned_cube_snapshots_ = false;
  bool json_;
  std::chrono::steady_clock::time_point last_progress_{};
  apertura::engine::ResourceSample last_resources_{};
};

}  // namespace apertura::cli
