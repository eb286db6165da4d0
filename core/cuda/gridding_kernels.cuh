#pragma once

// Internal to core/cuda: the CUDA kernels of the imaging operator, one thread per sample or pixel
// (the per-sample bodies are in core/imaging/device_gridding.h, which the tests also run on the
// host), and cuFFT's single and double precision entry points.
#include <cuda_runtime.h>
#include <cufft.h>

#include "core/imaging/device_gridding.h"

namespace apertura::cuda {

using imaging::DeviceKernelParams;

template <typename T>
struct DeviceComplex;
template <>
struct DeviceComplex<float> {
  using type = float2;
};
template <>
struct DeviceComplex<double> {
  using type = double2;
};

// Where the samples of one block are on the device: sample i = row * channels + channel sits at
// grid coordinates (uvw[3 row] scale_u[channel], uvw[3 row + 1] scale_v[channel]).
struct SampleArgs {
  const double* uvw = nullptr;
  const double* scale_u = nullptr;
  const double* scale_v = nullptr;
  unsigned long long count = 0;
  unsigned long long channels = 1;
};

__device__ inline unsigned long long threadIndex() {
  return blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
}

// The per-sample and per-pixel bodies are in core/imaging/device_gridding.h (also run on the host
// by the tests); these kernels map one thread to one sample or pixel.
template <typename T>
__global__ void degridKernel(DeviceKernelParams k, SampleArgs s,
                             const typename DeviceComplex<T>::type* __restrict__ grid,
                             typename DeviceComplex<T>::type* __restrict__ vis) {
  const unsigned long long i = threadIndex();
  if (i >= s.count)
    return;
  const unsigned long long r = i / s.channels, c = i - r * s.channels;
  T re, im;
  imaging::deviceDegridSample<T>(k, s.uvw[3 * r] * s.scale_u[c], s.uvw[3 * r + 1] * s.scale_v[c],
                                 grid, re, im);
  vis[i].x = re;
  vis[i].y = im;
}

struct AtomicAdd {
  template <typename T>
  __device__ void operator()(T* target, T value) const {
    atomicAdd(target, value);
  }
};

// grid (interleaved re, im) += weight * vis * taps; weights may be null (all ones); samples of
// weight 0 (flagged) are skipped, as on the CPU.
template <typename T>
__global__ void gridKernel(DeviceKernelParams k, SampleArgs s,
                           const typename DeviceComplex<T>::type* __restrict__ vis,
                           const float* __restrict__ weights, T* grid) {
  const unsigned long long i = threadIndex();
  if (i >= s.count)
    return;
  const T w = weights ? T(weights[i]) : T(1);
  if (w == T(0))
    return;
  const unsigned long long r = i / s.channels, c = i - r * s.channels;
  imaging::deviceGridSample<T>(k, s.uvw[3 * r] * s.scale_u[c], s.uvw[3 * r + 1] * s.scale_v[c],
                               vis[i].x * w, vis[i].y * w, grid, AtomicAdd{});
}

// The gridding correction between the image's pixels and their grid cells: image into the
// (zeroed) grid when ToGrid, else grid into image.
template <typename T, bool ToGrid>
__global__ void correctionKernel(int nx, int ny, int nu, int nv,
                                 const typename DeviceComplex<T>::type* __restrict__ from,
                                 const T* __restrict__ corr_x, const T* __restrict__ corr_y,
                                 typename DeviceComplex<T>::type* __restrict__ to) {
  const unsigned long long p = threadIndex();
  if (p >= static_cast<unsigned long long>(nx) * ny)
    return;
  const int iy = int(p / nx), ix = int(p - static_cast<unsigned long long>(iy) * nx);
  const unsigned long long cell = imaging::devicePixelCell(ix, iy, nx, ny, nu, nv);
  const T corr = corr_y[iy] * corr_x[ix];
  typename DeviceComplex<T>::type z = from[ToGrid ? p : cell];
  z.x *= corr;
  z.y *= corr;
  to[ToGrid ? cell : p] = z;
}

// cuFFT's single and double precision entry points.
template <typename T>
struct Fft;
template <>
struct Fft<float> {
  static constexpr cufftType kType = CUFFT_C2C;
  static cufftResult exec(cufftHandle plan, float2* data, int direction) {
    return cufftExecC2C(plan, data, data, direction);
  }
};
template <>
struct Fft<double> {
  static constexpr cufftType kType = CUFFT_Z2Z;
  static cufftResult exec(cufftHandle plan, double2* data, int direction) {
    return cufftExecZ2Z(plan, data, data, direction);
  }
};

}  // namespace apertura::cuda
