#pragma once

// Internal to core/cuda: the kernels behind CudaVectorSpace (cuda_vector_space.cu: vector
// arithmetic and the solvers' passes; cuda_space_images.cu: penalties, proxes and mappings).
// Element-wise kernels take one thread per element; reductions have a fixed launch, so their
// sums are the same bits on every call.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "core/cuda/cuda_vector_space.cuh"
#include "core/cuda/gridding_kernels.cuh"

namespace apertura::cuda::space {

inline constexpr unsigned kThreads = 256;
// Blocks of the reductions' grid-stride loop: enough to fill an H200 (132 SMs) several times.
inline constexpr unsigned kReduceBlocks = 1024;
inline constexpr int kMaxSums = 7;

inline unsigned elementBlocks(std::size_t n) {
  return unsigned((n + kThreads - 1) / kThreads);
}

// Partial sums of K terms per block: thread t of block b takes elements b * kThreads + t, then
// every gridDim.x * kThreads further (a fixed assignment for a given n), and blockSum adds a
// block's threads in a fixed tree.
template <int K, typename Term>
__global__ void reduceKernel(unsigned long long n, Term term, double* __restrict__ partial) {
  double acc[K];
  for (int k = 0; k < K; ++k)
    acc[k] = 0.0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = threadIndex(); i < n; i += stride)
    term(i, acc);
  for (int k = 0; k < K; ++k) {
    const double s = blockSum(acc[k]);
    if (threadIdx.x == 0)
      partial[k * gridDim.x + blockIdx.x] = s;
    __syncthreads();  // blockSum's shared slots are reused by the next k
  }
}

// The K totals of `blocks` partials each, by one block in a fixed order, into totals[0..K).
template <int K>
__global__ void totalKernel(const double* __restrict__ partial, unsigned blocks,
                            double* __restrict__ totals) {
  for (int k = 0; k < K; ++k) {
    double s = 0.0;
    for (unsigned b = threadIdx.x; b < blocks; b += blockDim.x)
      s += partial[k * blocks + b];
    s = blockSum(s);
    if (threadIdx.x == 0)
      totals[k] = s;
    __syncthreads();
  }
}

template <typename F>
__global__ void forEachKernel(unsigned long long n, F f) {
  const unsigned long long i = threadIndex();
  if (i < n)
    f(i);
}

__device__ inline bool heldAt(bool positivity, double x, double g) {
  return positivity && x <= 0.0 && g >= 0.0;
}

inline void requireSame(std::size_t a, std::size_t b, const char* op) {
  if (a != b)
    throw std::invalid_argument(std::string("CUDA vector space: ") + op +
                                " of vectors of different sizes");
}

}  // namespace apertura::cuda::space

namespace apertura::cuda {

template <int K, typename Term>
void CudaVectorSpace::reduce(std::size_t n, Term term, double* sums) {
  selectDevice();
  const unsigned b = blocks(n);
  double* partial = partials_.data();
  double* totals = partial + space::kMaxSums * space::kReduceBlocks;
  space::reduceKernel<K><<<b, space::kThreads, 0, stream_>>>(n, term, partial);
  check(cudaGetLastError(), "reduction kernel launch");
  space::totalKernel<K><<<1, space::kThreads, 0, stream_>>>(partial, b, totals);
  check(cudaGetLastError(), "reduction total kernel launch");
  check(
      cudaMemcpyAsync(totals_.data(), totals, K * sizeof(double), cudaMemcpyDeviceToHost, stream_),
      "download of a reduction");
  check(cudaStreamSynchronize(stream_), "reduction");
  const auto* t = reinterpret_cast<const double*>(totals_.data());
  for (int k = 0; k < K; ++k)
    sums[k] = t[k];
}

}  // namespace apertura::cuda
