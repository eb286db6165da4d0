// The memory estimate against what a run really uses: each case runs the whole imaging pipeline
// in a forked child (peak RSS is per process and never goes down) and compares the growth of its
// peak RSS over the run with estimateMemory(). The requirement: within 25%.
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/engine/engine.h"
#include "core/engine/memory_estimate.h"
#include "core/engine/process_resources.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"
#include "tests/support/peak_rss.h"

using namespace apertura;

namespace {

struct Case {
  const char* name;
  int size;
  const char* precision;
  const char* method;
  int history;
  int iterations;  // L-BFGS: enough to fill its history
  // On the long observation, in small chunks (the reader's chunks in flight stay small): the
  // visibilities and what w-stacking's whole calls hold per sample dominate.
  bool w_stacking = false;
};

const Case kCases[] = {
    {"lbfgs-1024-float-m10", 1024, "float", "lbfgs", 10, 12},
    {"lbfgs-1024-float-m3", 1024, "float", "lbfgs", 3, 5},
    {"cg-1536-double", 1536, "double", "cg-pr", 10, 1},
    {"fista-1024-float", 1024, "float", "fista", 10, 2},
    {"wstack-cg-256-float", 256, "float", "cg-pr", 3, 1, true},
};

project::ProjectSettings settingsFor(const Case& c, const std::string& ms,
                                     const std::string& prefix) {
  project::ProjectSettings s = project::defaultProject();
  s.data.path = ms;
  s.regularizers = {{"l1", 1.0, false, {}}};  // one solver run: what the estimate's parts model
  s.imaging.nx = s.imaging.ny = c.size;
  s.imaging.cell_arcsec = 0.05;
  s.imaging.precision = *project::parseChoice<project::Precision>(c.precision);
  s.imaging.threads = 2;
  s.optimizer.setMethod(c.method);
  s.optimizer.history = c.history;
  s.optimizer.max_iterations = c.iterations;
  s.optimizer.relative_tolerance = 0.0;
  s.optimizer.snapshot_every = 1;
  s.imaging.w_stacking = c.w_stacking;
  if (c.w_stacking)
    s.data.chunk_rows = 20000;
  s.output.prefix = prefix;
  return s;
}

// Runs one case through the whole pipeline (in the forked child); returns the estimate in bytes.
std::string runCase(const Case& c, const std::string& ms, const std::string& prefix) {
  const project::ProjectSettings s = settingsFor(c, ms, prefix);
  auto products = std::make_shared<pipeline::ImagingProducts>();
  {
    engine::Engine engine;
    engine.start(s, pipeline::makeImagingPipeline(products),
                 std::make_shared<engine::RunObserver>());
    const engine::RunOutcome out = engine.wait();
    if (out.state != engine::RunState::Finished)
      throw std::runtime_error("run failed: " + out.message);
  }
  const std::uint64_t samples = products->samples, rows = products->rows;
  const engine::MemoryEstimate e = engine::estimateMemory(
      s, engine::DataVolume{rows, samples, int(std::max<std::uint64_t>(1, samples / rows))},
      engine::physicalMemoryBytes());
  std::fprintf(stderr, "%s: %s\n", c.name, e.describe().c_str());
  return std::to_string(e.totalBytes());
}

}  // namespace

class TestMemoryEstimateRss : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = dir_.path() + "/sim.ms";
    sim::SkyModel sky;
    sky.reference_frequency_hz = 230e9;
    sky.points.push_back({1.0, 0.0, 0.0, 0.0});
    sim::ObservationSpec spec;
    spec.duration_h = 1.0;
    spec.integration_s = 30.0;
    spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 4}};
    spec.sigma_jy = 0.05;
    sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, ms_.toStdString(), false);
    long_ms_ = dir_.path() + "/long.ms";
    spec.duration_h = 3.0;
    spec.integration_s = 10.0;
    sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, long_ms_.toStdString(), false);
  }

  void estimateWithin25PercentOfPeakRss_data() {
    QTest::addColumn<QString>("name");
    for (const Case& c : kCases)
      QTest::newRow(c.name) << QString(c.name);
  }
  void estimateWithin25PercentOfPeakRss() {
    QFETCH(QString, name);
    const Case* c = nullptr;
    for (const Case& k : kCases)
      c = name == k.name ? &k : c;
    QVERIFY(c);
    // A process of its own: peak RSS is per process and never goes down.
    const std::string ms = (c->w_stacking ? long_ms_ : ms_).toStdString();
    const auto child = testing::runWithPeakRss(
        [&] { return runCase(*c, ms, (dir_.path() + "/" + name).toStdString()); });
    QVERIFY2(child.ok, child.error.c_str());
    const double measured = double(child.growthBytes()), estimated = std::stod(child.output);
    qInfo("%s: peak RSS grew by %.1f MiB, estimate %.1f MiB (ratio %.2f)", qPrintable(name),
          measured / 1048576.0, estimated / 1048576.0, estimated / measured);
    QVERIFY2(std::fabs(estimated - measured) <= 0.25 * measured,
             qPrintable(QString("estimate %1 MiB vs measured %2 MiB")
                            .arg(estimated / 1048576.0)
                            .arg(measured / 1048576.0)));
  }

 private:
  QTemporaryDir dir_;
  QString ms_;
  QString long_ms_;
};

QTEST_GUILESS_MAIN(TestMemoryEstimateRss)
#include "test_memory_estimate_rss.moc"
