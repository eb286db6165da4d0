// The GUI side of a run: worker-thread callbacks reach widgets in order (metrics) or latest-wins
// (images), the event loop keeps ticking, and cancel/failure end the run with a readable state.
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <thread>

#include "gui/controller/run_controller.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/metrics_chart.h"

using namespace apertura;
using namespace apertura::engine;
using apertura::gui::RunController;

namespace {

Pipeline iterate(int iterations, int ms_each) {
  return [=](RunContext& ctx) {
    ctx.stage("optimize", [&] {
      for (int i = 0; i < iterations; ++i) {
        ctx.checkpoint();
        std::this_thread::sleep_for(std::chrono::milliseconds(ms_each));
        IterationMetrics m;
        m.iteration = i;
        m.objective = 1000.0 / (i + 1);
        m.terms = {{"chi2", 900.0 / (i + 1)}, {"l1", 100.0 / (i + 1)}};
        m.gradient_norm = 1.0 / (i + 1);
        m.step = 0.5;
        m.chi2_per_dof = 1.0 + 10.0 / (i + 1);
        m.seconds = ms_each / 1000.0;
        ctx.observer().iteration(m);
        auto img = std::make_shared<ImageSnapshot>();
        img->name = "model";
        img->iteration = i;
        img->nx = img->ny = 64;
        img->pixels.assign(64 * 64, float(i));
        ctx.observer().snapshot(img);
      }
    });
  };
}

}  // namespace

class TestRunController : public QObject {
  Q_OBJECT
 private slots:
  void metricsInOrderImagesLatestWinsLoopKeepsTicking() {
    RunController controller;
    apertura::gui::ConvergencePanel panel;
    connect(&controller, &RunController::iterations, &panel,
            &apertura::gui::ConvergencePanel::addIterations);
    connect(&controller, &RunController::resources, &panel,
            &apertura::gui::ConvergencePanel::addResources);
    std::vector<int> seen;
    connect(&controller, &RunController::iterations, this, [&](const QVector<IterationMetrics>& m) {
      for (const auto& x : m)
        seen.push_back(x.iteration);
    });
    int snapshots = 0;
    int last_snapshot = -1;
    connect(&controller, &RunController::snapshot, this,
            [&](std::shared_ptr<const ImageSnapshot> s) {
              ++snapshots;
              QVERIFY(s->iteration > last_snapshot);  // never an older image after a newer one
              last_snapshot = s->iteration;
            });
    QSignalSpy finished(&controller, &RunController::finished);

    // A 5 ms ticker measures the longest gap the event loop goes without running timers.
    QElapsedTimer clock;
    qint64 last_tick = 0, worst_gap = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, this, [&] {
      const qint64 now = clock.elapsed();
      worst_gap = std::max(worst_gap, now - last_tick);
      last_tick = now;
    });
    clock.start();
    ticker.start();

    QVERIFY(controller.start(project::ProjectSettings{}, iterate(200, 2)));
    QVERIFY(controller.isRunning());
    QVERIFY(!controller.start(project::ProjectSettings{}, iterate(1, 1)));  // one run at a time
    QVERIFY(finished.wait(20000));
    ticker.stop();
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    QCOMPARE(seen.size(), std::size_t(200));
    for (int i = 0; i < 200; ++i)
      QCOMPARE(seen[std::size_t(i)], i);
    QCOMPARE(last_snapshot, 199);
    QVERIFY2(snapshots < 200, "every snapshot was delivered: nothing was coalesced");
    QCOMPARE(panel.objectiveChart()->pointCount("objective"), 200);
    QCOMPARE(panel.objectiveChart()->pointCount("l1"), 200);
    QVERIFY(panel.memoryChart()->pointCount("RSS") >= 1);
    qInfo("worst event-loop gap during the run: %lld ms", worst_gap);
    QVERIFY2(worst_gap < 200, qPrintable(QString("event loop stalled %1 ms").arg(worst_gap)));
  }

  void cancelEndsTheRunAndAllowsAnother() {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::finished);
    QSignalSpy batches(&controller, &RunController::iterations);
    controller.start(project::ProjectSettings{}, iterate(100000, 5));
    QVERIFY(batches.wait(5000));
    QElapsedTimer t;
    t.start();
    controller.cancel();
    QVERIFY(finished.wait(5000));
    QVERIFY(t.elapsed() < 1000);
    QCOMPARE(finished.first().at(0).toString(), QString("cancelled"));
    QVERIFY(!controller.isRunning());
    QVERIFY(controller.start(project::ProjectSettings{}, iterate(3, 1)));
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.last().at(0).toString(), QString("finished"));
  }

  void failureNamesTheStage() {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::finished);
    controller.start(project::ProjectSettings{}, [](RunContext& ctx) {
      ctx.stage("weight", [] { throw std::runtime_error("no unflagged visibilities"); });
    });
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.first().at(0).toString(), QString("failed"));
    QCOMPARE(finished.first().at(1).toString(), QString("weight: no unflagged visibilities"));
  }
};

QTEST_MAIN(TestRunController)
#include "test_run_controller.moc"
