// During and after a run of the demo data set in the real window: the status bar's progress,
// iteration count, elapsed time, RSS and ETA (the median iteration time times what remains), and
// the event loop's responsiveness while the engine computes.
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <memory>

#include "gui/plots/convergence_panel.h"
#include "gui/window/main_window.h"
#include "gui/window/run_status_widget.h"
#include "tests/gui/event_loop_monitor.h"
#include "tests/gui/gui_test_support.h"

using apertura::gui::MainWindow;
using apertura::gui::RunStatusWidget;
using apertura::testing::artifact;

namespace {

constexpr int kIterations = 20;
constexpr qint64 kMaxStallMs = 50;  // the requirement for the event loop during a run

// True when OpenGL is rendered in software (Mesa llvmpipe/softpipe, as under Xvfb).
bool softwareOpenGl() {
  QOpenGLContext context;
  QOffscreenSurface surface;
  surface.create();
  if (!context.create() || !context.makeCurrent(&surface))
    return true;
  const auto* renderer =
      reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
  const QString name = QString::fromLatin1(renderer ? renderer : "").toLower();
  context.doneCurrent();
  return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swrast") ||
         name.contains("software");
}

}  // namespace

class TestRunStatus : public QObject {
  Q_OBJECT

 private slots:
  // One demo run for the whole test; what the status bar showed and how long the event loop
  // waited are recorded by a 5 ms timer during it and checked by the slots below.
  void initTestCase() {
    window_ = apertura::testing::demoWindowForLbfgsRun(kIterations, dir_);
    if (!window_)
      return;

    RunStatusWidget* status = window_->runStatus();
    load_before_ = apertura::testing::loadAverage();
    software_gl_ = softwareOpenGl();
    apertura::testing::EventLoopMonitor* monitor = nullptr;
    apertura::testing::EventLoopMonitor loop([&] {
      // What the status bar showed during the run.
      const int percent = status->percent();
      if (percent < 0)
        saw_indeterminate_ = true;
      else if (percent > 0 && percent < 100)
        ++determinate_ticks_;
      if (status->etaSeconds())
        saw_eta_ = true;
      if (status->text().contains("ETA"))
        saw_eta_text_ = true;
      if (mid_run_shot_.isNull() && status->iterationsDone() >= kIterations / 2 &&
          status->percent() < 100) {
        mid_run_shot_ = window_->grab().toImage();
        monitor->forgetPause();  // the grab is the test's own pause, not the application's
      }
    });
    monitor = &loop;
    apertura::testing::runToFinish(*window_, [&] { loop.start(); });
    loop.stop();
    worst_gap_ms_ = loop.worstGapMs();
    worst_gui_cpu_ms_ = loop.worstGuiCpuMs();
    if (QTest::currentTestFailed())
      return;
    qInfo(
        "demo run: worst event-loop gap %lld ms, most GUI-thread CPU between two ticks %.1f ms, "
        "load average before the run %.2f on %d cores, %s OpenGL",
        worst_gap_ms_, worst_gui_cpu_ms_, load_before_, QThread::idealThreadCount(),
        software_gl_ ? "software" : "hardware");
    if (!mid_run_shot_.isNull() && !artifact("run-status-mid-run.png").isEmpty())
      mid_run_shot_.save(artifact("run-status-mid-run.png"));
  }

  // The requirement: a 5 ms timer never waits 50 ms or more during a run.
  // Always enforced: the window's own work between two ticks (GUI-thread CPU time) stays under
  // 50 ms, and no gap reaches a second, which only a real freeze would do.
  // The 50 ms wall-clock bound itself is enforced too, software OpenGL (Mesa llvmpipe under
  // Xvfb) included: the 3D views render offscreen into raster widgets (VtkHostWidget), so the
  // window is no longer composed through OpenGL on every repaint (that cost 50-100 ms per repaint
  // before). It also counts time the GUI thread waits for other processes holding the CPU, so on
  // a machine already oversubscribed before the run a gap over 50 ms is reported (with the
  // numbers) as skipped: no change to the application could prevent it there.
  void eventLoopNeverStallsDuringTheRun() {
    QVERIFY2(worst_gui_cpu_ms_ < kMaxStallMs,
             qPrintable(QString("the GUI thread worked %1 ms without returning to the event loop")
                            .arg(worst_gui_cpu_ms_)));
    QVERIFY2(worst_gap_ms_ < 1000,
             qPrintable(QString("the event loop froze for %1 ms").arg(worst_gap_ms_)));
    const int cores = QThread::idealThreadCount();
    if (worst_gap_ms_ >= kMaxStallMs && load_before_ >= cores) {
      QSKIP(qPrintable(QString("wall-clock gap %1 ms not checked against %2 ms: other processes "
                               "held the CPU, load average %3 on %4 cores before the run")
                           .arg(worst_gap_ms_)
                           .arg(kMaxStallMs)
                           .arg(load_before_, 0, 'f', 2)
                           .arg(cores)));
    }
    QVERIFY2(worst_gap_ms_ < kMaxStallMs,
             qPrintable(QString("the event loop stalled for %1 ms").arg(worst_gap_ms_)));
  }

