#include "app/cli/console_observer.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include "app/cli/snapshot_writer.h"
#include "core/pipeline/lambda_path.h"

namespace apertura::cli {

using nlohmann::json;

namespace {
void printLine(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}
}  // namespace

ConsoleObserver::~ConsoleObserver() = default;

void ConsoleObserver::setSnapshotWriter(std::shared_ptr<const SnapshotWriter> writer) {
  std::lock_guard<std::mutex> lock(mutex_);
  snapshots_ = std::move(writer);
}

void ConsoleObserver::stageStarted(const std::string& stage) {
  std::lock_guard<std::mutex> lock(mutex_);
  printLine(json_ ? json{{"event", "stage_started"}, {"stage", stage}}.dump() : "== " + stage);
}

void ConsoleObserver::stageFinished(const std::string& stage, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  char buf[128];
  std::snprintf(buf, sizeof buf, "   %s done in %.2f s (peak RSS %.0f MiB)", stage.c_str(), seconds,
                last_resources_.peak_rss_bytes / 1048576.0);
  printLine(json_ ? json{{"event", "stage_finished"}, {"stage", stage}, {"seconds", seconds}}.dump()
                  : buf);
}

void ConsoleObserver::progress(double fraction, const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  // At most five progress lines a second: a text bar, not a flood.
  const auto now = std::chrono::steady_clock::now();
  if (fraction < 1.0 && now - last_progress_ < std::chrono::milliseconds(200))
    return;
  last_progress_ = now;
  if (json_) {
    printLine(json{{"event", "progress"}, {"fraction", fraction}, {"message", message}}.dump());
    return;
  }
  const int width = 30;
  const int filled = static_cast<int>(std::lround(fraction * width));
  printLine("   [" + std::string(std::size_t(std::max(0, filled)), '#') +
            std::string(std::size_t(std::max(0, width - filled)), '.') + "] " +
            std::to_string(std::lround(fraction * 100.0)) + "% " + message);
}

void ConsoleObserver::iteration(const apertura::engine::IterationMetrics& m) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (json_) {
    json terms = json::object();
    for (const auto& [name, value] : m.terms)
      terms[name] = value;
    printLine(json{{"event", "iteration"},
                   {"iteration", m.iteration},
                   {"objective", m.objective},
                   {"terms", terms},
                   {"chi2_per_dof", m.chi2_per_dof},
                   {"gradient_norm", m.gradient_norm},
                   {"step", m.step},
                   {"seconds", m.seconds}}
                  .dump());
    return;
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "   iter %4d  objective %.6e  chi2/dof %.4f  |grad| %.3e  step %.3e  %.3f s",
                m.iteration, m.objective, m.chi2_per_dof, m.gradient_norm, m.step, m.seconds);
  printLine(buf);
}

void ConsoleObserver::resources(const apertura::engine::ResourceSample& s) {
  std::lock_guard<std::mutex> lock(mutex_);
  last_resources_ = s;
  if (json_) {
    printLine(json{{"event", "resources"},
                   {"wall_s", s.wall_s},
                   {"cpu_s", s.cpu_s},
                   {"rss_bytes", s.rss_bytes},
                   {"peak_rss_bytes", s.peak_rss_bytes},
                   {"tracked_bytes", s.tracked_bytes},
                   {"gpu_bytes", s.gpu_bytes}}
                  .dump());
  }
}

void ConsoleObserver::snapshot(
    const std::shared_ptr<const apertura::engine::ImageSnapshot>& image) {
  std::shared_ptr<const SnapshotWriter> writer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    writer = snapshots_;
  }
  if (!writer || !image)
    return;
  if (image->planes > 1) {
    // Cube runs' snapshots hold every plane; the 2-D snapshot files do not carry them (yet).
    bool first = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      first = !warned_cube_snapshots_;
      warned_cube_snapshots_ = true;
    }
    if (first)
      warning("--snapshot-dir: snapshots of cube runs are not written; the outputs are");
    return;
  }
  // Written on the engine's thread, outside the print lock: the line below announces a complete
  // file (the write renames a finished temporary), so a reader never sees a partial one. A FITS
  // image of a snapshot takes milliseconds next to an iteration's gridding passes.
  std::string path;
  try {
    path = writer->write(*image);
  } catch (const std::exception& e) {
    warning(std::string("snapshot not written: ") + e.what());
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (json_) {
    printLine(json{{"event", "snapshot"},
                   {"iteration", image->iteration},
                   {"name", image->name},
                   {image->name, path},
                   {"path", path},
                   {"unit", image->unit},
                   {"nx", image->nx},
                   {"ny", image->ny}}
                  .dump());
  } else {
    printLine("   snapshot " + image->name + " (iteration " + std::to_string(image->iteration) +
              "): " + path);
  }
}

void ConsoleObserver::warning(const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (json_) {
    printLine(json{{"event", "warning"}, {"message", message}}.dump());
  } else {
    std::fprintf(stderr, "apertura-cli: warning: %s\n", message.c_str());
  }
}

void ConsoleObserver::event(const std::string& name, const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  printLine(json_ ? json{{"event", name}, {"message", message}}.dump() : message);
}

void ConsoleObserver::lambdaPath(const apertura::pipeline::ImagingProducts& p) {
  if (p.lambda_path.empty())
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  const bool cv = pipeline::isCrossValidatedPath(p.lambda_path);
  const std::string method = cv ? "cv" : "discrepancy";
  if (json_) {
    json steps = json::array();
    for (const auto& step : p.lambda_path) {
      json j{{"lambda", step.lambda}, {"training", step.chi2_reduced}};
      if (cv) {
        j["held_out"] = step.validation;
        j["folds"] = step.fold_validation;
      }
      steps.push_back(j);
    }
    printLine(json{
        {"event", "lambda_path"}, {"method", method}, {"chosen", p.auto_lambda}, {"steps", steps}}
                  .dump());
    return;
  }
  printLine(
      std::string("automatic lambda (") +
      (cv ? std::to_string(p.lambda_path.front().fold_validation.size()) + "-fold cross-validation"
          : "discrepancy") +
      "): reduced chi2 along the path, strongest first");
  printLine(cv ? "      lambda   training   held-out   held-out per fold"
               : "      lambda   reduced chi2");
  for (const auto& step : p.lambda_path) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "  %10.4g %10.4g", step.lambda, step.chi2_reduced);
    std::string line = buf;
    if (cv) {
      std::snprintf(buf, sizeof buf, " %10.4g  ", step.validation);
      line += buf;
      for (double f : step.fold_validation) {
        std::snprintf(buf, sizeof buf, " %.4g", f);
        line += buf;
      }
    }
    printLine(line);
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "  chosen lambda %.4g", p.auto_lambda);
  printLine(std::string(buf) + (cv ? " (the least mean held-out error, interpolated)" : ""));
}

}  // namespace apertura::cli
