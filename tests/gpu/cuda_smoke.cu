// Proves the CUDA toolchain and runtime work end to end: a kernel runs and returns right numbers.
// Without a usable device it exits 77, which CTest reports as skipped.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void axpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device (%s)\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "device count 0");
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device 0: %s, %.1f GiB\n", prop.name, prop.totalGlobalMem / 1073741824.0);

  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  const cudaError_t run = cudaDeviceSynchronize();
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  if (run != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(run));
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    if (std::fabs(y[i] - (2.0f * static_cast<float>(i % 97) + 1.0f)) > 0.0f) {
      std::printf("wrong result at %d: %f\n", i, y[i]);
      return 1;
    }
  }
  std::printf("axpy on %d elements correct\n", n);
  return 0;
}
