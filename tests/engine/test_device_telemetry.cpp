// Device memory in the engine's telemetry: ResourceSample::gpu_bytes is the sum of the registered
// operators' deviceBytes() (DeviceMemoryGauge), 0 on the CPU backend; the memory estimate has a
// device part only when the backend is cuda.
#include <QtTest>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "core/engine/device_memory_gauge.h"
#include "core/engine/engine.h"
#include "core/engine/memory_estimate.h"
#include "core/imaging/imaging_operator.h"

using namespace apertura;
using namespace apertura::engine;
using namespace std::chrono_literals;

namespace {

class SampleRecorder : public RunObserver {
 public:
  void resources(const ResourceSample& s) override {
    std::lock_guard<std::mutex> lock(mutex_);
    gpu_.push_back(s.gpu_bytes);
  }
  std::vector<std::uint64_t> gpuBytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return gpu_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::uint64_t> gpu_;
};

// Runs `inside` as the pipeline, sampling every 10 ms; returns the gpu_bytes of every sample.
template <typename F>
std::vector<std::uint64_t> sampleDuring(F inside) {
  Engine engine(10ms);
  auto obs = std::make_shared<SampleRecorder>();
  engine.start(
      project::ProjectSettings{}, [&](RunContext&) { inside(); }, obs);
  const RunOutcome out = engine.wait();
  if (out.state != RunState::Finished)
    qFatal("run failed: %s", out.message.c_str());
  return obs->gpuBytes();
}

}  // namespace

class TestDeviceTelemetry : public QObject {
  Q_OBJECT
 private slots:
  void cpuOperatorHoldsNoDeviceMemory() {
    const auto g = imaging::ImageGeometry::fromCell(64, 64, 1e-5);
    QCOMPARE(imaging::makeCpuOperator<float>(g, {})->deviceBytes(), std::uint64_t(0));
    QCOMPARE(imaging::makeCpuOperator<double>(g, {})->deviceBytes(), std::uint64_t(0));
  }

  void samplesAreZeroWithoutDeviceOperators() {
    QCOMPARE(DeviceMemoryGauge::instance().total(), std::uint64_t(0));
    const auto samples = sampleDuring([] { std::this_thread::sleep_for(60ms); });
    QVERIFY(samples.size() >= 2);
    for (std::uint64_t b : samples)
      QCOMPARE(b, std::uint64_t(0));
  }

  void registeredSourcesAreSampledAndRemoved() {
    std::atomic<std::uint64_t> held{0};
    std::uint64_t during = 0, after_move = 0;  // checked on the test thread (QCOMPARE is not
                                               // for worker threads)
    const auto samples = sampleDuring([&] {
      DeviceMemoryGauge::Registration a =
          DeviceMemoryGauge::instance().add([&] { return held.load(); });
      DeviceMemoryGauge::Registration b =
          DeviceMemoryGauge::instance().add([] { return std::uint64_t(1000); });
      held = 3u << 20;
      std::this_thread::sleep_for(80ms);
      during = DeviceMemoryGauge::instance().total();
      // Moving a registration keeps one source, not two.
      DeviceMemoryGauge::Registration moved = std::move(b);
      after_move = DeviceMemoryGauge::instance().total();
    });
    QCOMPARE(during, std::uint64_t((3u << 20) + 1000));
    QCOMPARE(after_move, std::uint64_t((3u << 20) + 1000));
    // While the sources were registered the sampler saw their sum; the last sample (after the
    // run) sees none.
    bool saw = false;
    for (std::uint64_t v : samples)
      saw = saw || v == (3u << 20) + 1000;
    QVERIFY(saw);
    QCOMPARE(samples.back(), std::uint64_t(0));
    QCOMPARE(DeviceMemoryGauge::instance().total(), std::uint64_t(0));
  }

  void estimateHasADevicePartForCuda() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 1024;
    s.imaging.oversampling = 2.0;
    s.imaging.precision = apertura::project::Precision::Float;
    s.data.chunk_rows = 1000;
    const DataVolume d{100000, 100000 * 64, 64};
    s.imaging.backend = apertura::imaging::Backend::Cpu;
    const MemoryEstimate cpu = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(cpu.device_bytes, std::uint64_t(0));
    QVERIFY(cpu.describe().find("GPU") == std::string::npos);
    s.imaging.backend = apertura::imaging::Backend::Auto;
    QCOMPARE(estimateMemory(s, d, 16ull << 30).device_bytes, std::uint64_t(0));

