#pragma once

// The CUDA operator's computation run on the host: its per-pixel and per-sample functions
// (core/imaging/device_gridding.h) with the layout the factory gives it and FFTW for cuFFT, in
// the CUDA operator's order of steps, compared with the CPU operator. Lets the device's
// conventions be tested without a GPU (tests/imaging/test_operator_factory).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/imaging/device_gridding.h"
#include "core/imaging/device_tiles.h"
#include "core/imaging/fft_plans.h"
#include "core/imaging/operator_factory.h"
#include "core/imaging/operator_layout.h"
#include "tests/imaging/dft_reference.h"

namespace apertura::imaging::test {

template <typename T>
struct HostPair {
  T x, y;
};

// Two blocks (1 and 3 channels) on a 96 x 80 image, the CPU operator on them, and the device's
// steps around its grid. With w_max_lambda > 0 the samples have |w| up to it and the CPU operator
// does w-stacking.
template <typename T>
class EmulatedCuda {
 public:
  using C = std::complex<T>;

  EmulatedCuda(double eps, KernelType kernel, int nx = 96, int ny = 80, double cell_arcsec = 1.0,
               double w_max_lambda = 0.0)
      : g(ImageGeometry::fromCell(nx, ny, cell_arcsec * M_PI / 180.0 / 3600.0)) {
    std::mt19937 rng(7);
    blocks = {randomBlock(rng, g, 1500, {1.4e9}, 0.95, w_max_lambda),
              randomBlock(rng, g, 400, {1.0e9, 1.2e9, 1.4e9}, 0.95, w_max_lambda)};
    OperatorSettings& s = settings;
    s.epsilon = eps;
    s.kernel = kernel;
    s.threads = 1;
    s.w_stacking = w_max_lambda > 0.0;
    layout = makeOperatorLayout(g, s, std::is_same_v<T, float>);
    k = packDeviceKernel(layout.kernel, layout.grid_u, layout.grid_v);
    cpu = makeCpuOperator<T>(g, s);
    for (const auto& b : blocks)
      views.push_back(b.view());
    cpu->setSamples(views);
    for (const auto& b : blocks) {
      weights.emplace_back(b.samples());
      for (std::size_t i = 0; i < weights.back().size(); ++i)
        weights.back()[i] = i % 17 == 3 ? 0.0f : float(0.5 + (i % 5) * 0.25);
    }
  }

  std::vector<C> randomImage(std::mt19937& rng) const {
    std::vector<C> image(g.numPixels());
    std::normal_distribution<double> nd;
    for (C& p : image)
      p = C(T(nd(rng)), T(nd(rng)));
    return image;
  }

  // Grid coordinates of sample i of block b.
  void coordinates(std::size_t b, std::size_t i, double& gu, double& gv) const {
    const std::size_t nchan = blocks[b].freq.size(), r = i / nchan, c = i % nchan;
    const double f = blocks[b].freq[c] / kSpeedOfLight;
    gu = blocks[b].uvw[3 * r] * (f * g.cell_l * layout.grid_u);
    gv = blocks[b].uvw[3 * r + 1] * (f * g.cell_m * layout.grid_v);
  }

  // Corrected image into a zeroed grid and the forward FFT (prepareDegrid).
  std::vector<C> modelGrid(const std::vector<C>& image) const {
    return planeModelGrid(image, [](int, int) { return C(1); });
  }

  // The same with each pixel also multiplied by screen(ix, iy) (a w plane's phase screen).
  template <typename Screen>
  std::vector<C> planeModelGrid(const std::vector<C>& image, Screen screen) const {
    std::vector<C> grid(cells(), C(0));
    for (int iy = 0; iy < g.ny; ++iy)
      for (int ix = 0; ix < g.nx; ++ix)
        grid[devicePixelCell(ix, iy, g.nx, g.ny, layout.grid_u, layout.grid_v)] =
            image[std::size_t(iy) * g.nx + ix] * corr(ix, iy) * screen(ix, iy);
    fft2(grid, true);
    return grid;
  }

  // Inverse FFT and correction of a gridded sum (endGrid).
  std::vector<C> gridToImage(std::vector<C> grid) const {
    std::vector<C> image(g.numPixels(), C(0));
    addPlaneImage(std::move(grid), image, [](int, int) { return C(1); });
    return image;
  }

