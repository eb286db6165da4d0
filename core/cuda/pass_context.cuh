#pragma once

// Internal to core/cuda: what the CUDA operator's passes (BlockPasses, WStackPasses) use of it.
#include <cuda_runtime.h>

#include "core/cuda/device_buffers.cuh"
#include "core/imaging/device_kernel.h"
#include "core/imaging/image_geometry.h"

namespace apertura::cuda {

struct PassContext {
  imaging::DeviceKernelParams packed;  // the kernel (also along w) and the grid size
  imaging::ImageGeometry geometry;
  cudaStream_t stream = nullptr;
  unsigned threads = 256;
  int device = 0;
  ByteCounter bytes;

  unsigned blocksFor(std::size_t n) const { return unsigned((n + threads - 1) / threads); }
};

}  // namespace apertura::cuda
