// The CUDA imaging operator on a device (label gpu): against the CPU operator and the direct
// Fourier sums, adjointness, streaming calls against whole calls, the threads-per-block setting
// and the memory error. One program, one check per CTest entry (its argument). Without a CUDA
// device it prints SKIPPED and exits 77, which CTest reports as skipped.
// Plain C++ (no Qt), so the program runs on a machine that has the CUDA runtime but not Qt.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/imaging/operator_factory.h"
#include "core/util/input_error.h"
#include "tests/gpu/cuda_check_support.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

// Degrid and grid (with weights) of the CUDA operator against the CPU operator on the same data,
// and both against the direct sums on a subset.
template <typename T>
void compareWithCpu(const Fixture& f, double eps, KernelType kernel) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = eps;
  s.kernel = kernel;
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  cpu->setSamples(f.views);
  gpu->setSamples(f.views);
  std::mt19937 rng(17);
  const std::vector<cd> image_d = randomComplex(rng, f.g.numPixels());
  const std::vector<C> image = cast<T>(image_d);

  std::vector<std::vector<C>> vc(f.blocks.size()), vg(f.blocks.size());
  std::vector<C*> pc, pg;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    vc[b].resize(f.blocks[b].samples());
    vg[b].resize(f.blocks[b].samples());
    pc.push_back(vc[b].data());
    pg.push_back(vg[b].data());
  }
  cpu->degrid(image.data(), pc);
  auto t0 = std::chrono::steady_clock::now();
  gpu->degrid(image.data(), pg);
  const double t_degrid = secondsSince(t0);
  std::vector<C> all_c, all_g;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    all_c.insert(all_c.end(), vc[b].begin(), vc[b].end());
    all_g.insert(all_g.end(), vg[b].begin(), vg[b].end());
  }
  const double degrid_diff = relativeL2(all_g, all_c);

  // The direct sum on the first 300 samples of block 0.
  TestBlock head = f.blocks[0];
  head.uvw.resize(3 * 300);
  const std::vector<cd> exact = directDegrid(f.g, image_d, head, false);
  const std::vector<C> gpu_head(vg[0].begin(), vg[0].begin() + 300);
  const std::vector<C> cpu_head(vc[0].begin(), vc[0].begin() + 300);
  const double dft_gpu = l2RelativeError(gpu_head, exact);
  const double dft_cpu = l2RelativeError(cpu_head, exact);

  std::vector<const C*> cv;
  std::vector<const float*> cw;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    cv.push_back(vg[b].data());
    cw.push_back(f.weights[b].data());
  }
  std::vector<C> ic(f.g.numPixels()), ig(f.g.numPixels());
  cpu->grid(cv, cw, ic.data());
  t0 = std::chrono::steady_clock::now();
  gpu->grid(cv, cw, ig.data());
  const double t_grid = secondsSince(t0);
  const double grid_diff = relativeL2(ig, ic);

  // Grid of 300 samples alone against the direct sum.
  std::vector<cd> small_vis = randomComplex(rng, 300);
  std::vector<float> small_w(f.weights[0].begin(), f.weights[0].begin() + 300);
  std::vector<cd> grid_exact;
  directGridAdd(f.g, small_vis, &small_w, head, false, grid_exact);
  auto gpu_small = cudaOperator<T>(f.g, s);
  gpu_small->setSamples({head.view()});
  const std::vector<C> sv = cast<T>(small_vis);
  std::vector<C> small_image(f.g.numPixels());
  gpu_small->grid({sv.data()}, {small_w.data()}, small_image.data());
  const double dft_grid = l2RelativeError(small_image, grid_exact);

  const std::string name = std::string(precision<T>()) + " eps " + std::to_string(eps) +
                           " kernel " + kernelTypeName(kernel) + " W " +
                           std::to_string(gpu->kernel().support);
  expect(degrid_diff <= eps, "%s: degrid CUDA vs CPU relative L2 %.3g (<= %.g; %.3f s)",
         name.c_str(), degrid_diff, eps, t_degrid);
  expect(grid_diff <= eps, "%s: grid CUDA vs CPU relative L2 %.3g (<= %.g; %.3f s)", name.c_str(),
         grid_diff, eps, t_grid);
  expect(dft_gpu <= 2 * eps, "%s: degrid CUDA vs direct sum %.3g (CPU %.3g; <= 2 eps)",
         name.c_str(), dft_gpu, dft_cpu);
  expect(dft_grid <= 2 * eps, "%s: grid CUDA vs direct sum %.3g (<= 2 eps)", name.c_str(),
         dft_grid);
  expect(gpu->gridCellsX() == cpu->gridCellsX() && gpu->gridCellsY() == cpu->gridCellsY() &&
             gpu->kernel().support == cpu->kernel().support,
         "%s: same grid %dx%d and support as the CPU", name.c_str(), gpu->gridCellsX(),
         gpu->gridCellsY());
}

