// Gridding / degridding throughput of the CUDA operator next to the CPU operator on the same data
// (float, epsilon 1e-4 unless given): 1e7 and 1e8 visibilities (one channel per row) at 2048^2 and
// 4096^2. Medians of 3 runs after a warm-up; the CPU uses every hardware thread and runs 1e7 only
// unless --cpu-all. Also the streaming path (blocks of 1e7 copied in per call) and the CUDA/CPU
// degrid difference. With --wstack WMAX the samples' w is uniform in [-WMAX, WMAX] wavelengths,
// the field is 20 times wider (10 arcsec cells) and both operators do w-stacking (no streaming
// column: w-stacking holds every block), CUDA with the tiled gridder and with one thread per
// sample (cuda-tiled, cuda-simple). Usage: bench_gpu_gridding [--cpu-all] [--eps E]
//   [--sizes 2048,4096] [--vis 1e7,1e8] [--device N] [--wstack WMAX]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/imaging/operator_factory.h"
#include "tests/benchmarks/bench_args.h"

using namespace apertura::imaging;
using cf = std::complex<float>;

namespace {

double median3(const std::function<void()>& f) {
  std::vector<double> t;
  for (int run = 0; run < 3; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[1];
}

double once(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Random baselines over 90% of the uv range the image supports (as bench_gridding), w uniform in
// [-w_max, w_max] wavelengths.
std::vector<double> randomUvw(const ImageGeometry& g, std::size_t rows, double freq, double w_max) {
  const double umax = 0.9 / (2.0 * std::abs(g.cell_l)) * kSpeedOfLight / freq;
  std::vector<double> uvw(3 * rows);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(7 + t);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      for (std::size_t r = t; r < rows; r += threads) {
        uvw[3 * r] = u(rng) * umax;
        uvw[3 * r + 1] = u(rng) * umax;
        uvw[3 * r + 2] = u(rng) * w_max * kSpeedOfLight / freq;
      }
    });
  for (auto& th : pool)
    th.join();
  return uvw;
}

double relativeL2(const std::vector<cf>& a, const std::vector<cf>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
    den += std::norm(std::complex<double>(b[i]));
  }
  return std::sqrt(num / den);
}

}  // namespace

