#pragma once

#include <string>

#include "core/cuda/cuda_module.h"

namespace apertura::imaging {

// The CUDA backend module, loaded once per process (thread-safe) and never unloaded (operators'
// code lives in it).
struct CudaModule {
  cuda::QueryFn query = nullptr;
  cuda::MakeFloatFn make_float = nullptr;
  cuda::MakeDoubleFn make_double = nullptr;
  std::string path;
};

// The module, or null with `problem` saying why: this build has no CUDA backend, the module was
// not found (APERTURA_CUDA_MODULE names it explicitly; else it is looked for in lib/apertura
// beside or above the program's folder), it does not load (e.g. no CUDA runtime), or it is stale.
const CudaModule* loadCudaModule(std::string& problem);

}  // namespace apertura::imaging
