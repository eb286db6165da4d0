// Host side of the backends (no GPU needed): the kernel and tap positions the CUDA kernels
// evaluate (device_kernel.h, compiled here as host code) against KernelShape and firstTap(); the
// operator layout against the CPU operator; backend selection and its fallbacks; the
// APERTURA_CUDA_THREADS parsing; the device inventory's text.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/imaging/device_gridding.h"
#include "core/imaging/device_kernel.h"
#include "core/imaging/device_tiles.h"
#include "core/imaging/gridding_correction.h"
#include "core/imaging/kernel_poly.h"
#include "core/imaging/operator_factory.h"
#include "core/imaging/operator_layout.h"
#include "core/imaging/tile_plan.h"
#include "core/util/input_error.h"
#include "tests/imaging/cuda_emulation.h"
#include "tests/imaging/cuda_wstack_emulation.h"
#include "tests/imaging/dft_reference.h"
#include "tests/support/input_error_text.h"

using namespace apertura;
using namespace apertura::imaging;
using apertura::testing::inputErrorOf;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

GpuInventory inventoryWith(bool built, int devices) {
  GpuInventory inv;
  inv.built_with_cuda = built;
  for (int i = 0; i < devices; ++i) {
    GpuDevice d;
    d.index = i;
    d.name = "Test GPU " + std::to_string(i);
    d.total_bytes = std::size_t(80) << 30;
    d.free_bytes = std::size_t(79) << 30;
    d.compute_major = 9;
    d.multiprocessors = 132;
    inv.devices.push_back(d);
  }
  if (built && devices == 0)
    inv.problem = "no driver";
  return inv;
}

}  // namespace

class TestOperatorFactory : public QObject {
  Q_OBJECT

 private slots:
  // The device's exact kernel values are KernelShape's, for every kernel type and several widths.
  void deviceKernelEqualsKernelShape() {
    for (KernelType type : {KernelType::ExpSemicircle, KernelType::KaiserBessel,
                            KernelType::Prolate, KernelType::Pillbox}) {
      for (double eps : {1e-3, 1e-6, 1e-12}) {
        const KernelShape k = chooseKernel(type, eps, 2.0);
        const DeviceKernelParams p = packDeviceKernel(k, 512, 384);
        QCOMPARE(p.support, k.support);
        QCOMPARE(p.grid_u, 512);
        QCOMPARE(p.grid_v, 384);
        double worst = 0, worst_float = 0;
        for (int i = 0; i <= 2000; ++i) {
          const double x = -1.0 + 2.0 * i / 2000.0;
          const double exact = k(x);
          worst = std::max(worst, std::abs(deviceKernelValue<double>(p, x) - exact));
          worst_float =
              std::max(worst_float, std::abs(double(deviceKernelValue<float>(p, x)) - exact));
        }
        QVERIFY2(worst < 1e-14, qPrintable(QString("%1 W=%2: %3")
                                               .arg(QString::fromStdString(kernelTypeName(type)))
                                               .arg(k.support)
                                               .arg(worst)));
        QVERIFY2(worst_float < 1e-6, qPrintable(QString::number(worst_float)));
      }
    }
  }

