#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace apertura::imaging {

// A CUDA device as the front ends list it.
struct GpuDevice {
  int index = 0;
  std::string name;
  std::size_t total_bytes = 0;
  std::size_t free_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
};

// What this build and machine offer: whether the CUDA backend was compiled in, the devices found,
// and, when there are none, why (the CUDA runtime's message).
struct GpuInventory {
  bool built_with_cuda = false;
  std::vector<GpuDevice> devices;
  std::string problem;

  // One line per device, or "built without CUDA" / "no CUDA device (reason)".
  std::string describe() const;
};

// Queries the CUDA runtime (a stub that reports built_with_cuda = false when CUDA is absent).
// Never throws: a broken driver is reported in `problem`.
GpuInventory queryGpuDevices();

// "NVIDIA H200, 139.8 GiB, compute 9.0, 132 SMs" for logs.
std::string describeGpu(const GpuDevice& device);

}  // namespace apertura::imaging