  // image += the inverse FFT of `grid`, corrected and times screen(ix, iy).
  template <typename Screen>
  void addPlaneImage(std::vector<C> grid, std::vector<C>& image, Screen screen) const {
    fft2(grid, false);
    for (int iy = 0; iy < g.ny; ++iy)
      for (int ix = 0; ix < g.nx; ++ix)
        image[std::size_t(iy) * g.nx + ix] +=
            grid[devicePixelCell(ix, iy, g.nx, g.ny, layout.grid_u, layout.grid_v)] * corr(ix, iy) *
            screen(ix, iy);
  }

  std::size_t cells() const { return std::size_t(layout.grid_u) * layout.grid_v; }

  static void add(T* target, T value) { *target += value; }

  ImageGeometry g;
  OperatorSettings settings;
  std::vector<TestBlock> blocks;
  std::vector<UvwBlock> views;
  std::vector<std::vector<float>> weights;  // every 17th sample flagged (0)
  OperatorLayout layout;
  DeviceKernelParams k;
  std::unique_ptr<ImagingOperator<T>> cpu;

 private:
  T corr(int ix, int iy) const { return T(layout.corr_y[iy]) * T(layout.corr_x[ix]); }
  void fft2(std::vector<C>& grid, bool forward) const {
    const int nu = layout.grid_u, nv = layout.grid_v;
    fftMany<T>(grid.data(), nu, nv, 1, nu, forward, 1);  // rows
    fftMany<T>(grid.data(), nv, nu, nu, 1, forward, 1);  // columns
  }
};

// Relative L2 differences from the CPU operator of the emulated degridding and weighted
// gridding.
template <typename T>
std::pair<double, double> emulatedCudaVsCpu(double eps, KernelType kernel) {
  using C = std::complex<T>;
  EmulatedCuda<T> e(eps, kernel);
  std::mt19937 rng(7);
  const std::vector<C> image = e.randomImage(rng);
  const std::vector<C> model = e.modelGrid(image);
  std::vector<C> emulated, reference;
  std::vector<std::vector<C>> cpu_vis(e.blocks.size());
  std::vector<C*> cpu_ptr;
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    cpu_vis[b].resize(e.blocks[b].samples());
    cpu_ptr.push_back(cpu_vis[b].data());
    for (std::size_t i = 0; i < e.blocks[b].samples(); ++i) {
      double gu, gv;
      e.coordinates(b, i, gu, gv);
      T re, im;
      deviceDegridSample<T>(e.k, gu, gv, reinterpret_cast<const HostPair<T>*>(model.data()), re,
                            im);
      emulated.emplace_back(re, im);
    }
  }
  e.cpu->degrid(image.data(), cpu_ptr);
  for (const auto& v : cpu_vis)
    reference.insert(reference.end(), v.begin(), v.end());
  const double degrid_diff =
      l2RelativeError(emulated, std::vector<cd>(reference.begin(), reference.end()));

  // Weighted spreading (weight-0 samples skipped), inverse FFT, correction.
  std::vector<C> grid(e.cells(), C(0));
  std::vector<const C*> vis_ptr;
  std::vector<const float*> w_ptr;
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    for (std::size_t i = 0; i < e.weights[b].size(); ++i) {
      if (e.weights[b][i] == 0.0f)
        continue;
      double gu, gv;
      e.coordinates(b, i, gu, gv);
      const C v = cpu_vis[b][i] * T(e.weights[b][i]);
      deviceGridSample<T>(e.k, gu, gv, v.real(), v.imag(), reinterpret_cast<T*>(grid.data()),
                          EmulatedCuda<T>::add);
    }
    vis_ptr.push_back(cpu_vis[b].data());
    w_ptr.push_back(e.weights[b].data());
  }
  const std::vector<C> emulated_image = e.gridToImage(std::move(grid));
  std::vector<C> cpu_image(e.g.numPixels());
  e.cpu->grid(vis_ptr, w_ptr, cpu_image.data());
  const double grid_diff =
      l2RelativeError(emulated_image, std::vector<cd>(cpu_image.begin(), cpu_image.end()));
  return {degrid_diff, grid_diff};
}

