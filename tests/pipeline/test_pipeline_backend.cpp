// The project's imaging.backend reaches every stage that grids: the MFS and cube dirty stages and
// both optimize stages report the factory's line ("dirty image operator: cpu (requested); ...",
// "operator: ..."), the telemetry's gpu_bytes stays 0 on the CPU, and a CUDA request this machine
// cannot honour fails the run in the dirty stage with the setting named.
#include <QTemporaryDir>
#include <QtTest>
#include <mutex>
#include <string>
#include <vector>

#include "core/imaging/gpu_devices.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

class Recorder : public engine::RunObserver {
 public:
  void progress(double, const std::string& message) override {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.push_back(message);
  }
  void resources(const engine::ResourceSample& s) override {
    std::lock_guard<std::mutex> lock(mutex_);
    gpu_.push_back(s.gpu_bytes);
  }
  // The first message starting with `prefix`, or "".
  std::string find(const std::string& prefix) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::string& m : messages_) {
      if (m.rfind(prefix, 0) == 0)
        return m;
    }
    return {};
  }
  std::vector<std::uint64_t> gpuBytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return gpu_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
  std::vector<std::uint64_t> gpu_;
};

}  // namespace

class TestPipelineBackend : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = testing::simulateAlmaCompactMs(dir_.path().toStdString() + "/backend.ms",
                                         testing::pointAndGaussianSky());
  }

  void cpuBackendReachesEveryStage_data() {
    QTest::addColumn<QString>("mode");
    QTest::newRow("mfs") << "mfs";
    QTest::newRow("cube") << "cube";
  }
  void cpuBackendReachesEveryStage() {
    QFETCH(QString, mode);
    project::ProjectSettings s = settings();
    s.imaging.spectral_mode = *project::parseChoice<project::SpectralMode>(mode.toStdString());
    auto rec = std::make_shared<Recorder>();
    const testing::PipelineRun run = testing::runImagingPipeline(s, rec);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    const std::string dirty = rec->find("dirty image operator: ");
    QVERIFY2(dirty.rfind("dirty image operator: cpu (requested); kernel=", 0) == 0, dirty.c_str());
    const std::string optimize = rec->find("operator: ");
    QVERIFY2(optimize.rfind("operator: cpu (requested); kernel=", 0) == 0, optimize.c_str());
    for (std::uint64_t b : rec->gpuBytes())
      QCOMPARE(b, std::uint64_t(0));
  }

  void unavailableCudaFailsInTheDirtyStage() {
    if (!imaging::queryGpuDevices().devices.empty())
      QSKIP("this machine has a CUDA device (the gpu tests cover it)");
    project::ProjectSettings s = settings();
    s.imaging.backend = apertura::imaging::Backend::Cuda;
    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QCOMPARE(int(run.outcome.state), int(engine::RunState::Failed));
    QCOMPARE(run.outcome.failed_stage, std::string("dirty"));
    QVERIFY2(run.outcome.message.find("imaging.backend") != std::string::npos,
             run.outcome.message.c_str());
  }

 private:
  project::ProjectSettings settings() const {
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = 64;
    s.imaging.cell_arcsec = 0.1;
    s.imaging.backend = apertura::imaging::Backend::Cpu;
    s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
    s.regularizers = {{"l1", 1e-3, false, {}}};
    s.optimizer.max_iterations = 3;
    return s;
  }

  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestPipelineBackend)
#include "test_pipeline_backend.moc"