    s.imaging.backend = apertura::imaging::Backend::Cuda;
    // L-BFGS pairs that spill to disk are a host feature: the optimizer stays in RAM.
    s.optimizer.in_memory_limit = 3;
    const MemoryEstimate spilled = estimateMemory(s, d, 16ull << 30);
    QVERIFY(!spilled.optimizer_on_device);
    // Grid, accumulator, FFT work (2048^2 complex float each), the image, the corrections,
    // uvw of every row, one 1000-row chunk of 64 channels (complex float + float weight).
    const std::uint64_t cells = 2048ull * 2048ull;
    const std::uint64_t pixels = 1024ull * 1024ull;
    const std::uint64_t expected =
        3 * cells * 8 + pixels * 8 + 2048ull * 4 + 100000ull * 24 + 1000ull * 64 * 12;
    QCOMPARE(spilled.device_bytes, expected);
    // Host memory is not changed by where the operator runs.
    project::ProjectSettings on_cpu = s;
    on_cpu.imaging.backend = apertura::imaging::Backend::Cpu;
    QCOMPARE(spilled.totalBytes(), estimateMemory(on_cpu, d, 16ull << 30).totalBytes());
    QVERIFY2(spilled.describe().find("; GPU ") != std::string::npos, spilled.describe().c_str());
    s.optimizer.in_memory_limit.reset();