// The CUDA chi2 pass (deviceChi2Sample per sample: model, weighted residual, spreading) against
// the same pass made of the CPU operator's degrid, chi2Residual and grid: the relative
// differences of chi2 and of the gridded residual image, and chi2 without spreading against
// chi2 with it (must be equal: the spreading does not touch the sum).
struct Chi2Emulation {
  double chi2_diff = 0.0, image_diff = 0.0;
  bool same_without_grid = false;
};

template <typename T>
Chi2Emulation emulatedChi2VsCpu(double eps, KernelType kernel) {
  using C = std::complex<T>;
  EmulatedCuda<T> e(eps, kernel);
  std::mt19937 rng(11);
  const std::vector<C> image = e.randomImage(rng);
  const std::vector<C> model = e.modelGrid(image);
  const auto* model_cells = reinterpret_cast<const HostPair<T>*>(model.data());
  std::vector<C> grid(e.cells(), C(0));
  double chi2 = 0.0, chi2_plain = 0.0, chi2_cpu = 0.0;
  bool same_residual = true;
  std::vector<std::vector<C>> data(e.blocks.size()), cpu_model(e.blocks.size()),
      residual(e.blocks.size());
  std::vector<C*> model_ptr;
  std::vector<const C*> residual_ptr;
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    std::normal_distribution<double> nd;
    for (std::size_t i = 0; i < e.blocks[b].samples(); ++i)
      data[b].emplace_back(T(nd(rng)), T(nd(rng)));
    cpu_model[b].resize(e.blocks[b].samples());
    model_ptr.push_back(cpu_model[b].data());
    for (std::size_t i = 0; i < data[b].size(); ++i) {
      double gu, gv;
      e.coordinates(b, i, gu, gv);
      const C v = data[b][i];
      const float w = e.weights[b][i];
      T rr, ri, rr_plain, ri_plain;
      chi2 += deviceChi2Sample<T>(e.k, gu, gv, model_cells, v.real(), v.imag(), w,
                                  reinterpret_cast<T*>(grid.data()), EmulatedCuda<T>::add, rr, ri);
      chi2_plain +=
          deviceChi2Sample<T>(e.k, gu, gv, model_cells, v.real(), v.imag(), w,
                              static_cast<T*>(nullptr), EmulatedCuda<T>::add, rr_plain, ri_plain);
      same_residual = same_residual && rr == rr_plain && ri == ri_plain;
    }
  }
  e.cpu->degrid(image.data(), model_ptr);
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    residual[b].resize(data[b].size());
    for (std::size_t i = 0; i < data[b].size(); ++i) {
      T rr, ri;
      chi2_cpu += chi2Residual<T>(cpu_model[b][i].real(), cpu_model[b][i].imag(), data[b][i].real(),
                                  data[b][i].imag(), e.weights[b][i], rr, ri);
      residual[b][i] = C(rr, ri);
    }
    residual_ptr.push_back(residual[b].data());
  }
  std::vector<C> cpu_image(e.g.numPixels());
  e.cpu->grid(residual_ptr, std::vector<const float*>(e.blocks.size(), nullptr), cpu_image.data());
  const std::vector<C> emulated_image = e.gridToImage(std::move(grid));
  Chi2Emulation out;
  out.chi2_diff = std::abs(chi2 - chi2_cpu) / chi2_cpu;
  out.image_diff =
      l2RelativeError(emulated_image, std::vector<cd>(cpu_image.begin(), cpu_image.end()));
  out.same_without_grid = chi2 == chi2_plain && same_residual;
  return out;
}

// The tiled gridder run on the host (device_tiles.h): the samples of both blocks sorted by tile
// (a stable counting sort, where the device scatters with atomics), work items of at most
// max_per_item samples, each spread into its own zeroed patch and the patch flushed into the grid,
// against every sample spread onto the grid directly (deviceGridSample). Reports the relative L2
// difference of the grids, the samples the patches refused (must be none), the tiles and items.
// The same for the tiled chi2 pass (deviceChi2PatchSample against deviceChi2Sample on a random
// model grid): every sample's w |r|^2 bitwise equal, and the spread residuals.
struct TiledEmulation {
  double grid_diff = 0.0, chi2_grid_diff = 0.0;
  bool same_chi2_terms = true;
  std::size_t refused = 0, tiles = 0, items = 0, samples = 0;
  int grid_u = 0, grid_v = 0;
};

