#pragma once

// The per-sample and per-pixel work of the CUDA operator (core/cuda/cuda_operator.cu), as inline
// functions that compile both as CUDA device code and as host C++: the CUDA kernels are thin
// loops around them, and tests/imaging/test_operator_factory runs the same functions on the host
// (with FFTW in place of cuFFT) against the CPU operator, so the device's conventions (grid
// coordinates, tap positions, image placement, correction) are checked without a GPU.
#include <cstddef>

#include "core/imaging/device_kernel.h"

namespace apertura::imaging {

// Grid cell of image pixel (ix, iy): pixel offset p = i - n/2 goes to cell p mod N, as in the CPU
// operator, so the phase centre (pixel n/2) sits at cell 0.
APERTURA_HOST_DEVICE inline std::size_t devicePixelCell(int ix, int iy, int nx, int ny, int nu,
                                                        int nv) {
  return std::size_t((iy - ny / 2 + nv) % nv) * nu + std::size_t((ix - nx / 2 + nu) % nu);
}

// The W taps along one axis of a sample at grid coordinate g; returns the first tap's cell.
template <typename T>
APERTURA_HOST_DEVICE inline int deviceTaps(const DeviceKernelParams& k, double g, int n, T* taps) {
  double x0 = 0.0;
  const int first = deviceFirstTap(g, k.support, n, x0);
  const double step = 2.0 / k.support;
  for (int j = 0; j < k.support; ++j)
    taps[j] = deviceKernelValue<T>(k, x0 + step * j);
  return first;
}

// The sum over the W x W cells from (u0, v0) (wrapping at the grid's edges) of the grid times the
// taps ku (along u) and kv (along v). Cx is float2/double2 on the device, any struct with members
// x (real) and y (imaginary) on the host.
template <typename T, typename Cx>
APERTURA_HOST_DEVICE inline void deviceInterpolateTaps(const DeviceKernelParams& k, const T* ku,
                                                       const T* kv, int u0, int v0, const Cx* grid,
                                                       T& re, T& im) {
  T sr = 0, si = 0;
  int v = v0;
  for (int a = 0; a < k.support; ++a) {
    const Cx* row = grid + std::size_t(v) * k.grid_u;
    T tr = 0, ti = 0;
    int u = u0;
    for (int b = 0; b < k.support; ++b) {
      tr += ku[b] * row[u].x;
      ti += ku[b] * row[u].y;
      if (++u == k.grid_u)
        u = 0;
    }
    sr += kv[a] * tr;
    si += kv[a] * ti;
    if (++v == k.grid_v)
      v = 0;
  }
  re = sr;
  im = si;
}

// Interpolation of the (FFT'd) grid at grid coordinates (gu, gv).
template <typename T, typename Cx>
APERTURA_HOST_DEVICE inline void deviceDegridSample(const DeviceKernelParams& k, double gu,
                                                    double gv, const Cx* grid, T& re, T& im) {
  T ku[kMaxSupport], kv[kMaxSupport];
  const int iu = deviceTaps<T>(k, gu, k.grid_u, ku);
  const int iv = deviceTaps<T>(k, gv, k.grid_v, kv);
  deviceInterpolateTaps<T>(k, ku, kv, iu, iv, grid, re, im);
}

// Spreads (vr, vi) with the taps ku (along u, first cell u0) and kv (along v, first cell v0) onto
// a pitch-wide array of interleaved real and imaginary parts: add(&value, amount) for each of the
// W x W cells, indices wrapping at wrap_u and wrap_v (the grid's size; a tile's patch never
// wraps). G is T, or double for a float operator's double accumulation (products formed in T).
template <typename T, typename G, typename Add>
APERTURA_HOST_DEVICE inline void deviceSpreadTaps(int support, const T* ku, const T* kv, int u0,
                                                  int v0, int pitch, int wrap_u, int wrap_v, T vr,
                                                  T vi, G* target, Add add) {
  int v = v0;
  for (int a = 0; a < support; ++a) {
    G* row = target + 2 * std::size_t(v) * pitch;
    const T fr = vr * kv[a], fi = vi * kv[a];
    int u = u0;
    for (int b = 0; b < support; ++b) {
      add(row + 2 * u, fr * ku[b]);
      add(row + 2 * u + 1, fi * ku[b]);
      if (++u == wrap_u)
        u = 0;
    }
    if (++v == wrap_v)
      v = 0;
  }
}

// Spreads the (weighted) visibility (vr, vi) onto the grid around (gu, gv) (atomicAdd on the
// device); `grid` holds interleaved real and imaginary parts.
template <typename T, typename G, typename Add>
APERTURA_HOST_DEVICE inline void deviceGridSample(const DeviceKernelParams& k, double gu, double gv,
                                                  T vr, T vi, G* grid, Add add) {
  T ku[kMaxSupport], kv[kMaxSupport];
  const int iu = deviceTaps<T>(k, gu, k.grid_u, ku);
  const int iv = deviceTaps<T>(k, gv, k.grid_v, kv);
  deviceSpreadTaps<T>(k.support, ku, kv, iu, iv, k.grid_u, k.grid_u, k.grid_v, vr, vi, grid, add);
}

// The chi2 data term's work on one sample, on the host (ChunkChi2Term) and on the device alike:
// r = model - vis in double; returns w |r|^2 and sets (rr, ri) = w r, the residual the adjoint
// grids. A sample of weight 0 (flagged) contributes nothing, even when its data are not finite.
template <typename T>
APERTURA_HOST_DEVICE inline double chi2Residual(T model_re, T model_im, T vis_re, T vis_im,
                                                float weight, T& rr, T& ri) {
  if (weight == 0.0f) {
    rr = T(0);
    ri = T(0);
    return 0.0;
  }
  const double w = weight;
  const double dr = double(model_re) - double(vis_re), di = double(model_im) - double(vis_im);
  rr = T(w * dr);
  ri = T(w * di);
  return w * (dr * dr + di * di);
}

// One sample of a chi2 pass in one go: the model from `model_grid` (as deviceDegridSample), the
// weighted residual (chi2Residual, returned in rr, ri) and, when `target` is not null, its
// spreading onto `target` (as deviceGridSample). Returns the sample's w |r|^2.
template <typename T, typename Cx, typename G, typename Add>
APERTURA_HOST_DEVICE inline double deviceChi2Sample(const DeviceKernelParams& k, double gu,
                                                    double gv, const Cx* model_grid, T vis_re,
                                                    T vis_im, float weight, G* target, Add add,
                                                    T& rr, T& ri) {
  rr = T(0);
  ri = T(0);
  if (weight == 0.0f)
    return 0.0;
  T mr, mi;
  deviceDegridSample<T>(k, gu, gv, model_grid, mr, mi);
  const double chi2 = chi2Residual<T>(mr, mi, vis_re, vis_im, weight, rr, ri);
  if (target)
    deviceGridSample<T>(k, gu, gv, rr, ri, target, add);
  return chi2;
}

}  // namespace apertura::imaging