  // First tap and tap arguments equal the CPU's firstTap() and y, and the taps reproduce the
  // CPU's kernel polynomial to its fitting tolerance.
  void deviceTapsEqualCpuTaps() {
    std::mt19937_64 rng(3);
    for (int n : {64, 96, 130, 1024}) {
      std::uniform_real_distribution<double> coord(-2.5 * n, 2.5 * n);
      for (int support = 1; support <= kMaxSupport; ++support) {
        for (int i = 0; i < 300; ++i) {
          const double g = coord(rng);
          double x0 = 0, y = 0;
          const int device_first = deviceFirstTap(g, support, n, x0);
          const int cpu_first = firstTap(g, support, n, &y);
          QCOMPARE(device_first, cpu_first);
          // Tap j: x = (2 j - W + 1 + y) / W on the CPU, x0 + 2 j / W on the device.
          QVERIFY(std::abs(x0 - (1.0 - support + y) / support) < 1e-12);
          QVERIFY(x0 >= -1.0 - 1e-12 && x0 + 2.0 * (support - 1) / support < 1.0);
        }
      }
    }
    const KernelShape k = chooseKernel(KernelType::ExpSemicircle, 1e-9, 2.0);
    const KernelPolynomial<double> poly = fitKernelPolynomial<double>(k, 0.05e-9);
    const DeviceKernelParams p = packDeviceKernel(k, 256, 256);
    std::vector<double> taps(k.support);
    for (double g : {0.0, 0.37, -12.81, 255.99, 1000.5}) {
      double x0 = 0, y = 0;
      deviceFirstTap(g, k.support, 256, x0);
      firstTap(g, k.support, 256, &y);
      poly.evaluate(y, taps.data());
      for (int j = 0; j < k.support; ++j)
        QVERIFY(std::abs(deviceKernelValue<double>(p, x0 + 2.0 * j / k.support) - taps[j]) <
                0.05e-9);
    }
  }

  // The CUDA operator's arithmetic, emulated on the host, agrees with the CPU operator far
  // inside epsilon: same coordinates, taps, image placement, FFT signs and correction.
  void cudaArithmeticOnHostMatchesCpu() {
    struct Case {
      double eps;
      KernelType kernel;
      bool single;
    };
    for (const Case& c :
         {Case{1e-4, KernelType::ExpSemicircle, true}, Case{1e-6, KernelType::KaiserBessel, true},
          Case{1e-9, KernelType::ExpSemicircle, false},
          Case{1e-12, KernelType::ExpSemicircle, false},
          Case{1e-8, KernelType::KaiserBessel, false}}) {
      const auto [degrid, grid] = c.single ? test::emulatedCudaVsCpu<float>(c.eps, c.kernel)
                                           : test::emulatedCudaVsCpu<double>(c.eps, c.kernel);
      qInfo("%s eps %.0e %s: degrid %.3g grid %.3g", c.single ? "float" : "double", c.eps,
            kernelTypeName(c.kernel).c_str(), degrid, grid);
      QVERIFY(degrid < 0.2 * c.eps + (c.single ? 2e-7 : 0.0));
      QVERIFY(grid < 0.2 * c.eps + (c.single ? 2e-7 : 0.0));
    }
  }

  // The CUDA operator's fused chi2 pass, emulated on the host, equals the host's pass through the
  // CPU operator (degrid, chi2Residual, grid) to the operators' difference: same residual sign
  // and weighting, flagged samples left out, chi2 independent of the spreading.
  void cudaChi2PassOnHostMatchesCpu() {
    for (const auto& [eps, single] : {std::pair{1e-4, true}, std::pair{1e-9, false}}) {
      const test::Chi2Emulation e =
          single ? test::emulatedChi2VsCpu<float>(eps, KernelType::ExpSemicircle)
                 : test::emulatedChi2VsCpu<double>(eps, KernelType::ExpSemicircle);
      qInfo("%s eps %.0e: chi2 %.3g gridded residuals %.3g", single ? "float" : "double", eps,
            e.chi2_diff, e.image_diff);
      QVERIFY(e.chi2_diff < 0.5 * eps + (single ? 4e-7 : 0.0));
      QVERIFY(e.image_diff < 0.5 * eps + (single ? 4e-7 : 0.0));
      QVERIFY(e.same_without_grid);
    }
  }

