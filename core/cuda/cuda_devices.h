#pragma once

// apertura_cuda's device query (no CUDA headers here: core includes this file).
#include "core/imaging/gpu_devices.h"

namespace apertura::cuda {

// Devices the CUDA runtime sees, with their free memory; never throws.
imaging::GpuInventory queryDevices();

}  // namespace apertura::cuda