    // Float pairs all in memory: the resident iteration keeps the 10 pairs (4 bytes an element),
    // the iterate, its gradient, the direction, the trial point and its gradient and four work
    // images (8 bytes) on the GPU, and the optimizer leaves host memory.
    s.optimizer.history_precision = apertura::project::Precision::Float;
    const MemoryEstimate gpu_float = estimateMemory(s, d, 16ull << 30);
    QVERIFY(gpu_float.optimizer_on_device);
    QCOMPARE(gpu_float.optimizer_bytes, std::uint64_t(0));
    QCOMPARE(gpu_float.device_bytes, expected + (2 * 10 * 4 + (5 + 4) * 8) * pixels);
    // Double pairs: the same vectors, the pairs at 8 bytes.
    s.optimizer.history_precision = apertura::project::Precision::Double;
    const MemoryEstimate gpu = estimateMemory(s, d, 16ull << 30);
    QVERIFY(gpu.optimizer_on_device);
    QCOMPARE(gpu.device_bytes, expected + (2 * 10 + 5 + 4) * pixels * 8);
    QCOMPARE(gpu.optimizer_bytes, std::uint64_t(0));
    QCOMPARE(gpu.totalBytes(), cpu.totalBytes() - cpu.optimizer_bytes);
    QVERIFY2(gpu.describe().find("(optimizer state on the GPU)") != std::string::npos,
             gpu.describe().c_str());
    // Conjugate gradients: direction, trial point and its gradient, iterate, gradient, work.
    s.optimizer.method = apertura::project::OptimizerMethod::CgPr;
    QCOMPARE(estimateMemory(s, d, 16ull << 30).device_bytes, expected + (3 + 2 + 4) * pixels * 8);
    // FISTA keeps one non-smooth term's prox on the device, and two through an inner SDMM there:
    // its four vectors, TV's seven, and the SDMM's of {quadratic, TV, L1, positivity} (2 x 4 + 2).
    s.optimizer.method = apertura::project::OptimizerMethod::Fista;
    project::RegularizerSettings l1, tv;
    l1.type = "l1";
    l1.lambda = 1e-3;
    tv.type = "tv";
    tv.lambda = 1e-3;
    s.regularizers = {tv};
    QVERIFY(estimateMemory(s, d, 16ull << 30).optimizer_on_device);
    QCOMPARE(estimateMemory(s, d, 16ull << 30).device_bytes,
             expected + (4 + 7 + 2 + 4) * pixels * 8);
    s.regularizers = {tv, l1};
    const MemoryEstimate two = estimateMemory(s, d, 16ull << 30);
    QVERIFY(two.optimizer_on_device);
    QCOMPARE(two.optimizer_bytes, std::uint64_t(0));
    QCOMPARE(two.device_bytes, expected + (4 + 7 + 10 + 2 + 4) * pixels * 8);
    // SDMM or a pair spill stay on the host.
    s.regularizers.clear();
    s.optimizer.method = apertura::project::OptimizerMethod::Sdmm;
    QVERIFY(!estimateMemory(s, d, 16ull << 30).optimizer_on_device);
    s.optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
    s.optimizer.in_memory_limit = 3;
    QVERIFY(!estimateMemory(s, d, 16ull << 30).optimizer_on_device);
    s.optimizer.in_memory_limit.reset();
    QVERIFY(optimizerOnDevice(s));
    // w-stacking: the operator holds every sample's visibility, weight and w-plane index and two
    // screens per pixel; its resident chi2 keeps the measured visibilities too, and the
    // optimizer's vectors stay on the device (L-BFGS with double pairs, as above).
    s.imaging.w_stacking = true;
    QVERIFY(optimizerOnDevice(s));
    const MemoryEstimate wstack = estimateMemory(s, d, 16ull << 30);
    QVERIFY(wstack.optimizer_on_device);
    QCOMPARE(wstack.device_bytes, expected + 100000ull * 64 * (8 + 4 + 4) + 2 * pixels * 8 +
                                      (2 * 10 + 5 + 4) * pixels * 8 + 100000ull * 64 * 8);
    // A plugin's regularizer is evaluated on the host, so the optimizer stays there.
    project::RegularizerSettings plugin_term;
    plugin_term.type = "plugin:example";
    plugin_term.lambda = 1e-3;
    s.regularizers = {plugin_term};
    QVERIFY(!optimizerOnDevice(s));
    s.regularizers.clear();
    s.imaging.w_stacking = false;
    s.imaging.backend = apertura::imaging::Backend::Cpu;
    QVERIFY(!optimizerOnDevice(s));
  }

  // A cube's optimizer is resident too: its vectors hold every plane, and the plane-wise terms
  // add plane vectors (two each), each plane's regularizer one image, the across-channel terms
  // four.
  void estimateCountsACubeOnTheDevice() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 256;
    s.imaging.backend = apertura::imaging::Backend::Cuda;
    s.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
    s.imaging.channels_per_plane = 1;
    project::RegularizerSettings tsv, spectral;
    tsv.type = "tsv";
    tsv.lambda = 1e-3;
    spectral.type = "tsv-spectral";
    spectral.lambda = 1e-2;
    s.regularizers = {tsv, spectral};
    const DataVolume d{10000, 10000 * 4, 4};  // four planes
    const std::uint64_t pixels = 256ull * 256ull;
    s.optimizer.method =
        apertura::project::OptimizerMethod::Sdmm;  // on the host: the operator's part only
    const MemoryEstimate host = estimateMemory(s, d, 16ull << 30);
    QVERIFY(!host.optimizer_on_device);
    s.optimizer.method = apertura::project::OptimizerMethod::CgPr;
    const MemoryEstimate cube = estimateMemory(s, d, 16ull << 30);
    QVERIFY(cube.optimizer_on_device);
    QCOMPARE(cube.optimizer_bytes, std::uint64_t(0));
    QCOMPARE(cube.device_bytes,
             host.device_bytes + ((3 + 2 + 4) * 4 + 2 * 3 + 4 * 2 + 4 * 2) * pixels * 8);
  }

  // A distributed run's estimate is one process's: the resident iteration adds the partial
  // gradient on the device and its copy on the host for the sum over processes; the
  // deterministic reduction's exact per-chunk sums keep the optimizer on the host.
  void estimateKnowsTheProcessesOfADistributedRun() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 512;
    s.imaging.backend = apertura::imaging::Backend::Cuda;
    s.optimizer.method = apertura::project::OptimizerMethod::CgPr;
    const std::uint64_t pixels = 512ull * 512ull;
    DataVolume d{10000, 10000 * 16, 16};
    const MemoryEstimate one = estimateMemory(s, d, 16ull << 30);
    QVERIFY(one.optimizer_on_device);
    d.processes = 4;
    const MemoryEstimate four = estimateMemory(s, d, 16ull << 30);
    QVERIFY(four.optimizer_on_device);
    QCOMPARE(four.device_bytes, one.device_bytes + pixels * 8);
    QCOMPARE(four.image_bytes, one.image_bytes + pixels * 8);
    QCOMPARE(four.totalBytes(), one.totalBytes() + pixels * 8);

    d.deterministic_reduction = true;
    QVERIFY(!optimizerOnDevice(s, true));
    const MemoryEstimate exact = estimateMemory(s, d, 16ull << 30);
    QVERIFY(!exact.optimizer_on_device);
    QCOMPARE(exact.optimizer_bytes, std::uint64_t(3 * pixels * 8));
    QCOMPARE(exact.image_bytes, one.image_bytes);
    QCOMPARE(exact.device_bytes, one.device_bytes - (3 + 2 + 4) * pixels * 8);
    // The same with one process (the reduction's single-process run).
    d.processes = 1;
    QVERIFY(!estimateMemory(s, d, 16ull << 30).optimizer_on_device);
    // w-stacking's term has no per-chunk sums: it stays resident.
    s.imaging.w_stacking = true;
    QVERIFY(optimizerOnDevice(s, true));
    QVERIFY(estimateMemory(s, d, 16ull << 30).optimizer_on_device);
  }
};

QTEST_GUILESS_MAIN(TestDeviceTelemetry)
#include "test_device_telemetry.moc"
