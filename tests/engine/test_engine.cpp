// The engine's contract: worker-thread execution, stage reporting, errors carried back with their
// stage, prompt cancellation, pause/resume, telemetry, reuse after every kind of ending.
#include <QtTest>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "core/engine/engine.h"
#include "core/engine/latest_slot.h"
#include "core/engine/memory_tracker.h"

using namespace apertura;
using namespace apertura::engine;
using namespace std::chrono_literals;

namespace {

class RecordingObserver : public RunObserver {
 public:
  void stageStarted(const std::string& s) override { add("start " + s); }
  void stageFinished(const std::string& s, double seconds) override {
    add("finish " + s);
    if (seconds < 0.0)
      add("negative time");
  }
  void resources(const ResourceSample& s) override {
    std::lock_guard<std::mutex> lock(mutex_);
    samples.push_back(s);
  }
  std::vector<std::string> events() {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  std::vector<ResourceSample> samples;
  std::mutex mutex_;

 private:
  void add(const std::string& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(e);
  }
  std::vector<std::string> events_;
};

// A pipeline whose "optimize" stage iterates until cancelled or `iterations` reached.
Pipeline iterating(std::atomic<int>& counter, int iterations, std::chrono::milliseconds each) {
  return [&counter, iterations, each](RunContext& ctx) {
    ctx.stage("read", [] {});
    ctx.stage("optimize", [&] {
      for (int i = 0; i < iterations; ++i) {
        ctx.checkpoint();
        std::this_thread::sleep_for(each);
        ++counter;
      }
    });
  };
}

}  // namespace

class TestEngine : public QObject {
  Q_OBJECT
 private slots:
  void runsStagesOnAWorkerThread() {
    Engine engine;
    auto obs = std::make_shared<RecordingObserver>();
    std::thread::id worker_id;
    engine.start(
        project::ProjectSettings{},
        [&](RunContext& ctx) {
          worker_id = std::this_thread::get_id();
          ctx.stage("read", [] {});
          ctx.stage("dirty", [] { std::this_thread::sleep_for(20ms); });
        },
        obs);
    const RunOutcome out = engine.wait();
    QCOMPARE(int(out.state), int(RunState::Finished));
    QVERIFY(worker_id != std::this_thread::get_id());
    QCOMPARE(obs->events(), (std::vector<std::string>{"start read", "finish read", "start dirty",
                                                      "finish dirty"}));
    QVERIFY(out.stage_seconds.at("dirty") >= 0.019);
    QVERIFY(!obs->samples.empty());
    QVERIFY(obs->samples.back().rss_bytes > 0);
    QVERIFY(obs->samples.back().peak_rss_bytes >= obs->samples.back().rss_bytes / 2);
  }

  void errorsCarryTheirStage() {
    Engine engine;
    engine.start(
        project::ProjectSettings{},
        [](RunContext& ctx) {
          ctx.stage("read", [] {});
          ctx.stage("weight", [] { throw std::out_of_range("robust 7 outside [-2, 2]"); });
          ctx.stage("never", [] { QFAIL("a stage after a failure ran"); });
        },
        nullptr);
    const RunOutcome out = engine.wait();
    QCOMPARE(int(out.state), int(RunState::Failed));
    QCOMPARE(out.failed_stage, std::string("weight"));
    QVERIFY(out.message.find("robust 7") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, std::rethrow_exception(out.error));
  }

  void cancelReturnsPromptlyAndEngineIsReusable() {
    Engine engine;
    std::atomic<int> count{0};
    engine.start(project::ProjectSettings{}, iterating(count, 100000, 5ms), nullptr);
    while (count < 3)
      std::this_thread::sleep_for(1ms);
    const auto t0 = std::chrono::steady_clock::now();
    engine.cancel();
    const RunOutcome out = engine.wait();
    const auto latency = std::chrono::steady_clock::now() - t0;
    QCOMPARE(int(out.state), int(RunState::Cancelled));
    QVERIFY2(latency < 1s, "cancellation took a second or more");
    QVERIFY(count < 100000);

    std::atomic<int> second{0};
    engine.start(project::ProjectSettings{}, iterating(second, 5, 1ms), nullptr);
    QCOMPARE(int(engine.wait().state), int(RunState::Finished));
    QCOMPARE(second.load(), 5);
  }

