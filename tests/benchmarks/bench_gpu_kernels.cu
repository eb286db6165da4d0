// Throughput of the CUDA operator's kernels with everything already on the device (as in the RML
// loop, where the visibilities stay there between iterations): gridding with the simple kernel
// (one thread per sample, atomics on the grid) and the tiled one, in float and into the double
// accumulation grid, degridding in sample and in tile order, and the chi2 pass both ways. Samples
// are generated on the device, uniform over 90% of the uv plane or concentrated at its centre
// (Gaussian, sigma 2.5% of the grid: dense tiles, colliding atomics). Mvis/s from CUDA events,
// medians of 5 runs after a warm-up; float, epsilon 1e-4 unless given.
// Usage: bench_gpu_kernels [--sizes 2048,4096] [--vis 1e7,1e8] [--eps E]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/cuda/tiled_gridding.cuh"
#include "core/imaging/device_kernel.h"
#include "core/imaging/operator_layout.h"
#include "tests/benchmarks/bench_args.h"

using namespace apertura;
using namespace apertura::cuda;

namespace {

__device__ double hashUniform(unsigned long long i) {  // splitmix64 -> [0, 1)
  unsigned long long z = i + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * (1.0 / 9007199254740992.0);
}

// uvw in grid cells (the scales are 1), visibilities of unit size, weights 1.
__global__ void makeSamples(unsigned long long n, int nu, int nv, bool central, double* uvw,
                            float2* vis, float* weights) {
  const unsigned long long i = threadIndex();
  if (i >= n)
    return;
  const double a = hashUniform(4 * i), b = hashUniform(4 * i + 1);
  double u, v;
  if (central) {
    const double r = sqrt(-2.0 * log(1.0 - a)) * 0.025, phi = 6.283185307179586 * b;
    u = r * cos(phi) * nu;
    v = r * sin(phi) * nv;
  } else {
    u = (2.0 * a - 1.0) * 0.45 * nu;
    v = (2.0 * b - 1.0) * 0.45 * nv;
  }
  uvw[3 * i] = u;
  uvw[3 * i + 1] = v;
  uvw[3 * i + 2] = 0.0;
  const double phase = 6.283185307179586 * hashUniform(4 * i + 2);
  vis[i] = make_float2(float(cos(phase)), float(sin(phase)));
  weights[i] = 1.0f;
}

// Median seconds of 5 runs of `launch` after a warm-up, `reset` (not timed) before each.
double timed(const std::function<void()>& reset, const std::function<void()>& launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> t;
  for (int run = 0; run < 6; ++run) {
    reset();
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    check(cudaEventSynchronize(stop), "benchmark kernel");
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    if (run > 0)
      t.push_back(ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void run(int size, double nvis, double eps, bool central) {
  imaging::OperatorSettings settings;
  settings.epsilon = eps;
  const imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(size, size, 1e-6);
  const imaging::OperatorLayout layout = imaging::makeOperatorLayout(g, settings, true);
  const imaging::DeviceKernelParams k =
      imaging::packDeviceKernel(layout.kernel, layout.grid_u, layout.grid_v);
  const std::size_t n = std::size_t(nvis), cells = std::size_t(k.grid_u) * k.grid_v;
  const unsigned threads = 256, blocks = unsigned((n + threads - 1) / threads);
  const unsigned chi2_blocks = std::min(blocks, 2048u);
  ByteCounter bytes = std::make_shared<std::atomic<std::int64_t>>(0);
  DeviceArray<double> uvw, scale, wide, partial, terms;
  DeviceArray<float2> vis, grid, model, predicted;
  DeviceArray<float> weights;
  const std::string what = "the benchmark";
  uvw.reserve(3 * n, 0, what);
  scale.reserve(1, 0, what);
  vis.reserve(n, 0, what);
  predicted.reserve(n, 0, what);
  weights.reserve(n, 0, what);
  grid.reserve(cells, 0, what);
  model.reserve(cells, 0, what);
  wide.reserve(2 * cells, 0, what);
  partial.reserve(chi2_blocks, 0, what);
  terms.reserve(n, 0, what);
  const double one = 1.0;
  check(cudaMemcpy(scale.data(), &one, sizeof one, cudaMemcpyHostToDevice), "upload");
  makeSamples<<<blocks, threads>>>(n, k.grid_u, k.grid_v, central, uvw.data(), vis.data(),
                                   weights.data());
  check(cudaMemset(model.data(), 0, cells * sizeof(float2)), "memset");
  check(cudaDeviceSynchronize(), "sample generation");
  SampleArgs s;
  s.uvw = uvw.data();
  s.scale_u = scale.data();
  s.scale_v = scale.data();
  s.count = n;
  s.channels = 1;

  DeviceTilePlan plan;
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0);
  plan.make(k, s, threads, nullptr, 0, bytes);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float plan_ms = 0.0f;
  cudaEventElapsedTime(&plan_ms, t0, t1);
  const TileArgs tiles = plan.args();
  const std::size_t shared_f = tiledGridSharedBytes<float>(plan.tiling),
                    shared_d = tiledGridSharedBytes<double>(plan.tiling);

  auto zero_grid = [&] { cudaMemset(grid.data(), 0, cells * sizeof(float2)); };
  auto zero_wide = [&] { cudaMemset(wide.data(), 0, 2 * cells * sizeof(double)); };
  auto none = [] {};
  float* fgrid = reinterpret_cast<float*>(grid.data());
  const double grid_simple = timed(zero_grid, [&] {
    gridKernel<float, float><<<blocks, threads>>>(k, s, vis.data(), weights.data(), fgrid);
  });
  const double grid_tiled = timed(zero_grid, [&] {
    tiledGridKernel<float, float><<<unsigned(plan.items), threads, shared_f>>>(
        k, s, tiles, vis.data(), weights.data(), fgrid);
  });
  const double wide_simple = timed(zero_wide, [&] {
    gridKernel<float, double><<<blocks, threads>>>(k, s, vis.data(), weights.data(), wide.data());
  });
  const double wide_tiled = timed(zero_wide, [&] {
    tiledGridKernel<float, double><<<unsigned(plan.items), threads, shared_d>>>(
        k, s, tiles, vis.data(), weights.data(), wide.data());
  });
  const double degrid_plain = timed(none, [&] {
    degridKernel<float><<<blocks, threads>>>(k, s, model.data(), nullptr, predicted.data());
  });
  const double degrid_sorted = timed(none, [&] {
    degridKernel<float><<<blocks, threads>>>(k, s, model.data(), tiles.order, predicted.data());
  });
  const double chi2_fused = timed(zero_wide, [&] {
    chi2Kernel<float, double><<<chi2_blocks, threads>>>(
        k, s, model.data(), vis.data(), weights.data(), wide.data(), partial.data());
  });
  const double chi2_tiled = timed(zero_wide, [&] {
    tiledChi2Kernel<float, double><<<unsigned(plan.items), threads, shared_d>>>(
        k, s, tiles, model.data(), vis.data(), weights.data(), wide.data(), terms.data());
    sumTermsKernel<<<chi2_blocks, threads>>>(terms.data(), n, partial.data());
  });
  check(cudaGetLastError(), "benchmark kernels");
  const auto mvis = [&](double seconds) { return nvis / seconds / 1e6; };
  std::printf(
      "%-7s %5d %6.0e %3d %5zu %8.1f | %8.0f %8.0f | %8.0f %8.0f | %8.0f %8.0f | %8.0f %8.0f\n",
      central ? "central" : "uniform", size, nvis, k.support, plan.items, plan_ms,
      mvis(grid_simple), mvis(grid_tiled), mvis(wide_simple), mvis(wide_tiled), mvis(degrid_plain),
      mvis(degrid_sorted), mvis(chi2_fused), mvis(chi2_tiled));
  std::fflush(stdout);
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> sizes{2048, 4096}, vis{1e7, 1e8};
  double eps = 1e-4;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--sizes"))
      sizes = bench::parseList(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--vis"))
      vis = bench::parseList(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--eps"))
      eps = std::atof(argv[i + 1]);
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf(
      "device: %s, %d SMs; float, epsilon %.0e, data resident on the device, "
      "medians of 5; Mvis/s\n",
      prop.name, prop.multiProcessorCount, eps);
  std::printf("%-7s %5s %6s %3s %5s %8s | %17s | %17s | %17s | %17s\n", "uv", "image", "vis", "W",
              "items", "plan[ms]", "grid simple tiled", "double simple tiled",
              "degrid plain tile-order", "chi2 fused tiled");
  try {
    for (double size : sizes)
      for (double n : vis)
        for (bool central : {false, true})
          run(int(size), n, eps, central);
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return 0;
}