  // The CUDA operator's tiled gridder, run on the host: samples sorted by tile, spread into
  // patches (dense tiles cut into many work items) and flushed, equal the direct spreading to
  // rounding, on grids that are and are not whole numbers of tiles (kernels wrapping at the
  // edges: cell 0 is the uv origin); no sample falls outside its tile's patch.
  void cudaTiledGriddingOnHostMatchesDirect() {
    struct Case {
      int nx, ny;
      std::uint32_t max_per_item;
      double eps;
      bool single;
    };
    for (const Case& c : {Case{96, 80, 7, 1e-4, true}, Case{96, 80, 2048, 1e-4, true},
                          Case{90, 70, 5, 1e-9, false}, Case{90, 70, 100000, 1e-12, false}}) {
      const test::TiledEmulation e =
          c.single ? test::emulatedTiledVsDirect<float>(c.eps, KernelType::ExpSemicircle,
                                                        c.max_per_item, c.nx, c.ny)
                   : test::emulatedTiledVsDirect<double>(c.eps, KernelType::ExpSemicircle,
                                                         c.max_per_item, c.nx, c.ny);
      qInfo(
          "%s grid %dx%d, %zu samples, %zu tiles, %zu items of <= %u: %.3g (chi2 pass %.3g), "
          "%zu refused",
          c.single ? "float" : "double", e.grid_u, e.grid_v, e.samples, e.tiles, e.items,
          c.max_per_item, e.grid_diff, e.chi2_grid_diff, e.refused);
      QCOMPARE(e.refused, std::size_t(0));
      QVERIFY(e.grid_diff < (c.single ? 1e-6 : 1e-14));
      QVERIFY(e.same_chi2_terms);
      QVERIFY(e.chi2_grid_diff < (c.single ? 1e-6 : 1e-14));
      QVERIFY(e.items >= e.samples / c.max_per_item);
      if (c.nx == 90)
        QVERIFY(e.grid_u % imaging::kDeviceTile != 0 || e.grid_v % imaging::kDeviceTile != 0);
    }
  }

  // The CUDA operator's w-stacking, run on the host: the planes' screens, the samples sorted by
  // first plane and each plane's pass over its range, agree with the CPU operator's w-stacking
  // far inside epsilon, while leaving the w-term out is far outside it; each sample is visited
  // on its W planes only, not on every plane. Also with the tiled gridder.
  void cudaWStackingOnHostMatchesCpu() {
    for (const auto& [eps, single] : {std::pair{1e-4, true}, std::pair{1e-9, false}}) {
      const test::WStackEmulation e =
          single ? test::emulatedWStackVsCpu<float>(eps) : test::emulatedWStackVsCpu<double>(eps);
      qInfo(
          "%s eps %.0e: %d planes, %zu passes over %zu samples: degrid %.3g grid %.3g "
          "(without the w-term %.3g)",
          single ? "float" : "double", eps, e.planes, e.visits, e.samples, e.degrid_diff,
          e.grid_diff, e.without_w);
      QVERIFY(e.planes > 20);
      QVERIFY(e.degrid_diff < 0.3 * eps + (single ? 2e-7 : 0.0));
      QVERIFY(e.grid_diff < 0.3 * eps + (single ? 2e-7 : 0.0));
      QVERIFY(e.without_w > 1e-2);
      QCOMPARE(e.visits, e.samples * std::size_t(e.support));
      // The tiled gridder with w-stacking: each plane's work items hold exactly its samples,
      // every one in its item's tile; the image equals the simple gridder's to rounding (the
      // patches change the order of the additions), and degridding in its order bit for bit.
      qInfo("  tiled: %zu work items, %zu passes, grid %.3g from the simple gridder", e.tiled_items,
            e.tiled_visits, e.tiled_grid_diff);
      QVERIFY(e.tiled_degrid_equal);
      QCOMPARE(e.tiled_visits, e.visits);
      QCOMPARE(e.tiled_refused, std::size_t(0));
      QVERIFY(e.tiled_items > std::size_t(e.planes));
      QVERIFY(e.tiled_grid_diff < (single ? 1e-5 : 1e-13));
    }
  }

  void tileWorkItems() {
    const DeviceTileWork w = planDeviceTileWork({0, 5, 0, 12, 4}, 4);
    QCOMPARE(w.offsets, (std::vector<std::uint32_t>{0, 0, 5, 5, 17}));
    QCOMPARE(w.tile, (std::vector<std::int32_t>{1, 1, 3, 3, 3, 4}));
    QCOMPARE(w.first, (std::vector<std::uint32_t>{0, 4, 5, 9, 13, 17}));
    QCOMPARE(w.count, (std::vector<std::uint32_t>{4, 1, 4, 4, 4, 4}));
  }