template <typename T>
TiledEmulation emulatedTiledVsDirect(double eps, KernelType kernel, std::uint32_t max_per_item,
                                     int nx, int ny) {
  using C = std::complex<T>;
  EmulatedCuda<T> e(eps, kernel, nx, ny);
  const DeviceTiling t = deviceTiling(e.k);
  TiledEmulation out;
  out.grid_u = e.layout.grid_u;
  out.grid_v = e.layout.grid_v;
  out.tiles = std::size_t(t.tiles_u) * t.tiles_v;
  std::vector<C> direct(e.cells(), C(0)), tiled(e.cells(), C(0));
  std::vector<C> chi2_direct(e.cells(), C(0)), chi2_tiled(e.cells(), C(0)), model(e.cells());
  std::mt19937 rng(13);
  std::normal_distribution<double> nd;
  for (C& m : model)
    m = C(T(nd(rng)), T(nd(rng)));
  const auto* model_cells = reinterpret_cast<const HostPair<T>*>(model.data());
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    const std::size_t n = e.blocks[b].samples();
    std::vector<C> vis(n);
    std::vector<std::int32_t> key(n);
    std::vector<double> direct_terms(n), tiled_terms(n);
    std::vector<std::uint32_t> per_tile(out.tiles, 0);
    for (std::size_t i = 0; i < n; ++i) {
      vis[i] = C(T(nd(rng)), T(nd(rng)));
      double gu, gv;
      e.coordinates(b, i, gu, gv);
      deviceGridSample<T>(e.k, gu, gv, vis[i].real(), vis[i].imag(),
                          reinterpret_cast<T*>(direct.data()), EmulatedCuda<T>::add);
      T rr, ri;
      direct_terms[i] = deviceChi2Sample<T>(
          e.k, gu, gv, model_cells, vis[i].real(), vis[i].imag(), e.weights[b][i],
          reinterpret_cast<T*>(chi2_direct.data()), EmulatedCuda<T>::add, rr, ri);
      key[i] = deviceTileOf(e.k, t, gu, gv);
      ++per_tile[std::size_t(key[i])];
    }
    const DeviceTileWork work = planDeviceTileWork(per_tile, max_per_item);
    std::vector<std::uint32_t> cursor = work.offsets, order(n);
    for (std::size_t i = 0; i < n; ++i)
      order[cursor[std::size_t(key[i])]++] = std::uint32_t(i);
    std::vector<T> patch(2 * std::size_t(t.patch) * t.patch), chi2_patch(patch.size());
    for (std::size_t item = 0; item < work.tile.size(); ++item) {
      std::fill(patch.begin(), patch.end(), T(0));
      std::fill(chi2_patch.begin(), chi2_patch.end(), T(0));
      for (std::uint32_t j = 0; j < work.count[item]; ++j) {
        const std::uint32_t i = order[work.first[item] + j];
        double gu, gv;
        e.coordinates(b, i, gu, gv);
        if (!devicePatchSample<T>(e.k, t, work.tile[item], gu, gv, vis[i].real(), vis[i].imag(),
                                  patch.data(), EmulatedCuda<T>::add))
          ++out.refused;
        tiled_terms[i] =
            deviceChi2PatchSample<T>(e.k, t, work.tile[item], gu, gv, model_cells, vis[i].real(),
                                     vis[i].imag(), e.weights[b][i], chi2_patch.data(),
                                     reinterpret_cast<T*>(chi2_tiled.data()), EmulatedCuda<T>::add);
      }
      for (int c = 0; c < t.patch * t.patch; ++c) {
        deviceFlushPatchCell(e.k, t, work.tile[item], c, patch.data(),
                             reinterpret_cast<T*>(tiled.data()), EmulatedCuda<T>::add);
        deviceFlushPatchCell(e.k, t, work.tile[item], c, chi2_patch.data(),
                             reinterpret_cast<T*>(chi2_tiled.data()), EmulatedCuda<T>::add);
      }
    }
    out.same_chi2_terms = out.same_chi2_terms && direct_terms == tiled_terms;
    out.items += work.tile.size();
    out.samples += n;
  }
  out.grid_diff = l2RelativeError(tiled, std::vector<cd>(direct.begin(), direct.end()));
  out.chi2_grid_diff =
      l2RelativeError(chi2_tiled, std::vector<cd>(chi2_direct.begin(), chi2_direct.end()));
  return out;
}

}  // namespace apertura::imaging::test
