// The dirty image goes through the operator factory with the backend it is given: the backend
// line reaches DirtyImageResult::operator_description, "auto" matches the CPU image where no GPU
// exists (on a GPU machine it must name the device), and a backend that cannot be honoured is an
// InputError naming the setting, never a crash or a silent CPU run.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/imaging/dirty_mapper.h"
#include "core/imaging/gpu_devices.h"
#include "core/util/input_error.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

// Random baselines observing a 1.5 Jy point source at the phase centre.
VisibilityChunk centreSourceChunk(const ImageGeometry& g) {
  std::mt19937 rng(7);
  TestBlock b = randomBlock(rng, g, 300, {1.4e9, 1.5e9}, 0.8);
  VisibilityChunk c;
  c.frequencies_hz = b.freq;
  c.uvw_m = b.uvw;
  for (std::size_t s = 0; s < b.samples(); ++s) {
    c.visibilities.emplace_back(1.5f, 0.0f);
    c.weights.push_back(1.0f);
  }
  return c;
}

DirtyImageSettings settings(const ImageGeometry& g, Backend backend, int device = 0) {
  DirtyImageSettings s;
  s.geometry = g;
  s.op.epsilon = 1e-5;
  s.op.threads = 2;
  s.weighting = WeightingSettings::parse("natural");
  s.backend = {backend, device};
  return s;
}

ImageGeometry geometry() {
  return ImageGeometry::fromCell(64, 64, 2.0 * M_PI / 180.0 / 3600.0);
}

}  // namespace

class TestDirtyBackend : public QObject {
  Q_OBJECT
 private slots:
  void defaultIsCpu() {
    // Callers that do not name a backend (tools, the simulator) keep the CPU operator.
    QCOMPARE(DirtyImageSettings{}.backend.backend, apertura::imaging::Backend::Cpu);
  }

  void cpuRequestedIsReported() {
    const ImageGeometry g = geometry();
    const VisibilityChunk chunk = centreSourceChunk(g);
    const DirtyImageResult r = makeDirtyImage({&chunk}, settings(g, Backend::Cpu));
    QVERIFY2(r.operator_description.rfind("cpu (requested); ", 0) == 0,
             r.operator_description.c_str());
    // The operator's own describe() follows the backend line.
    QVERIFY2(r.operator_description.find("kernel=") != std::string::npos,
             r.operator_description.c_str());
    // A centred point source: the dirty image peaks at the source flux.
    const std::size_t centre = std::size_t(g.ny / 2) * std::size_t(g.nx) + std::size_t(g.nx / 2);
    QVERIFY(std::fabs(r.dirty[centre] - 1.5f) < 1e-3f);
  }

  void autoFollowsTheMachine() {
    const ImageGeometry g = geometry();
    const VisibilityChunk chunk = centreSourceChunk(g);
    const DirtyImageResult cpu = makeDirtyImage({&chunk}, settings(g, Backend::Cpu));
    const DirtyImageResult aut = makeDirtyImage({&chunk}, settings(g, Backend::Auto));
    const GpuInventory inventory = queryGpuDevices();
    if (inventory.devices.empty()) {
      QVERIFY2(aut.operator_description.rfind("cpu (auto: ", 0) == 0,
               aut.operator_description.c_str());
      // The same operator: the same image bit for bit.
      QCOMPARE(aut.dirty, cpu.dirty);
      QCOMPARE(aut.psf, cpu.psf);
    } else {
      QVERIFY2(aut.operator_description.rfind("cuda device 0: ", 0) == 0,
               aut.operator_description.c_str());
      double worst = 0.0;
      for (std::size_t p = 0; p < cpu.dirty.size(); ++p)
        worst = std::max(worst, double(std::fabs(aut.dirty[p] - cpu.dirty[p])));
      QVERIFY2(worst < 1e-3, std::to_string(worst).c_str());
    }
  }

  void unavailableCudaIsAnInputError() {
    const ImageGeometry g = geometry();
    const VisibilityChunk chunk = centreSourceChunk(g);
    const GpuInventory inventory = queryGpuDevices();
    // A device index past the last one fails on every machine.
    const int missing = int(inventory.devices.size()) + 3;
    try {
      makeDirtyImage({&chunk}, settings(g, Backend::Cuda, missing));
      QFAIL("a missing CUDA device was accepted");
    } catch (const InputError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find("imaging.") != std::string::npos, what.c_str());
      QVERIFY2(what.find("cuda requested") != std::string::npos, what.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestDirtyBackend)
#include "test_dirty_backend.moc"