  // The layout a non-CPU backend uses equals what the CPU operator chose.
  void layoutMatchesCpuOperator() {
    struct Case {
      int nx, ny;
      double eps, sigma;
      KernelType kernel;
    };
    for (const Case& c : {Case{256, 192, 1e-4, 2.0, KernelType::ExpSemicircle},
                          Case{100, 62, 1e-9, 1.5, KernelType::ExpSemicircle},
                          Case{512, 512, 1e-6, 1.25, KernelType::KaiserBessel},
                          Case{8, 8, 1e-12, 2.0, KernelType::ExpSemicircle}}) {
      const ImageGeometry g = ImageGeometry::fromCell(c.nx, c.ny, kArcsec);
      OperatorSettings s;
      s.epsilon = c.eps;
      s.oversampling = c.sigma;
      s.kernel = c.kernel;
      s.threads = 1;
      const auto cpu = makeCpuOperator<double>(g, s);
      const OperatorLayout l = makeOperatorLayout(g, s, false);
      QCOMPARE(l.grid_u, cpu->gridCellsX());
      QCOMPARE(l.grid_v, cpu->gridCellsY());
      QCOMPARE(l.kernel.support, cpu->kernel().support);
      QCOMPARE(l.kernel.beta, cpu->kernel().beta);
      QCOMPARE(int(l.corr_x.size()), c.nx);
      QCOMPARE(int(l.corr_y.size()), c.ny);
      const auto psi = kernelTransform(l.kernel, c.nx, l.grid_u);
      for (int i = 0; i < c.nx; ++i)
        QCOMPARE(l.corr_x[i], 1.0 / psi[i]);
    }
    const ImageGeometry odd = ImageGeometry::fromCell(63, 64, kArcsec);
    QVERIFY(!inputErrorOf([&] { makeOperatorLayout(odd, OperatorSettings{}, true); }).isEmpty());
    OperatorSettings tight;
    tight.epsilon = 1e-9;
    const ImageGeometry ok = ImageGeometry::fromCell(64, 64, kArcsec);
    QVERIFY(inputErrorOf([&] { makeOperatorLayout(ok, tight, true); }).contains("epsilon"));
  }

  void decisions() {
    const BackendRequest autoReq{Backend::Auto, 0}, cpuReq{Backend::Cpu, 0},
        cudaReq{Backend::Cuda, 0}, cuda1{Backend::Cuda, 1};
    // "cpu" always wins.
    QVERIFY(!decideBackend(cpuReq, inventoryWith(true, 2)).use_cuda);
    // "auto": CUDA when built and a device exists at the index (with or without w-stacking).
    BackendDecision d = decideBackend(autoReq, inventoryWith(false, 0));
    QVERIFY(!d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("no CUDA backend"));
    d = decideBackend(autoReq, inventoryWith(true, 0));
    QVERIFY(!d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("no CUDA device: no driver"));
    d = decideBackend(BackendRequest{Backend::Auto, 3}, inventoryWith(true, 1));
    QVERIFY(!d.use_cuda);
    d = decideBackend(autoReq, inventoryWith(true, 1));
    QVERIFY(d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("Test GPU 0"));
    QVERIFY(decideBackend(cuda1, inventoryWith(true, 2)).use_cuda);
    // "cuda" that cannot be honoured: an InputError naming the setting at fault.
    QVERIFY(inputErrorOf([&] {
              decideBackend(cudaReq, inventoryWith(false, 0));
            }).startsWith("imaging.backend: cuda requested, but this build has no CUDA"));
    QVERIFY(inputErrorOf([&] {
              decideBackend(cudaReq, inventoryWith(true, 0));
            }).startsWith("imaging.backend: cuda requested, but no CUDA device"));
    QVERIFY(inputErrorOf([&] { decideBackend(cuda1, inventoryWith(true, 1)); })
                .startsWith("imaging.gpu_device: cuda requested, but CUDA device 1 does not "
                            "exist (1 found)"));
  }

