#pragma once

#include <memory>
#include <string>

#include "core/imaging/backend_kind.h"
#include "core/imaging/gpu_devices.h"
#include "core/imaging/imaging_operator.h"

namespace apertura::imaging {

// Which backend a run asked for: imaging.backend and imaging.gpu_device.
struct BackendRequest {
  Backend backend = Backend::Auto;
  int device = 0;
};

// The decision for a request on this build and machine, and why (for the run log).
struct BackendDecision {
  bool use_cuda = false;
  std::string reason;
};

// Pure decision (no device is touched): Cpu -> CPU; Cuda -> CUDA, or InputError naming
// imaging.backend / imaging.gpu_device when CUDA is not built, no device exists or the index is
// out of range; Auto -> CUDA when it could be used, else the CPU with the reason.
BackendDecision decideBackend(const BackendRequest& request, const GpuInventory& inventory);

// Threads per block of the CUDA kernels from the value of APERTURA_CUDA_THREADS (null or empty:
// 256); InputError unless a multiple of 32 in 32..1024.
int cudaThreadsPerBlock(const char* environment_value);

// Whether the CUDA operator grids with the tiled gridder, from the value of APERTURA_CUDA_GRIDDER:
// null, empty or "tiled" -> true, "simple" (one thread per sample, atomics on the grid) -> false;
// InputError otherwise.
bool cudaTiledGridding(const char* environment_value);

// The operator for a request. With Auto, a CUDA operator that cannot be created (too little
// device memory, say) falls back to the CPU. `report`, when given, receives one line for the run
// log: the backend, the device and why.
template <typename T>
std::unique_ptr<ImagingOperator<T>> makeOperator(const ImageGeometry& geometry,
                                                 const OperatorSettings& settings,
                                                 const BackendRequest& request,
                                                 std::string* report = nullptr);

}  // namespace apertura::imaging