// <A x, y> = <x, A^H y> on the device, relative to ||A x|| ||y||.
template <typename T>
void adjointness(const Fixture& f, double eps, double tolerance) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = eps;
  auto op = cudaOperator<T>(f.g, s);
  op->setSamples(f.views);
  std::mt19937 rng(23);
  const std::vector<C> x = cast<T>(randomComplex(rng, f.g.numPixels()));
  std::vector<std::vector<C>> ax(f.blocks.size()), y(f.blocks.size());
  std::vector<C*> pa;
  std::vector<const C*> py;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    ax[b].resize(f.blocks[b].samples());
    y[b] = cast<T>(randomComplex(rng, f.blocks[b].samples()));
    pa.push_back(ax[b].data());
    py.push_back(y[b].data());
  }
  op->degrid(x.data(), pa);
  std::vector<C> ahy(f.g.numPixels());
  op->grid(py, std::vector<const float*>(f.blocks.size(), nullptr), ahy.data());
  cd lhs = 0, rhs = 0;
  double nax = 0, ny = 0;
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    for (std::size_t k = 0; k < y[b].size(); ++k) {
      lhs += cd(ax[b][k]) * std::conj(cd(y[b][k]));
      nax += std::norm(cd(ax[b][k]));
      ny += std::norm(cd(y[b][k]));
    }
  for (std::size_t p = 0; p < x.size(); ++p)
    rhs += cd(x[p]) * std::conj(cd(ahy[p]));
  const double err = std::abs(lhs - rhs) / std::sqrt(nax * ny);
  expect(err <= tolerance, "%s adjointness |<Ax,y> - <x,A^H y>| / (|Ax||y|) = %.3g (<= %.g)",
         precision<T>(), err, tolerance);
}

// Streaming calls against whole calls on the same operator data: blocks planned together
// (resident on the device) and one at a time (copied in per call). Degridding is deterministic
// (bitwise equal); gridding sums with atomics in any order, so it agrees to rounding.
template <typename T>
void streaming(const Fixture& f, double eps, double grid_tolerance) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = eps;
  auto held = cudaOperator<T>(f.g, s);
  auto streamed = cudaOperator<T>(f.g, s);
  held->setSamples(f.views);
  std::mt19937 rng(29);
  const std::vector<C> image = cast<T>(randomComplex(rng, f.g.numPixels()));
  std::vector<std::vector<C>> vh(f.blocks.size()), vs(f.blocks.size()), vo(f.blocks.size());
  std::vector<C*> ph;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    vh[b].resize(f.blocks[b].samples());
    vs[b].resize(f.blocks[b].samples());
    vo[b].resize(f.blocks[b].samples());
    ph.push_back(vh[b].data());
  }
  held->degrid(image.data(), ph);
  const auto together = streamed->planBlocks(f.views);
  streamed->prepareDegrid(image.data());
  bool same_together = true, same_alone = true;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    streamed->degridBlock(*together[b], vs[b].data());
    const auto alone = streamed->planBlock(f.views[b]);
    streamed->degridBlock(*alone, vo[b].data());
    same_together = same_together && sameBits(vs[b], vh[b]);
    same_alone = same_alone && sameBits(vo[b], vh[b]);
  }
  expect(same_together, "%s streaming degrid (blocks planned together) equals degrid() bitwise",
         precision<T>());
  expect(same_alone, "%s streaming degrid (blocks planned one at a time) equals degrid() bitwise",
         precision<T>());

  std::vector<const C*> cv;
  std::vector<const float*> cw;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    cv.push_back(vh[b].data());
    cw.push_back(f.weights[b].data());
  }
  std::vector<C> ih(f.g.numPixels()), is(f.g.numPixels()), io(f.g.numPixels());
  held->grid(cv, cw, ih.data());
  streamed->beginGrid();
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    streamed->gridBlock(*together[b], cv[b], cw[b]);
  streamed->endGrid(is.data());
  streamed->beginGrid();
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    streamed->gridBlock(*streamed->planBlock(f.views[b]), cv[b], cw[b]);
  streamed->endGrid(io.data());
  const double d1 = relativeL2(is, ih), d2 = relativeL2(io, ih);
  expect(d1 <= grid_tolerance && d2 <= grid_tolerance,
         "%s streaming grid equals grid(): relative L2 %.3g (together), %.3g (one at a time); "
         "<= %.g",
         precision<T>(), d1, d2, grid_tolerance);
}