  void threadsPerBlock() {
    QCOMPARE(cudaThreadsPerBlock(nullptr), 256);
    QCOMPARE(cudaThreadsPerBlock(""), 256);
    QCOMPARE(cudaThreadsPerBlock("128"), 128);
    QCOMPARE(cudaThreadsPerBlock("1024"), 1024);
    for (const char* bad : {"100", "0", "2048", "64x", "abc", "-32"})
      QVERIFY2(inputErrorOf([&] { cudaThreadsPerBlock(bad); }).contains("APERTURA_CUDA_THREADS"),
               bad);
  }

  void tiledGridderSetting() {
    QVERIFY(cudaTiledGridding(nullptr));
    QVERIFY(cudaTiledGridding(""));
    QVERIFY(cudaTiledGridding("tiled"));
    QVERIFY(!cudaTiledGridding("simple"));
    for (const char* bad : {"Tiled", "fast", "simple "})
      QVERIFY2(inputErrorOf([&] { cudaTiledGridding(bad); }).contains("APERTURA_CUDA_GRIDDER"),
               bad);
  }

  void inventoryText() {
    QCOMPARE(QString::fromStdString(inventoryWith(false, 0).describe()),
             QString("built without CUDA"));
    QCOMPARE(QString::fromStdString(inventoryWith(true, 0).describe()),
             QString("no CUDA device (no driver)"));
    const QString two = QString::fromStdString(inventoryWith(true, 2).describe());
    QVERIFY(
        two.startsWith("cuda:0  Test GPU 0, 80.0 GiB (79.0 GiB free), compute 9.0, 132 SMs\n"
                       "cuda:1  Test GPU 1"));
  }

  // The factory on this machine: "cpu" gives the CPU operator (the same numbers as
  // makeCpuOperator); "auto" falls back to it when there is no device; "cuda" without a device
  // is an InputError, with one the CUDA operator.
  void factoryOnThisMachine() {
    const ImageGeometry g = ImageGeometry::fromCell(64, 48, kArcsec);
    OperatorSettings s;
    s.threads = 1;
    std::string report;
    auto op = makeOperator<float>(g, s, BackendRequest{Backend::Cpu, 0}, &report);
    QCOMPARE(QString::fromStdString(report), QString("cpu (requested)"));
    auto reference = makeCpuOperator<float>(g, s);
    std::vector<double> uvw{100.0, -50.0, 0.0, -300.0, 220.0, 0.0, 10.0, 5.0, 0.0};
    const double freq = 1.4e9;
    const UvwBlock block{uvw.data(), 3, &freq, 1};
    op->setSamples({block});
    reference->setSamples({block});
    std::vector<std::complex<float>> image(g.numPixels());
    for (std::size_t p = 0; p < image.size(); ++p)
      image[p] = std::complex<float>(float(p % 7) - 3.0f, 0.0f);
    std::vector<std::complex<float>> a(3), b(3);
    op->degrid(image.data(), {a.data()});
    reference->degrid(image.data(), {b.data()});
    QCOMPARE(a, b);
    QVERIFY(std::abs(a[0]) > 0.0f);

    const GpuInventory inv = queryGpuDevices();
    qInfo("devices: %s", inv.describe().c_str());
    auto automatic = makeOperator<double>(g, s, BackendRequest{Backend::Auto, 0}, &report);
    qInfo("auto: %s", report.c_str());
    if (inv.devices.empty()) {
      QVERIFY(QString::fromStdString(report).startsWith("cpu (auto: "));
      QVERIFY(automatic->describe().find("backend=cuda") == std::string::npos);
      const QString e = inputErrorOf([&] {
        makeOperator<double>(g, s, BackendRequest{Backend::Cuda, 0});
      });
      QVERIFY2(e.startsWith("imaging.backend: cuda requested, but "), qPrintable(e));
    } else {
      QVERIFY(QString::fromStdString(report).startsWith("cuda device 0"));
      QVERIFY(automatic->describe().find("backend=cuda") != std::string::npos);
    }
  }
};

QTEST_GUILESS_MAIN(TestOperatorFactory)
#include "test_operator_factory.moc"
