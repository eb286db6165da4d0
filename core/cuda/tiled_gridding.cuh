#pragma once

// Internal to core/cuda: the tiled gridder (core/imaging/device_tiles.h). A block's plan -- its
// samples sorted by tile and cut into work items -- is made on the device once, when the block's
// coordinates become resident; each gridding pass then runs one thread block per work item.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cuda/device_buffers.cuh"
#include "core/cuda/gridding_kernels.cuh"
#include "core/imaging/device_tiles.h"

namespace apertura::cuda {

using imaging::DeviceTiling;

// Samples per work item: enough that flushing a patch ((32 + W - 1)^2 cells) costs little next to
// spreading the samples (W^2 each), few enough that a dense tile is spread by many thread blocks.
constexpr std::uint32_t kTileItemSamples = 2048;

struct TileArgs {
  DeviceTiling tiling;
  const std::uint32_t* order = nullptr;  // sample indices sorted by tile
  const std::int32_t* tile = nullptr;    // per work item
  const std::uint32_t* first = nullptr;  // per work item: its first position in order
  const std::uint32_t* count = nullptr;
};

static __global__ void tileKeyKernel(DeviceKernelParams k, DeviceTiling t, SampleArgs s,
                                     std::int32_t* keys, std::uint32_t* per_tile) {
  const unsigned long long i = threadIndex();
  if (i >= s.count)
    return;
  double gu, gv;
  s.coordinates(i, gu, gv);
  const int key = imaging::deviceTileOf(k, t, gu, gv);
  keys[i] = key;
  atomicAdd(per_tile + key, 1u);
}

// Places each sample at its tile's next free position (the order inside a tile is whatever the
// atomics give: gridding adds in no fixed order anyway).
static __global__ void tileScatterKernel(const std::int32_t* keys, unsigned long long n,
                                         std::uint32_t* cursor, std::uint32_t* order) {
  const unsigned long long i = threadIndex();
  if (i < n)
    order[atomicAdd(cursor + keys[i], 1u)] = std::uint32_t(i);
}

// One work item's pass, run by one thread block: its patch (2 patch^2 values of G in dynamic
// shared memory) zeroed, visit(i, gu, gv, tile, patch) for each of its samples, then the patch
// added to the grid.
template <typename G, typename Visit>
__device__ void tiledItemPass(const DeviceKernelParams& k, const SampleArgs& s, const TileArgs& t,
                              G* grid, Visit visit) {
  extern __shared__ double shared_patch[];  // double: aligned for either G
  G* patch = reinterpret_cast<G*>(shared_patch);
  const int cells = t.tiling.patch * t.tiling.patch;
  for (int c = threadIdx.x; c < 2 * cells; c += blockDim.x)
    patch[c] = G(0);
  __syncthreads();
  const int tile = t.tile[blockIdx.x];
  const std::uint32_t first = t.first[blockIdx.x], count = t.count[blockIdx.x];
  for (std::uint32_t j = threadIdx.x; j < count; j += blockDim.x) {
    const unsigned long long i = t.order[first + j];
    double gu, gv;
    s.coordinates(i, gu, gv);
    visit(i, gu, gv, tile, patch);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cells; c += blockDim.x)
    imaging::deviceFlushPatchCell(k, t.tiling, tile, c, patch, grid, AtomicAdd{});
}

// Tiled gridding of weight * vis (weights may be null: all ones; weight-0 samples skipped).
template <typename T, typename G>
__global__ void tiledGridKernel(DeviceKernelParams k, SampleArgs s, TileArgs t,
                                const typename DeviceComplex<T>::type* __restrict__ vis,
                                const float* __restrict__ weights, G* grid) {
  tiledItemPass(k, s, t, grid, [&](unsigned long long i, double gu, double gv, int tile, G* patch) {
    T vr, vi;
    if (!weightedVisibility<T>(vis, weights, i, vr, vi))
      return;
    if (!imaging::devicePatchSample<T>(k, t.tiling, tile, gu, gv, vr, vi, patch, AtomicAdd{}))
      imaging::deviceGridSample<T>(k, gu, gv, vr, vi, grid, AtomicAdd{});
  });
}

// The tiled chi2 pass: each sample's model (from model_grid), weighted residual and w |r|^2
// (into terms[i], summed afterwards by sumTermsKernel in the samples' own order), the residual
// spread through the patch.
template <typename T, typename G>
__global__ void tiledChi2Kernel(DeviceKernelParams k, SampleArgs s, TileArgs t,
                                const typename DeviceComplex<T>::type* __restrict__ model_grid,
                                const float2* __restrict__ vis, const float* __restrict__ weights,
                                G* grid, double* __restrict__ terms) {
  tiledItemPass(k, s, t, grid, [&](unsigned long long i, double gu, double gv, int tile, G* patch) {
    terms[i] = imaging::deviceChi2PatchSample<T>(k, t.tiling, tile, gu, gv, model_grid, T(vis[i].x),
                                                 T(vis[i].y), weights[i], patch, grid, AtomicAdd{});
  });
}

template <typename G>
std::size_t tiledGridSharedBytes(const DeviceTiling& t) {
  return 2 * std::size_t(t.patch) * t.patch * sizeof(G);
}

// A block's tiling on the device; empty (items == 0) until made.
struct DeviceTilePlan {
  DeviceTiling tiling;
  DeviceArray<std::uint32_t> order, first, count;
  DeviceArray<std::int32_t> tile;
  std::size_t items = 0;

