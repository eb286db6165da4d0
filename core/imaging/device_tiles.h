#pragma once

// The tiled gridding of the CUDA operator (host and device code, like device_gridding.h, so the
// tests run it on the host). Atomic additions straight into a grid of hundreds of MiB are slow and
// collide where the uv coverage is dense; instead the samples are grouped by the 32 x 32 grid tile
// that holds their first tap, a thread block spreads one group into a patch of shared memory that
// covers the tile and the kernel's reach beyond it (32 + W - 1 cells a side, fast shared atomics),
// and then adds the patch to the grid once, cell by cell. A tile with many samples is cut into
// several work items of at most a fixed number of samples, each with its own patch.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/imaging/device_gridding.h"

namespace apertura::imaging {

constexpr int kDeviceTile = 32;

struct DeviceTiling {
  int tiles_u = 0, tiles_v = 0;
  int patch = 0;  // cells a side of a tile's patch: kDeviceTile + W - 1
};

APERTURA_HOST_DEVICE inline DeviceTiling deviceTiling(const DeviceKernelParams& k) {
  DeviceTiling t;
  t.tiles_u = (k.grid_u + kDeviceTile - 1) / kDeviceTile;
  t.tiles_v = (k.grid_v + kDeviceTile - 1) / kDeviceTile;
  t.patch = kDeviceTile + k.support - 1;
  return t;
}

// The tile (row-major, u fastest) holding the first tap of a sample at grid coordinates (gu, gv).
APERTURA_HOST_DEVICE inline int deviceTileOf(const DeviceKernelParams& k, const DeviceTiling& t,
                                             double gu, double gv) {
  double x0 = 0.0;
  const int iu = deviceFirstTap(gu, k.support, k.grid_u, x0);
  const int iv = deviceFirstTap(gv, k.support, k.grid_v, x0);
  return iv / kDeviceTile * t.tiles_u + iu / kDeviceTile;
}

// Spreads the weighted visibility (vr, vi) into the patch of `tile` (interleaved re, im; patch x
// patch cells). Returns false, adding nothing, when the sample's first tap is not in the tile (a
// plan made from other coordinates): the caller then spreads it onto the grid itself.
template <typename T, typename G, typename Add>
APERTURA_HOST_DEVICE inline bool devicePatchSample(const DeviceKernelParams& k,
                                                   const DeviceTiling& t, int tile, double gu,
                                                   double gv, T vr, T vi, G* patch, Add add) {
  T ku[kMaxSupport], kv[kMaxSupport];
  const int ou = deviceTaps<T>(k, gu, k.grid_u, ku) - tile % t.tiles_u * kDeviceTile;
  const int ov = deviceTaps<T>(k, gv, k.grid_v, kv) - tile / t.tiles_u * kDeviceTile;
  if (ou < 0 || ou >= kDeviceTile || ov < 0 || ov >= kDeviceTile)
    return false;
  deviceSpreadTaps<T>(k.support, ku, kv, ou, ov, t.patch, t.patch, t.patch, vr, vi, patch, add);
  return true;
}

// One sample of the tiled chi2 pass, with one set of taps: the model from `model_grid`, the
// weighted residual (chi2Residual) spread into the patch of `tile`, or straight onto `grid` when
// the sample's first tap is not in the tile. Returns w |r|^2, the value deviceChi2Sample gives.
template <typename T, typename Cx, typename G, typename Add>
APERTURA_HOST_DEVICE inline double deviceChi2PatchSample(const DeviceKernelParams& k,
                                                         const DeviceTiling& t, int tile, double gu,
                                                         double gv, const Cx* model_grid, T vis_re,
                                                         T vis_im, float weight, G* patch, G* grid,
                                                         Add add) {
  if (weight == 0.0f)
    return 0.0;
  T ku[kMaxSupport], kv[kMaxSupport];
  const int iu = deviceTaps<T>(k, gu, k.grid_u, ku);
  const int iv = deviceTaps<T>(k, gv, k.grid_v, kv);
  T mr, mi, rr, ri;
  deviceInterpolateTaps<T>(k, ku, kv, iu, iv, model_grid, mr, mi);
  const double chi2 = chi2Residual<T>(mr, mi, vis_re, vis_im, weight, rr, ri);
  const int ou = iu - tile % t.tiles_u * kDeviceTile, ov = iv - tile / t.tiles_u * kDeviceTile;
  if (ou >= 0 && ou < kDeviceTile && ov >= 0 && ov < kDeviceTile)
    deviceSpreadTaps<T>(k.support, ku, kv, ou, ov, t.patch, t.patch, t.patch, rr, ri, patch, add);
  else
    deviceSpreadTaps<T>(k.support, ku, kv, iu, iv, k.grid_u, k.grid_u, k.grid_v, rr, ri, grid, add);
  return chi2;
}

// Adds cell c (0 .. patch^2 - 1) of the patch of `tile` to its grid cell, wrapping around the
// grid's edges as the kernel's taps do. Empty cells are skipped (most of a sparse tile's patch).
template <typename G, typename Add>
APERTURA_HOST_DEVICE inline void deviceFlushPatchCell(const DeviceKernelParams& k,
                                                      const DeviceTiling& t, int tile, int c,
                                                      const G* patch, G* grid, Add add) {
  const G re = patch[2 * c], im = patch[2 * c + 1];
  if (re == G(0) && im == G(0))
    return;
  const int u = (tile % t.tiles_u * kDeviceTile + c % t.patch) % k.grid_u;
  const int v = (tile / t.tiles_u * kDeviceTile + c / t.patch) % k.grid_v;
  G* cell = grid + 2 * (std::size_t(v) * k.grid_u + u);
  add(cell, re);
  add(cell + 1, im);
}

// The work items of a tiled gridding pass from the number of samples in each tile: the samples
// sorted by tile start at offsets[tile]; item i covers samples first[i] .. first[i] + count[i] - 1
// of that order, all in tile[i], at most max_per_item of them. Host code (the plan is made once
// per block of samples).
struct DeviceTileWork {
  std::vector<std::uint32_t> offsets;
  std::vector<std::int32_t> tile;
  std::vector<std::uint32_t> first, count;
};

inline DeviceTileWork planDeviceTileWork(const std::vector<std::uint32_t>& per_tile,
                                         std::uint32_t max_per_item) {
  DeviceTileWork w;
  w.offsets.resize(per_tile.size());
  std::uint32_t next = 0;
  for (std::size_t tile = 0; tile < per_tile.size(); ++tile) {
    w.offsets[tile] = next;
    for (std::uint32_t done = 0; done < per_tile[tile]; done += max_per_item) {
      w.tile.push_back(std::int32_t(tile));
      w.first.push_back(next + done);
      w.count.push_back(per_tile[tile] - done < max_per_item ? per_tile[tile] - done
                                                             : max_per_item);
    }
    next += per_tile[tile];
  }
  return w;
}

}  // namespace apertura::imaging
