// The device query behind a plain C++ interface: with APERTURA_HAVE_CUDA it asks the CUDA module
// (core/cuda, loaded at run time), without it the inventory says "built without CUDA".
#include "core/imaging/gpu_devices.h"

#include <cstdio>

#include "core/imaging/cuda_module_loader.h"

namespace apertura::imaging {

std::string describeGpu(const GpuDevice& d) {
  char line[256];
  std::snprintf(line, sizeof line, "%s, %.1f GiB (%.1f GiB free), compute %d.%d, %d SMs",
                d.name.c_str(), double(d.total_bytes) / 1073741824.0,
                double(d.free_bytes) / 1073741824.0, d.compute_major, d.compute_minor,
                d.multiprocessors);
  return line;
}

std::string GpuInventory::describe() const {
  if (!built_with_cuda)
    return "built without CUDA";
  if (devices.empty())
    return "no CUDA device" + (problem.empty() ? std::string() : " (" + problem + ")");
  std::string out;
  for (const GpuDevice& d : devices)
    out += "cuda:" + std::to_string(d.index) + "  " + describeGpu(d) + "\n";
  out.pop_back();
  return out;
}

GpuInventory queryGpuDevices() {
  GpuInventory inventory;
#if APERTURA_HAVE_CUDA
  inventory.built_with_cuda = true;
  std::string problem;
  if (const CudaModule* module = loadCudaModule(problem))
    module->query(inventory);
  else
    inventory.problem = problem;
#endif
  return inventory;
}

}  // namespace apertura::imaging