// One block larger than the 32 MiB pinned staging buffers (copies in several pieces), resident
// against copied in per call.
void largeBlock() {
  using C = std::complex<float>;
  const ImageGeometry g = ImageGeometry::fromCell(512, 512, 1.0 * kArcsec);
  std::mt19937 rng(31);
  const TestBlock big = randomBlock(rng, g, 5000000, {1.4e9});
  OperatorSettings s;
  auto op = cudaOperator<float>(g, s);
  op->setSamples({big.view()});
  std::vector<C> image(g.numPixels());
  std::normal_distribution<float> nd;
  for (auto& p : image)
    p = C(nd(rng), 0.0f);
  std::vector<C> v1(big.samples()), v2(big.samples());
  op->degrid(image.data(), {v1.data()});
  const auto plan = op->planBlock(big.view());
  op->prepareDegrid(image.data());
  op->degridBlock(*plan, v2.data());
  expect(sameBits(v1, v2), "5e6-sample block: staged degridBlock equals resident degrid bitwise");
  std::vector<C> i1(g.numPixels()), i2(g.numPixels());
  op->grid({v1.data()}, {nullptr}, i1.data());
  op->beginGrid();
  op->gridBlock(*plan, v1.data(), nullptr);
  op->endGrid(i2.data());
  const double d = relativeL2(i2, i1);
  expect(d <= 1e-5, "5e6-sample block: staged gridBlock equals resident grid, relative L2 %.3g", d);
}

// APERTURA_CUDA_THREADS changes the launch, not the result (degridding is deterministic).
void threadsPerBlock(const Fixture& f) {
  using C = std::complex<float>;
  OperatorSettings s;
  std::mt19937 rng(37);
  const std::vector<C> image = cast<float>(randomComplex(rng, f.g.numPixels()));
  auto degridAll = [&](ImagingOperator<float>& op) {
    op.setSamples(f.views);
    std::vector<std::vector<C>> v(f.blocks.size());
    std::vector<C*> p;
    for (std::size_t b = 0; b < f.blocks.size(); ++b) {
      v[b].resize(f.blocks[b].samples());
      p.push_back(v[b].data());
    }
    op.degrid(image.data(), p);
    std::vector<C> all;
    for (const auto& x : v)
      all.insert(all.end(), x.begin(), x.end());
    return all;
  };
  unsetenv("APERTURA_CUDA_THREADS");
  auto op256 = cudaOperator<float>(f.g, s);
  const auto a = degridAll(*op256);
  setenv("APERTURA_CUDA_THREADS", "64", 1);
  auto op64 = cudaOperator<float>(f.g, s);
  const auto b = degridAll(*op64);
  expect(op64->describe().find("threads_per_block=64") != std::string::npos,
         "APERTURA_CUDA_THREADS=64 is used: %s", op64->describe().c_str());
  expect(sameBits(a, b), "64 and 256 threads per block degrid the same bits");
  setenv("APERTURA_CUDA_THREADS", "100", 1);
  bool refused = false;
  try {
    cudaOperator<float>(f.g, s);
  } catch (const InputError& e) {
    refused = std::string(e.what()).find("APERTURA_CUDA_THREADS") != std::string::npos;
  }
  expect(refused, "APERTURA_CUDA_THREADS=100 is refused with an InputError naming it");
  unsetenv("APERTURA_CUDA_THREADS");
}

