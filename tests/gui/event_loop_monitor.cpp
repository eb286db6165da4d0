#include "tests/gui/event_loop_monitor.h"

#include <QFile>
#include <QString>

#include <algorithm>
#include <ctime>

namespace apertura::testing {

EventLoopMonitor::EventLoopMonitor(std::function<void()> on_tick) : on_tick_(std::move(on_tick)) {
  ticker_.setTimerType(Qt::PreciseTimer);
  ticker_.setInterval(5);
  connect(&ticker_, &QTimer::timeout, this, [this] {
    const qint64 now = clock_.elapsed();
    const double cpu = threadCpuMs();
    worst_gap_ms_ = std::max(worst_gap_ms_, now - last_);
    worst_cpu_ms_ = std::max(worst_cpu_ms_, cpu - last_cpu_);
    last_ = now;
    last_cpu_ = cpu;
    if (on_tick_)
      on_tick_();
  });
}

void EventLoopMonitor::start() {
  clock_.start();
  last_ = 0;
  last_cpu_ = threadCpuMs();
  ticker_.start();
}

void EventLoopMonitor::stop() {
  ticker_.stop();
}

void EventLoopMonitor::forgetPause() {
  last_ = clock_.elapsed();
  last_cpu_ = threadCpuMs();
}

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double loadAverage() {
  QFile f("/proc/loadavg");
  if (!f.open(QIODevice::ReadOnly))
    return 0.0;
  return QString::fromLatin1(f.readAll()).section(' ', 0, 0).toDouble();
}

}  // namespace apertura::testing
