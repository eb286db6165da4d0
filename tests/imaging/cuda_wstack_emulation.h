#pragma once

// The CUDA operator's w-stacking (core/imaging/device_wstack.h, device_wstack_tiles.h) run on the
// host around EmulatedCuda, compared with the CPU operator's w-stacking
// (tests/imaging/test_operator_factory).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "core/imaging/device_wstack.h"
#include "core/imaging/device_wstack_tiles.h"
#include "core/imaging/w_stacking.h"
#include "tests/imaging/cuda_emulation.h"

namespace apertura::imaging::test {

// The CUDA operator's w-stacking run on the host (device_wstack.h): the planes planned as the
// factory's planner does, each block's samples sorted by first plane and each plane's pass over
// samplesOnPlane's range, the screens per pixel; relative L2 differences from the CPU operator
// with w-stacking of degridding and weighted gridding, and how far the CPU operator without the
// w-term is from it (so the comparison can tell the w-term from none).
// With the tiled gridder (device_wstack_tiles.h, work items of at most 64 samples so that dense
// tiles have several): degridding in its order bitwise equal, the gridded image's difference from
// the one-thread-per-sample gridding, samples its patches refused (must be none), its sample
// passes and work items.
struct WStackEmulation {
  double degrid_diff = 0.0, grid_diff = 0.0, without_w = 0.0;
  int planes = 0, support = 0;
  std::size_t visits = 0, samples = 0;  // sample passes made, and samples
  bool tiled_degrid_equal = false;
  double tiled_grid_diff = 1.0;
  std::size_t tiled_refused = 0, tiled_visits = 0, tiled_items = 0;
};

template <typename T>
WStackEmulation emulatedWStackVsCpu(double eps) {
  using C = std::complex<T>;
  EmulatedCuda<T> e(eps, KernelType::ExpSemicircle, 96, 80, 300.0, 1000.0);
  const WStackLayout layout = planWStackFor(e.views, e.g, e.layout.kernel, e.settings);
  const DeviceWStack ws{layout.planes, layout.w0, layout.dw, layout.x0};
  const int support = e.k.support;
  std::vector<std::vector<double>> scale_w(e.blocks.size());
  std::vector<WPlaneOrder> orders;
  std::vector<WPlaneTileOrder> tiled;
  const DeviceTiling tiling = deviceTiling(e.k);
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    std::vector<double> scale_u, scale_v;
    for (double f : e.blocks[b].freq) {
      scale_w[b].push_back(f / kSpeedOfLight / layout.dw);
      scale_u.push_back(f / kSpeedOfLight * e.g.cell_l * e.layout.grid_u);
      scale_v.push_back(f / kSpeedOfLight * e.g.cell_m * e.layout.grid_v);
    }
    orders.push_back(
        orderByWPlane(e.views[b], scale_w[b], layout.w0 / layout.dw, support, layout.planes));
    tiled.push_back(orderByWPlaneAndTile(e.views[b], scale_u, scale_v, scale_w[b],
                                         layout.w0 / layout.dw, e.k, layout.planes, 64));
  }
  auto gw = [&](std::size_t b, std::size_t i) {
    const std::size_t nchan = e.blocks[b].freq.size(), r = i / nchan;
    return deviceWCoordinate(e.blocks[b].uvw[3 * r + 2], scale_w[b][i % nchan],
                             layout.w0 / layout.dw);
  };
  auto screen = [&](int plane, double sign) {
    return [&, plane, sign](int ix, int iy) {
      const std::size_t p = std::size_t(iy) * e.g.nx + ix;
      T re, im;
      deviceWScreen<T>(ws, plane, layout.xi[p], layout.correction[p], sign, re, im);
      return C(re, im);
    };
  };
  WStackEmulation out;
  out.planes = layout.planes;
  out.support = support;
  std::mt19937 rng(19);
  const std::vector<C> image = e.randomImage(rng);
  std::vector<std::vector<C>> vis(e.blocks.size()), tiled_vis(e.blocks.size());
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    vis[b].assign(e.blocks[b].samples(), C(0));
    tiled_vis[b].assign(e.blocks[b].samples(), C(0));
    out.samples += vis[b].size();
  }
  for (int plane = 0; plane < layout.planes; ++plane) {
    const std::vector<C> model = e.planeModelGrid(image, screen(plane, -1.0));
    const auto* cells = reinterpret_cast<const HostPair<T>*>(model.data());
    // Block b's samples on the plane, visited in `o`'s order, add their share to `into`.
    const auto degridPlane = [&](std::size_t b, const WPlaneOrder& o, std::vector<C>& into) {
      const auto [first, last] = samplesOnPlane(o.start, plane, support);
      for (std::size_t j = first; j < last; ++j) {
        const std::uint32_t i = o.order[j];
        double gu, gv;
        e.coordinates(b, i, gu, gv);
        T re, im;
        if (deviceWDegridSample<T>(e.k, ws, plane, gu, gv, gw(b, i), cells, re, im))
          into[i] += C(re, im);
      }
      return last - first;
    };
    for (std::size_t b = 0; b < e.blocks.size(); ++b) {
      out.visits += degridPlane(b, orders[b], vis[b]);
      degridPlane(b, tiled[b].planes, tiled_vis[b]);
    }
  }
  out.tiled_degrid_equal = vis == tiled_vis;
  std::vector<std::vector<C>> cpu_vis(e.blocks.size()), flat_vis(e.blocks.size());
  std::vector<C*> cpu_ptr, flat_ptr;
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    cpu_vis[b].resize(e.blocks[b].samples());
    flat_vis[b].resize(e.blocks[b].samples());
    cpu_ptr.push_back(cpu_vis[b].data());
    flat_ptr.push_back(flat_vis[b].data());
  }
  e.cpu->degrid(image.data(), cpu_ptr);
  OperatorSettings flat_settings = e.settings;
  flat_settings.w_stacking = false;
  auto flat = makeCpuOperator<T>(e.g, flat_settings);
  flat->setSamples(e.views);
  flat->degrid(image.data(), flat_ptr);
  auto joined = [](const std::vector<std::vector<C>>& v) {
    std::vector<cd> all;
    for (const auto& b : v)
      all.insert(all.end(), b.begin(), b.end());
    return all;
  };
  std::vector<C> emulated;
  for (const auto& b : vis)
    emulated.insert(emulated.end(), b.begin(), b.end());
  out.degrid_diff = l2RelativeError(emulated, joined(cpu_vis));
  std::vector<C> flat_all;
  for (const auto& b : flat_vis)
    flat_all.insert(flat_all.end(), b.begin(), b.end());
  out.without_w = l2RelativeError(flat_all, joined(cpu_vis));

  // Weighted gridding of the CPU's visibilities, plane by plane.
  std::vector<C> emulated_image(e.g.numPixels(), C(0));
  for (int plane = 0; plane < layout.planes; ++plane) {
    std::vector<C> grid(e.cells(), C(0));
    for (std::size_t b = 0; b < e.blocks.size(); ++b) {
      const auto [first, last] = samplesOnPlane(orders[b].start, plane, support);
      for (std::size_t j = first; j < last; ++j) {
        const std::uint32_t i = orders[b].order[j];
        const T w = T(e.weights[b][i]);
        if (w == T(0))
          continue;
        double gu, gv;
        e.coordinates(b, i, gu, gv);
        deviceWGridSample<T>(e.k, ws, plane, gu, gv, gw(b, i), cpu_vis[b][i].real() * w,
                             cpu_vis[b][i].imag() * w, reinterpret_cast<T*>(grid.data()),
                             EmulatedCuda<T>::add);
      }
    }
    e.addPlaneImage(std::move(grid), emulated_image, screen(plane, +1.0));
  }

  // The same gridding through the tiled gridder's work items and patches.
  std::vector<C> tiled_image(e.g.numPixels(), C(0));
  std::vector<T> patch(2 * std::size_t(tiling.patch) * tiling.patch);
  for (int plane = 0; plane < layout.planes; ++plane) {
    std::vector<C> grid(e.cells(), C(0));
    T* cells = reinterpret_cast<T*>(grid.data());
    for (std::size_t b = 0; b < e.blocks.size(); ++b) {
      const WPlaneTileOrder& o = tiled[b];
      const auto [first_item, last_item] = samplesOnPlane(o.item_start, plane, support);
      for (std::size_t item = first_item; item < last_item; ++item) {
        std::fill(patch.begin(), patch.end(), T(0));
        for (std::uint32_t j = o.first[item]; j < o.first[item] + o.count[item]; ++j) {
          const std::uint32_t i = o.planes.order[j];
          ++out.tiled_visits;
          const T w = T(e.weights[b][i]);
          if (w == T(0))
            continue;
          double gu, gv;
          e.coordinates(b, i, gu, gv);
          if (!deviceWPatchSample<T>(e.k, tiling, ws, plane, o.tile[item], gu, gv, gw(b, i),
                                     cpu_vis[b][i].real() * w, cpu_vis[b][i].imag() * w,
                                     patch.data(), cells, EmulatedCuda<T>::add))
            ++out.tiled_refused;
        }
        for (int c = 0; c < tiling.patch * tiling.patch; ++c)
          deviceFlushPatchCell(e.k, tiling, o.tile[item], c, patch.data(), cells,
                               EmulatedCuda<T>::add);
      }
    }
    e.addPlaneImage(std::move(grid), tiled_image, screen(plane, +1.0));
  }
  for (const auto& o : tiled)
    out.tiled_items += o.tile.size();
  out.tiled_grid_diff =
      l2RelativeError(tiled_image, std::vector<cd>(emulated_image.begin(), emulated_image.end()));
  std::vector<const C*> vis_ptr;
  std::vector<const float*> w_ptr;
  for (std::size_t b = 0; b < e.blocks.size(); ++b) {
    vis_ptr.push_back(cpu_vis[b].data());
    w_ptr.push_back(e.weights[b].data());
  }
  std::vector<C> cpu_image(e.g.numPixels());
  e.cpu->grid(vis_ptr, w_ptr, cpu_image.data());
  out.grid_diff =
      l2RelativeError(emulated_image, std::vector<cd>(cpu_image.begin(), cpu_image.end()));
  return out;
}

}  // namespace apertura::imaging::test
