#pragma once

// The entry points of the CUDA backend module (libapertura_cuda.so), which core loads at run time
// (core/imaging/cuda_module_loader.h) so that no Apertura program needs the CUDA runtime or cuFFT
// to start: without the module, or without a driver, the CPU backend is used. No CUDA headers
// here. Both sides are built from the same tree; the ABI number guards against a stale module.
#include "core/cuda/cuda_operator.h"
#include "core/imaging/gpu_devices.h"

namespace apertura::cuda {

// Bump when CudaOperatorConfig, GpuInventory or the entry points change.
constexpr int kCudaModuleAbi = 4;  // 4: VectorSpace dual passes (primalFromDual, dualStep)
constexpr const char* kCudaModuleFile = "libapertura_cuda.so";

using AbiFn = int (*)();
using QueryFn = void (*)(imaging::GpuInventory&);
// The operators are returned as owning raw pointers (the caller wraps them in unique_ptr); errors
// are thrown (InputError for the user's settings and memory, std::runtime_error for CUDA).
using MakeFloatFn = imaging::ImagingOperator<float>* (*)(const CudaOperatorConfig&);
using MakeDoubleFn = imaging::ImagingOperator<double>* (*)(const CudaOperatorConfig&);

}  // namespace apertura::cuda
