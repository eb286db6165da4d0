#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <deque>
#include <optional>
#include <vector>

#include "core/engine/run_observer.h"

class QLabel;
class QProgressBar;

namespace apertura::gui {

// The run part of the status bar: a progress bar with ETA, the iteration, the elapsed time and
// the process memory (the window shows the stage name beside it). The bar is determinate while the
// optimizer iterates (iterations done / maximum) or while a stage reports a fraction, and
// indeterminate for stages that report none (reading without a row count, restoring, exporting).
class RunStatusWidget : public QWidget {
  Q_OBJECT

 public:
  explicit RunStatusWidget(QWidget* parent = nullptr);

  // Seconds left for `remaining` iterations from the median of recent iteration times (robust to
  // the slow first iteration and to a line search that occasionally needs extra evaluations);
  // nullopt without any timing yet.
  static std::optional<double> estimateRemaining(const std::vector<double>& recent_seconds,
                                                 int remaining);
  // "m:ss", or "h:mm:ss" from an hour on.
  static QString formatDuration(double seconds);

  // Percent shown by the bar (0-100); -1 while it is indeterminate (it then shows the stage).
  int percent() const;
  std::optional<double> etaSeconds() const;
  int iterationsDone() const { return done_; }
  int maxIterations() const { return max_iterations_; }
  QString text() const;  // every label and the bar text, for tests and screen readers
  // The imaging backend of the run ("CPU", "GPU 0: NVIDIA H200"), from the stages' "operator:"
  // progress messages; the full line (device, reason, kernel) is the label's tool tip.
  QString backendText() const;

 public slots:
  void start(int max_iterations);
  void stageStarted(const QString& stage);
  void progress(double fraction, const QString& message);
  void addIterations(const QVector<apertura::engine::IterationMetrics>& metrics);
  void addResources(const apertura::engine::ResourceSample& sample);
  // state as RunController::finished: "finished" fills the bar; otherwise it stops where it was.
  void finish(const QString& state);
  // Paused between iterations: the bar says so and keeps its fraction, the ETA and the elapsed
  // clock stand still (the pause is not run time); resuming shows them again.
  void setPaused(bool paused);

 private:
  void setDeterminate(double fraction);
  void setIndeterminate();
  void showIteration();  // "Iteration N/M", or "Iteration N" when M is unknown (0)
  void refreshClock();

  static constexpr std::size_t kRecentIterations = 15;

  QProgressBar* bar_;
  QLabel* iteration_;
  QLabel* elapsed_;
  QLabel* memory_;
  QLabel* backend_;
  QTimer clock_;
  QElapsedTimer since_start_;
  std::deque<double> recent_seconds_;
  QString stage_name_;
  int max_iterations_ = 0;
  int done_ = 0;
  bool running_ = false;
  bool paused_ = false;
  qint64 paused_ms_ = 0;  // time spent paused, left out of the elapsed clock
  QElapsedTimer pause_started_;
  bool indeterminate_ = true;
};

}  // namespace apertura::gui
