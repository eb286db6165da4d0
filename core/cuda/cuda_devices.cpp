// Plain C++ against the CUDA runtime API (no device code, so g++ builds it, not nvcc).
#include "core/cuda/cuda_devices.h"

#include <cuda_runtime.h>

namespace apertura::cuda {

imaging::GpuInventory queryDevices() {
  imaging::GpuInventory inv;
  inv.built_with_cuda = true;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    inv.problem = cudaGetErrorString(status);
    cudaGetLastError();  // clear the (non-sticky) error so later calls start clean
    return inv;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess)
      continue;
    imaging::GpuDevice d;
    d.index = i;
    d.name = prop.name;
    d.total_bytes = prop.totalGlobalMem;
    d.compute_major = prop.major;
    d.compute_minor = prop.minor;
    d.multiprocessors = prop.multiProcessorCount;
    int previous = 0;
    if (cudaGetDevice(&previous) == cudaSuccess && cudaSetDevice(i) == cudaSuccess) {
      std::size_t free_bytes = 0, total = 0;
      if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess)
        d.free_bytes = free_bytes;
      cudaSetDevice(previous);
    }
    inv.devices.push_back(d);
  }
  if (inv.devices.empty() && inv.problem.empty())
    inv.problem = "the CUDA runtime reports no device";
  return inv;
}

}  // namespace apertura::cuda
