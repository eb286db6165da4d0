#pragma once

// Internal to core/cuda: the CUDA kernels of the imaging operator, one thread per sample or pixel
// (the per-sample bodies are in core/imaging/device_gridding.h, which the tests also run on the
// host), and cuFFT's single and double precision entry points.
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstdint>

#include "core/cuda/device_buffers.cuh"
#include "core/imaging/device_gridding.h"
#include "core/imaging/device_wstack.h"

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
// grid coordinates (uvw[3 row] scale_u[channel], uvw[3 row + 1] scale_v[channel]), and with
// w-stacking at w plane coordinate uvw[3 row + 2] scale_w[channel] - w_offset.
struct SampleArgs {
  const double* uvw = nullptr;
  const double* scale_u = nullptr;
  const double* scale_v = nullptr;
  const double* scale_w = nullptr;  // null without w-stacking
  double w_offset = 0.0;
  unsigned long long count = 0;
  unsigned long long channels = 1;

  __device__ void coordinates(unsigned long long i, double& gu, double& gv) const {
    const unsigned long long r = i / channels, c = i - r * channels;
    gu = uvw[3 * r] * scale_u[c];
    gv = uvw[3 * r + 1] * scale_v[c];
  }

  __device__ double wCoordinate(unsigned long long i) const {
    const unsigned long long r = i / channels, c = i - r * channels;
    return imaging::deviceWCoordinate(uvw[3 * r + 2], scale_w[c], w_offset);
  }
};

__device__ inline unsigned long long threadIndex() {
  return blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
}

// The per-sample and per-pixel bodies are in core/imaging/device_gridding.h (also run on the host
// by the tests); these kernels map one thread to one sample or pixel. Degridding visits the
// samples in `order` when given (sorted by grid tile, so neighbouring threads read neighbouring
// cells), which changes no sample's arithmetic.
template <typename T>
__global__ void degridKernel(DeviceKernelParams k, SampleArgs s,
                             const typename DeviceComplex<T>::type* __restrict__ grid,
                             const std::uint32_t* __restrict__ order,
                             typename DeviceComplex<T>::type* __restrict__ vis) {
  const unsigned long long j = threadIndex();
  if (j >= s.count)
    return;
  const unsigned long long i = order ? order[j] : j;
  double gu, gv;
  s.coordinates(i, gu, gv);
  T re, im;
  imaging::deviceDegridSample<T>(k, gu, gv, grid, re, im);
  vis[i].x = re;
  vis[i].y = im;
}

// Adds a T product into a grid of G (T, or double for double accumulation).
struct AtomicAdd {
  template <typename G, typename V>
  __device__ void operator()(G* target, V value) const {
    atomicAdd(target, G(value));
  }
};

// Sample i's visibility times its weight (weights may be null: all ones) into (vr, vi); false for
// a sample of weight 0 (flagged), which gridding skips, as on the CPU.
template <typename T>
__device__ inline bool weightedVisibility(const typename DeviceComplex<T>::type* __restrict__ vis,
                                          const float* __restrict__ weights, unsigned long long i,
                                          T& vr, T& vi) {
  const T w = weights ? T(weights[i]) : T(1);
  if (w == T(0))
    return false;
  vr = vis[i].x * w;
  vi = vis[i].y * w;
  return true;
}

// grid (interleaved re, im) += weight * vis * taps (weightedVisibility).
template <typename T, typename G>
__global__ void gridKernel(DeviceKernelParams k, SampleArgs s,
                           const typename DeviceComplex<T>::type* __restrict__ vis,
                           const float* __restrict__ weights, G* grid) {
  const unsigned long long i = threadIndex();
  if (i >= s.count)
    return;
  T vr, vi;
  if (!weightedVisibility<T>(vis, weights, i, vr, vi))
    return;
  double gu, gv;
  s.coordinates(i, gu, gv);
  imaging::deviceGridSample<T>(k, gu, gv, vr, vi, grid, AtomicAdd{});
}

// The sum of a block's threads' values, valid in thread 0 (warp shuffles, then one shared value
// per warp); blockDim.x is a multiple of 32.
__device__ inline double blockSum(double value) {
  __shared__ double warp_sums[32];
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffu, value, offset);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warp_sums[warp] = value;
  __syncthreads();
  value = 0.0;
  if (warp == 0) {
    if (lane < blockDim.x / 32)
      value = warp_sums[lane];
    for (int offset = 16; offset > 0; offset /= 2)
      value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

// A chi2 pass over one block's samples (deviceChi2Sample: model from model_grid, weighted
// residual, spread onto target unless it is null), a grid-stride loop over a fixed number of
// blocks; block b writes the sum of its samples' w |r|^2 to partial[b], so the host adds the
// same partials in the same order whatever the atomics' order was.
template <typename T, typename G>
__global__ void chi2Kernel(DeviceKernelParams k, SampleArgs s,
                           const typename DeviceComplex<T>::type* __restrict__ model_grid,
                           const float2* __restrict__ vis, const float* __restrict__ weights,
                           G* target, double* partial) {
  double sum = 0.0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = threadIndex(); i < s.count; i += stride) {
    double gu, gv;
    s.coordinates(i, gu, gv);
    T rr, ri;
    sum += imaging::deviceChi2Sample<T>(k, gu, gv, model_grid, T(vis[i].x), T(vis[i].y), weights[i],
                                        target, AtomicAdd{}, rr, ri);
  }
  sum = blockSum(sum);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sum;
}

// The sum of per-sample terms with chi2Kernel's loop and reduction (same launch: the same
// partial sums, bit for bit, as chi2Kernel over the samples that gave the terms).
static __global__ void sumTermsKernel(const double* __restrict__ terms, unsigned long long n,
                                      double* partial) {
  double sum = 0.0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = threadIndex(); i < n; i += stride)
    sum += terms[i];
  sum = blockSum(sum);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sum;
}

// This thread's image pixel: its index p, column ix and row iy; false past the nx * ny pixels.
__device__ inline bool threadPixel(int nx, int ny, unsigned long long& p, int& ix, int& iy) {
  p = threadIndex();
  if (p >= static_cast<unsigned long long>(nx) * ny)
    return false;
  iy = int(p / nx);
  ix = int(p - static_cast<unsigned long long>(iy) * nx);
  return true;
}

// The gridding correction between the image's pixels and their grid cells: image into the
// (zeroed) grid when ToGrid, else grid into image.
template <typename T, bool ToGrid>
__global__ void correctionKernel(int nx, int ny, int nu, int nv,
                                 const typename DeviceComplex<T>::type* __restrict__ from,
                                 const T* __restrict__ corr_x, const T* __restrict__ corr_y,
                                 typename DeviceComplex<T>::type* __restrict__ to) {
  unsigned long long p;
  int ix, iy;
  if (!threadPixel(nx, ny, p, ix, iy))
    return;
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

// A 2-D plan for an nu x nv grid (u fastest) on `stream`; its work area is counted in `bytes`.
inline cufftHandle makeFftPlan(int nu, int nv, cufftType type, cudaStream_t stream,
                               const ByteCounter& bytes) {
  cufftHandle plan = 0;
  checkFft(cufftPlan2d(&plan, nv, nu, type), "cufftPlan2d");
  checkFft(cufftSetStream(plan, stream), "cufftSetStream");
  std::size_t work = 0;
  if (cufftGetSize(plan, &work) == CUFFT_SUCCESS)
    bytes->fetch_add(std::int64_t(work));
  return plan;
}

}  // namespace apertura::cuda
