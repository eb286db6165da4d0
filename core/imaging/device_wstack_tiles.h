#pragma once

// The tiled gridder (device_tiles.h) with w-stacking (device_wstack.h). Plane p's gridding pass
// visits the samples whose first w plane lies in [p - W + 1, p]; sorted by first plane and, inside
// each plane's group, by grid tile, those samples are the work items of W consecutive groups: one
// contiguous range of the items, so each plane's pass is one launch of the tiled kernel whose
// samples spread, times their plane factor, into a tile's patch in shared memory instead of
// straight onto the grid with global atomics. The plan is made on the host, where the samples are
// already sorted by plane; like device_wstack.h it compiles for host and device, so the tests run
// it on the host.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/imaging/device_tiles.h"
#include "core/imaging/device_wstack.h"
#include "core/imaging/uv_samples.h"

namespace apertura::imaging {

// A block's samples by first w plane, then by tile (`planes`: its order and each plane's start),
// and the work items: item i covers positions first[i] .. first[i] + count[i] - 1 of the order,
// all in tile[i]; plane p's group's items are item_start[p] .. item_start[p + 1] - 1.
struct WPlaneTileOrder {
  WPlaneOrder planes;
  std::vector<std::int32_t> tile;
  std::vector<std::uint32_t> first, count;
  std::vector<std::size_t> item_start;
};

// orderByWPlane's order, each plane's group sorted by the tile of its samples' first tap (grid
// coordinates u * scale_u[c], v * scale_v[c], as the device forms them) and cut into work items of
// at most max_per_item samples.
inline WPlaneTileOrder orderByWPlaneAndTile(const UvwBlock& b, const std::vector<double>& scale_u,
                                            const std::vector<double>& scale_v,
                                            const std::vector<double>& scale_w, double offset,
                                            const DeviceKernelParams& k, int planes,
                                            std::uint32_t max_per_item) {
  WPlaneTileOrder o;
  o.planes = orderByWPlane(b, scale_w, offset, k.support, planes);
  const DeviceTiling t = deviceTiling(k);
  const std::size_t nchan = b.num_channels, tiles = std::size_t(t.tiles_u) * t.tiles_v;
  std::vector<std::uint32_t> group, per_tile(tiles);
  std::vector<std::int32_t> key;
  o.item_start.assign(std::size_t(planes) + 1, 0);
  for (int p = 0; p < planes; ++p) {
    const std::size_t s0 = o.planes.start[std::size_t(p)], s1 = o.planes.start[std::size_t(p) + 1];
    group.assign(o.planes.order.begin() + std::ptrdiff_t(s0),
                 o.planes.order.begin() + std::ptrdiff_t(s1));
    key.resize(group.size());
    std::fill(per_tile.begin(), per_tile.end(), 0u);
    for (std::size_t j = 0; j < group.size(); ++j) {
      const std::size_t s = group[j], r = s / nchan, c = s - r * nchan;
      key[j] = deviceTileOf(k, t, b.uvw_m[3 * r] * scale_u[c], b.uvw_m[3 * r + 1] * scale_v[c]);
      ++per_tile[std::size_t(key[j])];
    }
    DeviceTileWork work = planDeviceTileWork(per_tile, max_per_item);
    for (std::size_t j = 0; j < group.size(); ++j)
      o.planes.order[s0 + work.offsets[std::size_t(key[j])]++] = group[j];
    for (std::size_t i = 0; i < work.tile.size(); ++i) {
      o.tile.push_back(work.tile[i]);
      o.first.push_back(std::uint32_t(s0) + work.first[i]);
      o.count.push_back(work.count[i]);
    }
    o.item_start[std::size_t(p) + 1] = o.tile.size();
  }
  return o;
}

// Gridding of one (weighted) sample on plane `plane` through the patch of `tile`: the product of
// (vr, vi) and the plane factor that deviceWGridSample forms, spread into the patch, or straight
// onto `grid` when the sample's first tap is not in the tile (then returns false: a plan made
// from other coordinates). Nothing off the sample's planes.
template <typename T, typename G, typename Add>
APERTURA_HOST_DEVICE inline bool deviceWPatchSample(const DeviceKernelParams& k,
                                                    const DeviceTiling& t, const DeviceWStack& ws,
                                                    int plane, int tile, double gu, double gv,
                                                    double gw, T vr, T vi, G* patch, G* grid,
                                                    Add add) {
  T fr, fi;
  if (!deviceWPlaneFactor<T>(k, ws, gw, plane, +1.0, fr, fi))
    return true;
  const T pr = vr * fr - vi * fi, pi = vr * fi + vi * fr;
  if (devicePatchSample<T>(k, t, tile, gu, gv, pr, pi, patch, add))
    return true;
  deviceGridSample<T>(k, gu, gv, pr, pi, grid, add);
  return false;
}

}  // namespace apertura::imaging
