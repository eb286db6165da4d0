// optimizer.in_memory_limit (or history_memory_gb) and optimizer.scratch_dir through a whole engine
// run: the model is bitwise the same with the L-BFGS history spilled to disk, the spill lives in
// the project's scratch directory only while the run lasts, and a cancelled run leaves nothing
// behind.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "core/engine/engine.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_settings.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"
#include "tests/support/spill_files.h"

using namespace apertura;
namespace fs = std::filesystem;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kCellArcsec = 0.15;
constexpr int kSize = 64;

std::size_t entriesIn(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
    ++n;
  return n;
}

// Counts iterations and, at each one, the spill files open in the scratch directory.
class SpillObserver : public engine::RunObserver {
 public:
  explicit SpillObserver(std::string scratch) : scratch_(std::move(scratch)) {}
  void iteration(const engine::IterationMetrics&) override {
    std::lock_guard<std::mutex> lock(mutex);
    ++iterations;
    max_entries = std::max(max_entries, spillFilesOpenIn(scratch_));
  }
  std::mutex mutex;
  int iterations = 0;
  std::size_t max_entries = 0;

 private:
  std::string scratch_;
};

}  // namespace

class TestLbfgsSpillPipeline : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = dir_.path().toStdString() + "/point.ms";
    scratch_ = dir_.path().toStdString() + "/scratch";
    fs::create_directories(scratch_);
    sim::SkyModel sky;
    sky.reference_frequency_hz = 230e9;
    sky.points.push_back({1.0, 6 * kCellArcsec * kArcsec, 4 * kCellArcsec * kArcsec, 0.0});
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.ra_rad = 1.2;
    spec.duration_h = 0.5;
    spec.seed = 3;
    testing::simulateAlmaCompactMs(ms_, sky, spec);
  }

  void spilledRunGivesTheSameModel() {
    auto run = [&](std::optional<int> in_memory_limit, int* iterations, std::size_t* entries,
                   const char* precision = "double",
                   std::optional<double> history_memory_gb = std::nullopt) {
      project::ProjectSettings s;
      s.data.path = ms_;
      s.imaging.nx = s.imaging.ny = kSize;
      s.imaging.cell_arcsec = kCellArcsec;
      s.imaging.threads = 1;  // a deterministic gridding order
      s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
      s.regularizers = {{"tsv", 1e-4, false, {}}};
      s.optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
      s.optimizer.history = 6;
      s.optimizer.in_memory_limit = in_memory_limit;
      s.optimizer.history_memory_gb = history_memory_gb;
      s.optimizer.scratch_dir = scratch_;
      s.optimizer.history_precision = *project::parseChoice<project::Precision>(precision);
      s.optimizer.max_iterations = 40;
      s.optimizer.relative_tolerance = 0.0;
      s.output.prefix = dir_.path().toStdString() + "/run";
      auto observer = std::make_shared<SpillObserver>(scratch_);
      const testing::PipelineRun done = testing::runImagingPipeline(s, observer);
      if (!done.finished())
        qWarning("run failed: %s", done.outcome.message.c_str());
      *iterations = observer->iterations;
      *entries = observer->max_entries;
      return done.products->model;
    };
    int it_ram = 0, it_spill = 0;
    std::size_t entries_ram = 0, entries_spill = 0;
    const std::vector<double> in_ram = run(std::nullopt, &it_ram, &entries_ram);
    const std::vector<double> spilled = run(2, &it_spill, &entries_spill);
    QCOMPARE(in_ram.size(), std::size_t(kSize * kSize));
    QVERIFY2(it_ram > 10, "enough iterations to wrap the history");
    QCOMPARE(it_spill, it_ram);
    QCOMPARE(entries_ram, std::size_t(0));    // all in RAM: nothing on disk
    QCOMPARE(entries_spill, std::size_t(1));  // one spill file during the run
    QVERIFY(std::memcmp(in_ram.data(), spilled.data(), in_ram.size() * sizeof(double)) == 0);
    QCOMPARE(entriesIn(scratch_), std::size_t(0));  // removed at the end

    // A RAM limit instead of a pair count: room for 3 of the 6 pairs spills the rest.
    const double pair_gb = 2.0 * kSize * kSize * sizeof(double) / double(1ull << 30);
    const std::vector<double> by_ram =
        run(std::nullopt, &it_spill, &entries_spill, "double", 3.5 * pair_gb);
    QCOMPARE(it_spill, it_ram);
    QCOMPARE(entries_spill, std::size_t(1));
    QVERIFY(std::memcmp(in_ram.data(), by_ram.data(), in_ram.size() * sizeof(double)) == 0);
    // Room for all 6: nothing on disk.
    run(std::nullopt, &it_spill, &entries_spill, "double", 6.5 * pair_gb);
    QCOMPARE(entries_spill, std::size_t(0));

    // Float pairs: bitwise the same with and without spill, and really in use (the trajectory
    // departs from the double one at rounding level; convergence to the same minimum is checked
    // in test_lbfgs_history).
    const std::vector<double> f_ram = run(std::nullopt, &it_ram, &entries_ram, "float");
    const std::vector<double> f_spill = run(3, &it_spill, &entries_spill, "float");
    QCOMPARE(it_spill, it_ram);
    QCOMPARE(entries_spill, std::size_t(1));
    QVERIFY(std::memcmp(f_ram.data(), f_spill.data(), f_ram.size() * sizeof(double)) == 0);
    QVERIFY(std::memcmp(f_ram.data(), in_ram.data(), f_ram.size() * sizeof(double)) != 0);
    QVERIFY(std::all_of(f_ram.begin(), f_ram.end(), [](double v) { return std::isfinite(v); }));
  }

  void cancelledRunRemovesTheSpill() {
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = kSize;
    s.imaging.cell_arcsec = kCellArcsec;
    s.regularizers = {{"tsv", 1e-4, false, {}}};
    s.optimizer.history = 5;
    s.optimizer.in_memory_limit = 1;
    s.optimizer.scratch_dir = scratch_;
    s.optimizer.max_iterations = 100000;
    s.optimizer.relative_tolerance = 0.0;
    s.optimizer.gradient_tolerance = 0.0;
    auto observer = std::make_shared<SpillObserver>(scratch_);
    engine::Engine engine;
    engine.start(s, pipeline::makeImagingPipeline(std::make_shared<pipeline::ImagingProducts>()),
                 observer);
    for (int i = 0; i < 4000; ++i) {
      {
        std::lock_guard<std::mutex> lock(observer->mutex);
        if (observer->max_entries > 0 || observer->iterations > 50)
          break;
      }
      QTest::qWait(5);
    }
    engine.cancel();
    const engine::RunOutcome out = engine.wait();
    QVERIFY(observer->max_entries == 1);
    QCOMPARE(int(out.state), int(engine::RunState::Cancelled));
    QCOMPARE(entriesIn(scratch_), std::size_t(0));
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
  std::string scratch_;
};

QTEST_GUILESS_MAIN(TestLbfgsSpillPipeline)
#include "test_lbfgs_spill_pipeline.moc"
