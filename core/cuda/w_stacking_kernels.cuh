#pragma once

// Internal to core/cuda: the CUDA kernels of w-stacking, one thread per sample or pixel around
// the host-and-device functions of core/imaging/device_wstack.h (which the tests also run on the
// host). A plane's sample pass visits the block's samples in order of their first w plane, only
// the range that reaches the plane (WPlaneOrder::range).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/cuda/gridding_kernels.cuh"
#include "core/cuda/tiled_gridding.cuh"
#include "core/imaging/device_wstack.h"
#include "core/imaging/device_wstack_tiles.h"

namespace apertura::cuda {

using imaging::DeviceWStack;

// vis[i] += the plane's contribution to sample i, for the samples order[first .. first + count).
// Each sample appears once in a launch, so the additions do not race.
template <typename T>
__global__ void wDegridKernel(DeviceKernelParams k, DeviceWStack ws, int plane, SampleArgs s,
                              const typename DeviceComplex<T>::type* __restrict__ grid,
                              const std::uint32_t* __restrict__ order, unsigned long long first,
                              unsigned long long count,
                              typename DeviceComplex<T>::type* __restrict__ vis) {
  const unsigned long long j = threadIndex();
  if (j >= count)
    return;
  const unsigned long long i = order[first + j];
  double gu, gv;
  s.coordinates(i, gu, gv);
  T re, im;
  if (imaging::deviceWDegridSample<T>(k, ws, plane, gu, gv, s.wCoordinate(i), grid, re, im)) {
    vis[i].x += re;
    vis[i].y += im;
  }
}

// The held samples' model in vis becomes their weighted residual W (model - V) (chi2Residual,
// as the streaming chi2 pass forms it), and partial[b] block b's share of sum w |r|^2, with
// chi2Kernel's grid-stride loop and reduction: the same partial sums on every call.
template <typename T>
__global__ void wResidualKernel(const float2* __restrict__ measured,
                                const float* __restrict__ weights, unsigned long long n,
                                typename DeviceComplex<T>::type* __restrict__ vis,
                                double* partial) {
  double sum = 0.0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = threadIndex(); i < n; i += stride) {
    T rr, ri;
    sum += imaging::chi2Residual<T>(vis[i].x, vis[i].y, T(measured[i].x), T(measured[i].y),
                                    weights[i], rr, ri);
    vis[i].x = rr;
    vis[i].y = ri;
  }
  sum = blockSum(sum);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sum;
}

// The plane's grid (interleaved re, im, of G) += weight * vis * plane factor * taps for the
// samples order[first .. first + count); weights may be null (all ones), weight 0 is skipped.
template <typename T, typename G>
__global__ void wGridKernel(DeviceKernelParams k, DeviceWStack ws, int plane, SampleArgs s,
                            const typename DeviceComplex<T>::type* __restrict__ vis,
                            const float* __restrict__ weights,
                            const std::uint32_t* __restrict__ order, unsigned long long first,
                            unsigned long long count, G* grid) {
  const unsigned long long j = threadIndex();
  if (j >= count)
    return;
  const unsigned long long i = order[first + j];
  T vr, vi;
  if (!weightedVisibility<T>(vis, weights, i, vr, vi))
    return;
  double gu, gv;
  s.coordinates(i, gu, gv);
  imaging::deviceWGridSample<T>(k, ws, plane, gu, gv, s.wCoordinate(i), vr, vi, grid, AtomicAdd{});
}

// wGridKernel through the tiled gridder: one thread block per work item of the plane's range
// (`t` holds the block's order and that range's items), its samples times their plane factor
// spread into the tile's patch in shared memory, the patch then added to the grid.
template <typename T, typename G>
__global__ void wTiledGridKernel(DeviceKernelParams k, DeviceWStack ws, int plane, SampleArgs s,
                                 TileArgs t,
                                 const typename DeviceComplex<T>::type* __restrict__ vis,
                                 const float* __restrict__ weights, G* grid) {
  tiledItemPass(k, s, t, grid, [&](unsigned long long i, double gu, double gv, int tile, G* patch) {
    T vr, vi;
    if (weightedVisibility<T>(vis, weights, i, vr, vi))
      imaging::deviceWPatchSample<T>(k, t.tiling, ws, plane, tile, gu, gv, s.wCoordinate(i), vr, vi,
                                     patch, grid, AtomicAdd{});
  });
}

// The image, corrected and times the plane's phase screen exp(-2 pi i w_plane xi) corr_w, into
// its cells of the (zeroed) grid.
template <typename T>
__global__ void wImageToGridKernel(int nx, int ny, int nu, int nv, DeviceWStack ws, int plane,
                                   const typename DeviceComplex<T>::type* __restrict__ image,
                                   const T* __restrict__ corr_x, const T* __restrict__ corr_y,
                                   const double* __restrict__ xi, const double* __restrict__ corr_w,
                                   typename DeviceComplex<T>::type* __restrict__ grid) {
  unsigned long long p;
  int ix, iy;
  if (!threadPixel(nx, ny, p, ix, iy))
    return;
  const T corr = corr_y[iy] * corr_x[ix];
  T sr, si;
  imaging::deviceWScreen<T>(ws, plane, xi[p], corr_w[p], -1.0, sr, si);
  const T vr = image[p].x * corr, vi = image[p].y * corr;
  typename DeviceComplex<T>::type z;
  z.x = vr * sr - vi * si;
  z.y = vr * si + vi * sr;
  grid[imaging::devicePixelCell(ix, iy, nx, ny, nu, nv)] = z;
}

// image += the plane's (inverse-transformed) grid at the pixel's cell, corrected and times the
// phase screen exp(+2 pi i w_plane xi) corr_w, in the grid's precision G (T, or double for a
// float operator's double accumulation; the screen is rounded to T first, as on the CPU).
template <typename T, typename G>
__global__ void wGridToImageKernel(int nx, int ny, int nu, int nv, DeviceWStack ws, int plane,
                                   const typename DeviceComplex<G>::type* __restrict__ grid,
                                   const G* __restrict__ corr_x, const G* __restrict__ corr_y,
                                   const double* __restrict__ xi, const double* __restrict__ corr_w,
                                   typename DeviceComplex<G>::type* __restrict__ image) {
  unsigned long long p;
  int ix, iy;
  if (!threadPixel(nx, ny, p, ix, iy))
    return;
  const G corr = corr_y[iy] * corr_x[ix];
  T sr, si;
  imaging::deviceWScreen<T>(ws, plane, xi[p], corr_w[p], +1.0, sr, si);
  const typename DeviceComplex<G>::type z = grid[imaging::devicePixelCell(ix, iy, nx, ny, nu, nv)];
  const G vr = z.x * corr, vi = z.y * corr;
  image[p].x += vr * G(sr) - vi * G(si);
  image[p].y += vr * G(si) + vi * G(sr);
}

}  // namespace apertura::cuda