  void statusBarShowsProgressAndEta() {
    RunStatusWidget* status = window_->runStatus();
    QVERIFY(status->isVisible());
    QCOMPARE(status->percent(), 100);
    const int done = window_->convergence()->metrics().last().iteration;
    QCOMPARE(status->iterationsDone(), done);
    QCOMPARE(status->maxIterations(), kIterations);
    QVERIFY2(status->text().contains(QString("Iteration %1/%2").arg(done).arg(kIterations)),
             qPrintable(status->text()));
    QVERIFY2(status->text().contains("Elapsed 0:"), qPrintable(status->text()));
    QVERIFY2(status->text().contains(QRegularExpression("RSS [1-9][0-9]* MiB")),
             qPrintable(status->text()));
    QVERIFY2(saw_indeterminate_, "stages without a fraction should show a busy bar");
    QVERIFY2(determinate_ticks_ > 0, "the bar never showed a fraction during the optimizer");
    QVERIFY(saw_eta_);
    QVERIFY(saw_eta_text_);
  }

  void etaIsTheMedianIterationTimeTimesWhatRemains() {
    using R = RunStatusWidget;
    QVERIFY(!R::estimateRemaining({}, 10));
    // The slow first iteration (5 s) does not drag the estimate: median of {5, 1, 1.2, 0.8} = 1.1.
    QCOMPARE(*R::estimateRemaining({5.0, 1.0, 1.2, 0.8}, 10), 11.0);
    QCOMPARE(*R::estimateRemaining({2.0, 9.0, 3.0}, 4), 12.0);
    QCOMPARE(*R::estimateRemaining({2.0}, 0), 0.0);
    QCOMPARE(R::formatDuration(0.4), QString("0:00"));
    QCOMPARE(R::formatDuration(75.0), QString("1:15"));
    QCOMPARE(R::formatDuration(3725.0), QString("1:02:05"));
  }

  // Paused: the bar says so at its fraction, without an ETA, even when the iteration under way
  // lands; resuming brings the ETA back, and the pause is not counted as run time.
  void pausedStateFreezesTheEta() {
    RunStatusWidget status;
    status.start(10);
    status.stageStarted("optimize");
    QVector<apertura::engine::IterationMetrics> m(2);
    m[0].iteration = 1;
    m[0].seconds = 1.0;
    m[1].iteration = 2;
    m[1].seconds = 1.0;
    status.addIterations(m);
    QVERIFY2(status.text().contains("20% · ETA 0:08"), qPrintable(status.text()));
    status.setPaused(true);
    QVERIFY2(status.text().contains("Paused · 20%"), qPrintable(status.text()));
    QVERIFY(!status.text().contains("ETA"));
    apertura::engine::IterationMetrics third;
    third.iteration = 3;
    third.seconds = 30.0;  // the pause fell inside it
    status.addIterations({third});
    QCOMPARE(status.percent(), 30);
    QVERIFY2(status.text().contains("Paused · 30%"), qPrintable(status.text()));
    if (const QString shot = artifact("run-status-paused.png"); !shot.isEmpty()) {
      status.resize(700, 30);
      QVERIFY(status.grab().save(shot));
    }
    status.setPaused(false);
    // The median of {1, 1, 30} s times the 7 iterations left.
    QVERIFY2(status.text().contains("30% · ETA 0:07"), qPrintable(status.text()));
    status.setPaused(true);
    status.finish("cancelled");
    QVERIFY2(status.text().contains("Cancelled"), qPrintable(status.text()));
    status.setPaused(false);  // after the end: nothing changes
    QVERIFY(status.text().contains("Cancelled"));
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  qint64 worst_gap_ms_ = 0;
  double worst_gui_cpu_ms_ = 0.0;
  double load_before_ = 0.0;
  bool software_gl_ = false;
  bool saw_indeterminate_ = false;
  int determinate_ticks_ = 0;
  bool saw_eta_ = false;
  bool saw_eta_text_ = false;
  QImage mid_run_shot_;
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestRunStatus>(argc, argv);
}

#include "test_run_status.moc"
