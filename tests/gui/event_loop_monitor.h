#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

namespace apertura::testing {

// Measures how long the GUI event loop waits: a 5 ms precise timer records the longest gap
// between two ticks (wall clock) and the most CPU time the GUI thread used between two ticks
// (the window's own work, whatever else the machine runs).
class EventLoopMonitor : public QObject {
 public:
  // `on_tick`, when given, runs at every tick (e.g. to sample what a widget shows).
  explicit EventLoopMonitor(std::function<void()> on_tick = {});
  void start();
  void stop();
  // Restarts the interval being measured: a pause the test itself caused (a grab) is not counted.
  void forgetPause();
  qint64 worstGapMs() const { return worst_gap_ms_; }
  double worstGuiCpuMs() const { return worst_cpu_ms_; }

 private:
  QTimer ticker_;
  QElapsedTimer clock_;
  std::function<void()> on_tick_;
  qint64 last_ = 0;
  double last_cpu_ = 0.0;
  qint64 worst_gap_ms_ = 0;
  double worst_cpu_ms_ = 0.0;
};

// CPU time of the calling thread, in ms.
double threadCpuMs();
// The one-minute load average (runnable threads of every process); 0 where unknown.
double loadAverage();

}  // namespace apertura::testing
