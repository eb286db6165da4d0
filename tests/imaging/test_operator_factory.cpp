// Host side of the backends (no GPU needed): the kernel and tap positions the CUDA kernels
// evaluate (device_kernel.h, compiled here as host code) against KernelShape and firstTap(); the
// operator layout against the CPU operator; backend selection and its fallbacks; the
// APERTURA_CUDA_THREADS parsing; the device inventory's text.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/imaging/device_gridding.h"
#include "core/imaging/device_kernel.h"
#include "core/imaging/fft_plans.h"
#include "core/imaging/gridding_correction.h"
#include "core/imaging/kernel_poly.h"
#include "core/imaging/operator_factory.h"
#include "core/imaging/operator_layout.h"
#include "core/imaging/tile_plan.h"
#include "core/util/input_error.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura;
using namespace apertura::imaging;

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

template <typename F>
QString inputErrorOf(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

template <typename T>
struct HostPair {
  T x, y;
};

// The CUDA operator's computation run on the host: its per-pixel and per-sample functions
// (device_gridding.h) with the layout it is given and FFTW for cuFFT, in the CUDA operator's
// order of steps. Returns the relative L2 differences from the CPU operator (degrid, grid).
template <typename T>
std::pair<double, double> emulatedCudaVsCpu(double eps, KernelType kernel) {
  using C = std::complex<T>;
  const ImageGeometry g = ImageGeometry::fromCell(96, 80, kArcsec);
  std::mt19937 rng(7);
  std::vector<test::TestBlock> blocks{test::randomBlock(rng, g, 1500, {1.4e9}),
                                      test::randomBlock(rng, g, 400, {1.0e9, 1.2e9, 1.4e9})};
  OperatorSettings s;
  s.epsilon = eps;
  s.kernel = kernel;
  s.threads = 1;
  const OperatorLayout layout = makeOperatorLayout(g, s, std::is_same_v<T, float>);
  const DeviceKernelParams k = packDeviceKernel(layout.kernel, layout.grid_u, layout.grid_v);
  const int nu = layout.grid_u, nv = layout.grid_v;
  auto corr = [&](int ix, int iy) { return T(layout.corr_y[iy]) * T(layout.corr_x[ix]); };
  auto coordinates = [&](const test::TestBlock& b, std::size_t i, double& gu, double& gv) {
    const std::size_t nchan = b.freq.size(), r = i / nchan, c = i % nchan;
    const double f = b.freq[c] / kSpeedOfLight;
    gu = b.uvw[3 * r] * (f * g.cell_l * nu);
    gv = b.uvw[3 * r + 1] * (f * g.cell_m * nv);
  };
  auto fft2 = [&](std::vector<C>& grid, bool forward) {
    fftMany<T>(grid.data(), nu, nv, 1, nu, forward, 1);  // rows
    fftMany<T>(grid.data(), nv, nu, nu, 1, forward, 1);  // columns
  };

  auto cpu = makeCpuOperator<T>(g, s);
  std::vector<UvwBlock> views;
  for (const auto& b : blocks)
    views.push_back(b.view());
  cpu->setSamples(views);
  std::vector<C> image(g.numPixels());
  std::normal_distribution<double> nd;
  for (C& p : image)
    p = C(T(nd(rng)), T(nd(rng)));

  // Degrid: corrected image into the grid, forward FFT, interpolation per sample.
  std::vector<C> grid(std::size_t(nu) * nv, C(0));
  for (int iy = 0; iy < g.ny; ++iy)
    for (int ix = 0; ix < g.nx; ++ix)
      grid[devicePixelCell(ix, iy, g.nx, g.ny, nu, nv)] =
          image[std::size_t(iy) * g.nx + ix] * corr(ix, iy);
  fft2(grid, true);
  std::vector<C> emulated, reference;
  std::vector<std::vector<C>> cpu_vis(blocks.size());
  std::vector<C*> cpu_ptr;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    cpu_vis[b].resize(blocks[b].samples());
    cpu_ptr.push_back(cpu_vis[b].data());
    for (std::size_t i = 0; i < blocks[b].samples(); ++i) {
      double gu, gv;
      coordinates(blocks[b], i, gu, gv);
      T re, im;
      deviceDegridSample<T>(k, gu, gv, reinterpret_cast<const HostPair<T>*>(grid.data()), re, im);
      emulated.emplace_back(re, im);
    }
  }
  cpu->degrid(image.data(), cpu_ptr);
  for (const auto& v : cpu_vis)
    reference.insert(reference.end(), v.begin(), v.end());
  const double degrid_diff =
      test::l2RelativeError(emulated, std::vector<test::cd>(reference.begin(), reference.end()));

  // Grid: weighted spreading (weight-0 samples skipped), inverse FFT, correction.
  std::vector<std::vector<float>> weights(blocks.size());
  std::vector<const C*> vis_ptr;
  std::vector<const float*> w_ptr;
  std::fill(grid.begin(), grid.end(), C(0));
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    weights[b].resize(blocks[b].samples());
    for (std::size_t i = 0; i < weights[b].size(); ++i) {
      weights[b][i] = i % 17 == 3 ? 0.0f : float(0.5 + (i % 5) * 0.25);
      if (weights[b][i] == 0.0f)
        continue;
      double gu, gv;
      coordinates(blocks[b], i, gu, gv);
      const C v = cpu_vis[b][i] * T(weights[b][i]);
      deviceGridSample<T>(k, gu, gv, v.real(), v.imag(), reinterpret_cast<T*>(grid.data()),
                          [](T* target, T value) { *target += value; });
    }
    vis_ptr.push_back(cpu_vis[b].data());
    w_ptr.push_back(weights[b].data());
  }
  fft2(grid, false);
  std::vector<C> emulated_image(g.numPixels()), cpu_image(g.numPixels());
  for (int iy = 0; iy < g.ny; ++iy)
    for (int ix = 0; ix < g.nx; ++ix)
      emulated_image[std::size_t(iy) * g.nx + ix] =
          grid[devicePixelCell(ix, iy, g.nx, g.ny, nu, nv)] * corr(ix, iy);
  cpu->grid(vis_ptr, w_ptr, cpu_image.data());
  const double grid_diff = test::l2RelativeError(
      emulated_image, std::vector<test::cd>(cpu_image.begin(), cpu_image.end()));
  return {degrid_diff, grid_diff};
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
      const auto [degrid, grid] = c.single ? emulatedCudaVsCpu<float>(c.eps, c.kernel)
                                           : emulatedCudaVsCpu<double>(c.eps, c.kernel);
      qInfo("%s eps %.0e %s: degrid %.3g grid %.3g", c.single ? "float" : "double", c.eps,
            kernelTypeName(c.kernel).c_str(), degrid, grid);
      QVERIFY(degrid < 0.2 * c.eps + (c.single ? 2e-7 : 0.0));
      QVERIFY(grid < 0.2 * c.eps + (c.single ? 2e-7 : 0.0));
    }
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
    const BackendRequest autoReq{"auto", 0}, cpuReq{"cpu", 0}, cudaReq{"cuda", 0}, cuda1{"cuda", 1};
    // "cpu" always wins.
    QVERIFY(!decideBackend(cpuReq, false, inventoryWith(true, 2)).use_cuda);
    // "auto": CUDA only when built, a device exists at the index and no w-stacking.
    BackendDecision d = decideBackend(autoReq, false, inventoryWith(false, 0));
    QVERIFY(!d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("no CUDA backend"));
    d = decideBackend(autoReq, false, inventoryWith(true, 0));
    QVERIFY(!d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("no CUDA device: no driver"));
    d = decideBackend(autoReq, true, inventoryWith(true, 1));
    QVERIFY(!d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("w-stacking"));
    d = decideBackend(BackendRequest{"auto", 3}, false, inventoryWith(true, 1));
    QVERIFY(!d.use_cuda);
    d = decideBackend(autoReq, false, inventoryWith(true, 1));
    QVERIFY(d.use_cuda);
    QVERIFY(QString::fromStdString(d.reason).contains("Test GPU 0"));
    QVERIFY(decideBackend(cuda1, false, inventoryWith(true, 2)).use_cuda);
    // "cuda" that cannot be honoured: an InputError naming the setting at fault.
    QVERIFY(inputErrorOf([&] {
              decideBackend(cudaReq, false, inventoryWith(false, 0));
            }).startsWith("imaging.backend: cuda requested, but this build has no CUDA"));
    QVERIFY(inputErrorOf([&] {
              decideBackend(cudaReq, false, inventoryWith(true, 0));
            }).startsWith("imaging.backend: cuda requested, but no CUDA device"));
    QVERIFY(inputErrorOf([&] { decideBackend(cuda1, false, inventoryWith(true, 1)); })
                .startsWith("imaging.gpu_device: cuda requested, but CUDA device 1 does not "
                            "exist (1 found)"));
    QVERIFY(inputErrorOf([&] {
              decideBackend(cudaReq, true, inventoryWith(true, 1));
            }).contains("w-stacking"));
    QVERIFY(inputErrorOf([&] {
              decideBackend(BackendRequest{"opencl", 0}, false, inventoryWith(true, 1));
            }).contains("expected auto, cpu or cuda"));
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
    auto op = makeOperator<float>(g, s, BackendRequest{"cpu", 0}, &report);
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
    auto automatic = makeOperator<double>(g, s, BackendRequest{"auto", 0}, &report);
    qInfo("auto: %s", report.c_str());
    if (inv.devices.empty()) {
      QVERIFY(QString::fromStdString(report).startsWith("cpu (auto: "));
      QVERIFY(automatic->describe().find("backend=cuda") == std::string::npos);
      const QString e = inputErrorOf([&] {
        makeOperator<double>(g, s, BackendRequest{"cuda", 0});
      });
      QVERIFY2(e.startsWith("imaging.backend: cuda requested, but "), qPrintable(e));
    } else {
      QVERIFY(QString::fromStdString(report).startsWith("cuda device 0"));
      QVERIFY(automatic->describe().find("backend=cuda") != std::string::npos);
    }
    QVERIFY(!inputErrorOf([&] { makeOperator<float>(g, s, BackendRequest{"gpu", 0}); }).isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestOperatorFactory)
#include "test_operator_factory.moc"
