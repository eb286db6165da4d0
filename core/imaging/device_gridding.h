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

// Interpolation of the (FFT'd) grid at grid coordinates (gu, gv). Cx is float2/double2 on the
// device, any struct with members x (real) and y (imaginary) on the host.
template <typename T, typename Cx>
APERTURA_HOST_DEVICE inline void deviceDegridSample(const DeviceKernelParams& k, double gu,
                                                    double gv, const Cx* grid, T& re, T& im) {
  T ku[kMaxSupport], kv[kMaxSupport];
  const int iu = deviceTaps<T>(k, gu, k.grid_u, ku);
  int v = deviceTaps<T>(k, gv, k.grid_v, kv);
  T sr = 0, si = 0;
  for (int a = 0; a < k.support; ++a) {
    const Cx* row = grid + std::size_t(v) * k.grid_u;
    T tr = 0, ti = 0;
    int u = iu;
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

// Spreads the (weighted) visibility (vr, vi) onto the grid around (gu, gv): add(&grid value,
// amount) for the real and imaginary part of each of the W x W cells (atomicAdd on the device).
// `grid` holds interleaved real and imaginary parts.
template <typename T, typename Add>
APERTURA_HOST_DEVICE inline void deviceGridSample(const DeviceKernelParams& k, double gu, double gv,
                                                  T vr, T vi, T* grid, Add add) {
  T ku[kMaxSupport], kv[kMaxSupport];
  const int iu = deviceTaps<T>(k, gu, k.grid_u, ku);
  int v = deviceTaps<T>(k, gv, k.grid_v, kv);
  for (int a = 0; a < k.support; ++a) {
    T* row = grid + 2 * std::size_t(v) * k.grid_u;
    const T fr = vr * kv[a], fi = vi * kv[a];
    int u = iu;
    for (int b = 0; b < k.support; ++b) {
      add(row + 2 * u, fr * ku[b]);
      add(row + 2 * u + 1, fi * ku[b]);
      if (++u == k.grid_u)
        u = 0;
    }
    if (++v == k.grid_v)
      v = 0;
  }
}

}  // namespace apertura::imaging