// A grid no device holds: a clear InputError with the amount needed, no crash.
template <typename T>
void memoryError() {
  const ImageGeometry g = ImageGeometry::fromCell(65536, 65536, 0.01 * kArcsec);
  OperatorSettings s;
  std::string message;
  try {
    cudaOperator<T>(g, s);
  } catch (const InputError& e) {
    message = e.what();
  }
  std::printf("message: %s\n", message.c_str());
  expect(message.find("needs") != std::string::npos && message.find("GiB") != std::string::npos &&
             message.find("imaging.backend") != std::string::npos,
         "%s 65536^2 image: InputError naming imaging.backend and the GiB needed", precision<T>());
  // The device is still usable afterwards.
  Fixture f;
  adjointness<T>(f, std::is_same_v<T, float> ? 1e-4 : 1e-9,
                 std::is_same_v<T, float> ? 1e-5 : 1e-12);
}

// ImagingOperator::deviceBytes() (the engine's gpu_bytes): at least the two grids and the image
// once created, plus the resident uvw after setSamples(); planned blocks give theirs back when
// destroyed.
template <typename T>
void deviceBytes(const Fixture& f) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  auto op = cudaOperator<T>(f.g, s);
  const std::uint64_t cells = std::uint64_t(op->gridCellsX()) * std::uint64_t(op->gridCellsY());
  const std::uint64_t created = op->deviceBytes();
  const std::uint64_t floor = 2 * cells * sizeof(C) + f.g.numPixels() * sizeof(C);
  expect(created >= floor, "%s deviceBytes() after creation %llu >= grids and image %llu",
         precision<T>(), (unsigned long long)created, (unsigned long long)floor);
  std::uint64_t uvw = 0;
  for (const UvwBlock& v : f.views)
    uvw += 3 * v.num_rows * sizeof(double);
  op->setSamples(f.views);
  const std::uint64_t held = op->deviceBytes();
  expect(held >= created + uvw, "%s deviceBytes() with samples %llu >= %llu + uvw %llu",
         precision<T>(), (unsigned long long)held, (unsigned long long)created,
         (unsigned long long)uvw);
  {
    const auto plans = op->planBlocks(f.views);
    expect(op->deviceBytes() >= held + uvw, "%s planned blocks' uvw counted", precision<T>());
  }
  expect(op->deviceBytes() == held, "%s planned blocks give their bytes back: %llu == %llu",
         precision<T>(), (unsigned long long)op->deviceBytes(), (unsigned long long)held);
}

}  // namespace

int main(int argc, char** argv) {
  const Fixture f;
  return runChecks(argc, argv,
                   {{"compare",
                     [&] {
                       compareWithCpu<float>(f, 1e-4, KernelType::ExpSemicircle);
                       compareWithCpu<float>(f, 1e-5, KernelType::ExpSemicircle);
                       compareWithCpu<float>(f, 1e-4, KernelType::KaiserBessel);
                       compareWithCpu<double>(f, 1e-8, KernelType::ExpSemicircle);
                       compareWithCpu<double>(f, 1e-12, KernelType::ExpSemicircle);
                       compareWithCpu<double>(f, 1e-9, KernelType::KaiserBessel);
                     }},
                    {"adjoint",
                     [&] {
                       adjointness<float>(f, 1e-5, 1e-5);
                       adjointness<double>(f, 1e-9, 1e-12);
                     }},
                    {"streaming",
                     [&] {
                       streaming<float>(f, 1e-4, 1e-6);
                       streaming<double>(f, 1e-9, 1e-13);
                       largeBlock();
                     }},
                    {"bytes",
                     [&] {
                       deviceBytes<float>(f);
                       deviceBytes<double>(f);
                     }},
                    {"threads", [&] { threadsPerBlock(f); }},
                    {"memory", [&] {
                       memoryError<float>();
                       memoryError<double>();
                     }}});
}