int main(int argc, char** argv) {
  bool cpu_all = false;
  double eps = 1e-4, w_max = 0.0;
  int device = 0;
  std::vector<double> sizes{2048, 4096}, counts{1e7, 1e8};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--cpu-all"))
      cpu_all = true;
    else if (!std::strcmp(argv[i], "--eps") && i + 1 < argc)
      eps = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc)
      sizes = apertura::bench::parseList(argv[++i]);
    else if (!std::strcmp(argv[i], "--vis") && i + 1 < argc)
      counts = apertura::bench::parseList(argv[++i]);
    else if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      device = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--wstack") && i + 1 < argc)
      w_max = std::atof(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: %s [--cpu-all] [--eps E] [--sizes 2048,4096] [--vis 1e7,1e8] "
                   "[--device N] [--wstack WMAX]\n",
                   argv[0]);
      return 2;
    }
  }
  const GpuInventory inventory = queryGpuDevices();
  std::printf("devices: %s\n", inventory.describe().c_str());
  if (inventory.devices.empty()) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  const unsigned cpu_threads = std::max(1u, std::thread::hardware_concurrency());
  const bool wstack = w_max > 0.0;
  std::printf(
      "float, epsilon %.0e, 1 channel per row, medians of 3 runs after a warm-up; CPU on "
      "%u threads\n",
      eps, cpu_threads);
  if (wstack)
    std::printf("w-stacking, |w| <= %.0f wavelengths, 10 arcsec cells\n", w_max);
  std::printf("%-8s %-6s %-4s %5s %9s %10s %11s %10s %11s %10s %10s\n", "backend", "image", "vis",
              "W", "upload[s]", "grid[s]", "grid Mvis/s", "degrid[s]", "degr Mvis/s", "stream Mv/s",
              "vs CPU");
  for (double nd : sizes) {
    const int n = int(nd);
    const auto g = ImageGeometry::fromCell(n, n, (wstack ? 10.0 : 0.5) / 3600.0 * M_PI / 180.0);
    std::vector<cf> image(g.numPixels(), cf(0));
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> pix(0, n - 1);
    std::normal_distribution<float> flux;
    for (int k = 0; k < 1000; ++k)
      image[std::size_t(pix(rng)) * n + pix(rng)] = cf(flux(rng), 0);
    std::vector<cf> out(g.numPixels());
    for (double nv : counts) {
      const std::size_t nvis = std::size_t(nv);
      const double freq = 1.0e9;
      const std::vector<double> uvw = randomUvw(g, nvis, freq, w_max);
      const UvwBlock block{uvw.data(), nvis, &freq, 1};
      OperatorSettings s;
      s.epsilon = eps;
      s.w_stacking = wstack;
      std::vector<cf> vis_gpu(nvis), vis_cpu;
      char label[16];
      std::snprintf(label, sizeof label, "%.0e", nv);
      // With w-stacking both gridders: the tiled one (the default) and one thread per sample.
      for (const char* gridder : wstack ? std::vector<const char*>{"tiled", "simple"}
                                        : std::vector<const char*>{"tiled"}) {
        setenv("APERTURA_CUDA_GRIDDER", gridder, 1);
        std::string report;
        auto op = makeOperator<float>(g, s, BackendRequest{Backend::Cuda, device}, &report);
        unsetenv("APERTURA_CUDA_GRIDDER");
        const double t_upload = once([&] { op->setSamples({block}); });
        op->degrid(image.data(), {vis_gpu.data()});  // warm-up (cuFFT plans, first launches)
        const double t_degrid = median3([&] { op->degrid(image.data(), {vis_gpu.data()}); });
        op->grid({vis_gpu.data()}, {nullptr}, out.data());
        const double t_grid = median3([&] { op->grid({vis_gpu.data()}, {nullptr}, out.data()); });
        // Streaming: blocks of 1e7 planned one at a time (uvw and vis copied in per call).
        char stream[32] = "-";
        if (!wstack) {
          const std::size_t chunk = std::min<std::size_t>(nvis, 10000000);
          std::vector<std::unique_ptr<PlannedBlock>> plans;
          for (std::size_t r = 0; r < nvis; r += chunk)
            plans.push_back(
                op->planBlock(UvwBlock{uvw.data() + 3 * r, std::min(chunk, nvis - r), &freq, 1}));
          const double t_stream = median3([&] {
            op->prepareDegrid(image.data());
            for (std::size_t b = 0; b < plans.size(); ++b)
              op->degridBlock(*plans[b], vis_gpu.data() + b * chunk);
          });
          std::snprintf(stream, sizeof stream, "%.1f", nvis / t_stream / 1e6);
        }
        const std::string backend =
            std::string("cuda") + (wstack ? std::string("-") + gridder : "");
        std::printf("%-8s %-6d %-4s %5d %9.3f %10.4f %11.1f %10.4f %11.1f %10s %10s\n",
                    backend.c_str(), n, label, op->kernel().support, t_upload, t_grid,
                    nvis / t_grid / 1e6, t_degrid, nvis / t_degrid / 1e6, stream, "");
        if (wstack)
          std::printf("  %s\n", op->describe().c_str());
        std::fflush(stdout);
        op->degrid(image.data(), {vis_gpu.data()});
      }
      if (nvis <= 10000000 || cpu_all) {
        vis_cpu.resize(nvis);
        s.threads = int(cpu_threads);
        auto op = makeCpuOperator<float>(g, s);
        const double t_plan = once([&] { op->setSamples({block}); });
        op->degrid(image.data(), {vis_cpu.data()});
        const double t_degrid = median3([&] { op->degrid(image.data(), {vis_cpu.data()}); });
        const double t_grid = median3([&] { op->grid({vis_cpu.data()}, {nullptr}, out.data()); });
        char diff[32];
        std::snprintf(diff, sizeof diff, "%.2e", relativeL2(vis_gpu, vis_cpu));
        std::printf("%-8s %-6d %-4s %5d %9.3f %10.4f %11.1f %10.4f %11.1f %10s %10s\n", "cpu", n,
                    label, op->kernel().support, t_plan, t_grid, nvis / t_grid / 1e6, t_degrid,
                    nvis / t_degrid / 1e6, "-", diff);
        std::fflush(stdout);
      }
    }
  }
  std::printf(
      "upload: setSamples (CUDA: uvw to the device%s; CPU: tile planning). vs CPU: relative "
      "L2 difference of the degridded visibilities.\n",
      wstack ? ", the samples sorted by w plane" : "");
  return 0;
}
