// The CUDA operator's tiled gridder (core/imaging/device_tiles.h) on a device (label gpu): against
// the simple gridder (APERTURA_CUDA_GRIDDER=simple) and the CPU operator, on a block so dense at
// the centre that its tiles are cut into many work items and on samples whose kernels wrap around
// the grid's edges. Plain C++; without a CUDA device it prints SKIPPED and exits 77.
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/imaging/operator_factory.h"
#include "tests/gpu/cuda_check_support.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

// 300000 rows within a few grid cells of the centre (thousands per tile: many work items per
// tile), and 20000 rows of 3 channels out to 99.9% of the uv range (kernels crossing the edges).
struct DenseFixture : Fixture {
  DenseFixture() : Fixture(ImageGeometry::fromCell(256, 224, 1.0 * kArcsec)) {
    std::mt19937 rng(41);
    TestBlock dense;
    dense.freq = {1.4e9};
    const double umax = 1.0 / (2.0 * g.cell_l) * kSpeedOfLight / 1.4e9;
    std::normal_distribution<double> nd(0.0, 0.03 * umax);
    for (int r = 0; r < 300000; ++r)
      dense.uvw.insert(dense.uvw.end(), {nd(rng), nd(rng), 0.0});
    blocks.push_back(std::move(dense));
    blocks.push_back(randomBlock(rng, g, 20000, {1.2e9, 1.3e9, 1.4e9}, 0.999));
    addViewsAndWeights(rng);
  }
};

template <typename T>
std::unique_ptr<ImagingOperator<T>> withGridder(const ImageGeometry& g, const OperatorSettings& s,
                                                const char* gridder) {
  setenv("APERTURA_CUDA_GRIDDER", gridder, 1);
  auto op = cudaOperator<T>(g, s);
  unsetenv("APERTURA_CUDA_GRIDDER");
  return op;
}

template <typename T>
void tiledAgainstSimple(const DenseFixture& f, double eps, bool double_accumulation,
                        double tolerance) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = eps;
  s.double_accumulation = double_accumulation;
  auto tiled = withGridder<T>(f.g, s, "tiled");
  auto simple = withGridder<T>(f.g, s, "simple");
  auto cpu = makeCpuOperator<T>(f.g, s);
  char eps_text[16];
  std::snprintf(eps_text, sizeof eps_text, "%.0e", eps);
  const std::string name = std::string(precision<T>()) +
                           (double_accumulation ? " (double accumulation)" : "") + " eps " +
                           eps_text;
  expect(tiled->describe().find("gridder=tiled") != std::string::npos &&
             simple->describe().find("gridder=simple") != std::string::npos,
         "%s: describe() names the gridder: %s", name.c_str(), tiled->describe().c_str());
  for (auto* op : {tiled.get(), simple.get(), cpu.get()})
    op->setSamples(f.views);

  std::mt19937 rng(43);
  const std::vector<C> image = cast<T>(randomComplex(rng, f.g.numPixels()));
  std::vector<std::vector<C>> vt(f.blocks.size()), vs(f.blocks.size()), data(f.blocks.size());
  std::vector<C*> pt, ps;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    vt[b].resize(f.blocks[b].samples());
    vs[b].resize(f.blocks[b].samples());
    data[b] = cast<T>(randomComplex(rng, f.blocks[b].samples()));
    pt.push_back(vt[b].data());
    ps.push_back(vs[b].data());
  }
  tiled->degrid(image.data(), pt);
  simple->degrid(image.data(), ps);
  bool same = true;
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    same = same && sameBits(vt[b], vs[b]);
  expect(same, "%s: degrid in tile order equals the simple order bitwise", name.c_str());

  std::vector<const C*> cv;
  std::vector<const float*> cw;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    cv.push_back(data[b].data());
    cw.push_back(f.weights[b].data());
  }
  std::vector<C> it(f.g.numPixels()), is(f.g.numPixels()), ic(f.g.numPixels()),
      istream(f.g.numPixels());
  tiled->grid(cv, cw, it.data());  // warm-up
  auto t0 = std::chrono::steady_clock::now();
  tiled->grid(cv, cw, it.data());
  const double t_tiled = secondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  simple->grid(cv, cw, is.data());
  const double t_simple = secondsSince(t0);
  cpu->grid(cv, cw, ic.data());
  const double d_simple = relativeL2(it, is), d_cpu = relativeL2(it, ic);
  expect(d_simple <= tolerance,
         "%s: grid tiled vs simple relative L2 %.3g (<= %.g; %.4f vs %.4f s)", name.c_str(),
         d_simple, tolerance, t_tiled, t_simple);
  expect(d_cpu <= eps, "%s: grid tiled vs CPU relative L2 %.3g (<= %.g)", name.c_str(), d_cpu, eps);

  // Streaming calls over blocks planned together (tiled) against the whole call.
  const auto plans = tiled->planBlocks(f.views);
  tiled->beginGrid();
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    tiled->gridBlock(*plans[b], cv[b], cw[b]);
  tiled->endGrid(istream.data());
  const double d_stream = relativeL2(istream, it);
  expect(d_stream <= tolerance, "%s: streaming tiled grid vs grid() relative L2 %.3g (<= %.g)",
         name.c_str(), d_stream, tolerance);

  // The chi2 pass: chi2 summed in the samples' order either way (bitwise equal), the residuals
  // spread by the tiled gridder.
  std::vector<std::vector<std::complex<float>>> vis(f.blocks.size());
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    vis[b].assign(data[b].begin(), data[b].end());
  const auto simple_plans = simple->planBlocks(f.views);
  double chi2_t = 0.0, chi2_s = 0.0;
  std::vector<C> gt(f.g.numPixels()), gs(f.g.numPixels());
  for (auto [op, planned, chi2, out] : {std::tuple{tiled.get(), &plans, &chi2_t, &gt},
                                        std::tuple{simple.get(), &simple_plans, &chi2_s, &gs}}) {
    op->prepareDegrid(image.data());
    op->beginGrid();
    for (std::size_t b = 0; b < f.blocks.size(); ++b)
      *chi2 += op->residualBlock(*(*planned)[b], vis[b].data(), f.weights[b].data(), true);
    op->endGrid(out->data());
  }
  const double d_residual = relativeL2(gt, gs);
  expect(chi2_t == chi2_s, "%s: chi2 with the tiled gridder %.17g equals the simple one's %.17g",
         name.c_str(), chi2_t, chi2_s);
  expect(d_residual <= tolerance, "%s: gridded residuals tiled vs simple relative L2 %.3g (<= %.g)",
         name.c_str(), d_residual, tolerance);
}

}  // namespace

int main(int argc, char** argv) {
  const DenseFixture f;
  return runChecks(argc, argv, {{"gridding", [&] {
                                   tiledAgainstSimple<float>(f, 1e-4, false, 1e-5);
                                   tiledAgainstSimple<float>(f, 1e-4, true, 1e-7);
                                   tiledAgainstSimple<double>(f, 1e-9, false, 1e-13);
                                 }}});
}