  void cancelWhilePausedStillEnds() {
    Engine engine;
    std::atomic<int> count{0};
    engine.start(project::ProjectSettings{}, iterating(count, 100000, 2ms), nullptr);
    while (count < 2)
      std::this_thread::sleep_for(1ms);
    engine.pause();
    std::this_thread::sleep_for(50ms);
    engine.cancel();
    QCOMPARE(int(engine.wait().state), int(RunState::Cancelled));
  }

  void pauseStopsIterationsUntilResume() {
    Engine engine;
    std::atomic<int> count{0};
    engine.start(project::ProjectSettings{}, iterating(count, 60, 2ms), nullptr);
    while (count < 5)
      std::this_thread::sleep_for(1ms);
    engine.pause();
    QVERIFY(engine.paused());
    std::this_thread::sleep_for(30ms);  // lets an iteration in flight finish
    const int frozen = count;
    std::this_thread::sleep_for(150ms);
    QCOMPARE(count.load(), frozen);
    QVERIFY(engine.running());
    engine.resume();
    QCOMPARE(int(engine.wait().state), int(RunState::Finished));
    QCOMPARE(count.load(), 60);
  }

  void startWhileRunningIsRefused() {
    Engine engine;
    std::atomic<int> count{0};
    engine.start(project::ProjectSettings{}, iterating(count, 100000, 1ms), nullptr);
    QVERIFY_THROWS_EXCEPTION(std::logic_error,
                             engine.start(
                                 project::ProjectSettings{}, [](RunContext&) {}, nullptr));
    engine.cancel();
    engine.wait();
  }

  void trackedBytesAppearInTelemetry() {
    Engine engine(10ms);
    auto obs = std::make_shared<RecordingObserver>();
    engine.start(
        project::ProjectSettings{},
        [](RunContext& ctx) {
          ctx.stage("grid", [] {
            TrackedBytes grid(MemoryCategory::Grids, 64u << 20);
            std::this_thread::sleep_for(100ms);
          });
        },
        obs);
    engine.wait();
    std::uint64_t max_tracked = 0;
    for (const auto& s : obs->samples)
      max_tracked = std::max(max_tracked, s.tracked_bytes);
    QVERIFY(max_tracked >= (64u << 20));
    QCOMPARE(MemoryTracker::instance().bytes(MemoryCategory::Grids), std::uint64_t(0));
  }

  void latestSlotKeepsOnlyTheNewest() {
    LatestSlot<int> slot;
    QVERIFY(!slot.put(std::make_shared<int>(1)));
    QVERIFY(slot.put(std::make_shared<int>(2)));  // 1 was dropped, never seen
    QCOMPARE(*slot.take(), 2);
    QVERIFY(slot.take() == nullptr);
  }

  void slowConsumerNeverSlowsTheProducer() {
    LatestSlot<std::vector<float>> slot;
    std::atomic<bool> stop{false};
    std::atomic<int> taken{0};
    std::thread consumer([&] {
      while (!stop) {
        if (slot.take())
          ++taken;
        std::this_thread::sleep_for(10ms);  // a slow redraw
      }
    });
    const auto t0 = std::chrono::steady_clock::now();
    int dropped = 0;
    for (int i = 0; i < 2000; ++i) {
      dropped += slot.put(std::make_shared<std::vector<float>>(256, float(i))) ? 1 : 0;
    }
    const auto produce = std::chrono::steady_clock::now() - t0;
    stop = true;
    consumer.join();
    QVERIFY2(produce < 500ms, "publishing blocked on the consumer");
    QVERIFY(dropped > 1000);  // most snapshots were superseded, none queued
  }

  void throttlePublishesEveryNButNotTooOften() {
    SnapshotThrottle every3(3, 0ms);
    std::vector<int> due;
    for (int i = 0; i < 10; ++i) {
      if (every3.due(i))
        due.push_back(i);
    }
    QCOMPARE(due, (std::vector<int>{0, 3, 6, 9}));
    SnapshotThrottle slow(1, 10000ms);
    QVERIFY(slow.due(0));
    QVERIFY(!slow.due(1));
  }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