  TileArgs args() const {
    TileArgs a;
    a.tiling = tiling;
    a.order = order.data();
    a.tile = tile.data();
    a.first = first.data();
    a.count = count.data();
    return a;
  }

  // Sorts the s.count samples (coordinates on the device) by tile: keys and per-tile counts on
  // the device, the work items on the host from the counts, then the scatter. Device bytes kept
  // (4 per sample and 12 per item) are counted in `bytes`.
  void make(const DeviceKernelParams& k, const SampleArgs& s, unsigned threads, cudaStream_t stream,
            int device, const ByteCounter& bytes) {
    tiling = imaging::deviceTiling(k);
    const std::size_t n = s.count, tiles = std::size_t(tiling.tiles_u) * tiling.tiles_v;
    const std::string what = "the tiled gridder's plan";
    for (auto* a : {&order, &first, &count})
      a->track(bytes);
    tile.track(bytes);
    DeviceArray<std::int32_t> keys;
    DeviceArray<std::uint32_t> per_tile;
    keys.reserve(n, device, what);
    per_tile.reserve(tiles, device, what);
    check(cudaMemsetAsync(per_tile.data(), 0, tiles * sizeof(std::uint32_t), stream),
          "cudaMemset (tile counts)");
    const unsigned blocks = unsigned((n + threads - 1) / threads);
    tileKeyKernel<<<blocks, threads, 0, stream>>>(k, tiling, s, keys.data(), per_tile.data());
    check(cudaGetLastError(), "tile key kernel launch");
    std::vector<std::uint32_t> counts(tiles);
    check(cudaMemcpyAsync(counts.data(), per_tile.data(), tiles * sizeof(std::uint32_t),
                          cudaMemcpyDeviceToHost, stream),
          "download of the tile counts");
    check(cudaStreamSynchronize(stream), "tile key kernel");
    const imaging::DeviceTileWork work = imaging::planDeviceTileWork(counts, kTileItemSamples);
    items = work.tile.size();
    order.reserve(n, device, what);
    tile.reserve(items, device, what);
    first.reserve(items, device, what);
    count.reserve(items, device, what);
    const auto up = [&](void* to, const void* from, std::size_t size) {
      check(cudaMemcpyAsync(to, from, size, cudaMemcpyHostToDevice, stream),
            "upload of the tile plan");
    };
    up(per_tile.data(), work.offsets.data(), tiles * sizeof(std::uint32_t));  // now the cursors
    up(tile.data(), work.tile.data(), items * sizeof(std::int32_t));
    up(first.data(), work.first.data(), items * sizeof(std::uint32_t));
    up(count.data(), work.count.data(), items * sizeof(std::uint32_t));
    tileScatterKernel<<<blocks, threads, 0, stream>>>(keys.data(), n, per_tile.data(),
                                                      order.data());
    check(cudaGetLastError(), "tile scatter kernel launch");
    check(cudaStreamSynchronize(stream), "tile scatter kernel");
  }
};

}  // namespace apertura::cuda
