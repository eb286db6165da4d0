#pragma once

// apertura_cuda's imaging operator. No CUDA headers here: core's operator factory includes this
// file and calls makeCudaOperator when the backend is built (APERTURA_HAVE_CUDA). apertura_cuda
// uses only header-only parts of core, so core can link it without a cycle: everything it needs
// from core's compiled code (kernel choice, gridding correction) arrives in the config.
#include <memory>
#include <string>
#include <vector>

#include "core/imaging/device_kernel.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"

namespace apertura::cuda {

struct CudaOperatorConfig {
  imaging::ImageGeometry geometry;
  imaging::OperatorSettings settings;
  imaging::KernelShape kernel;         // as chosen by makeOperatorLayout
  imaging::DeviceKernelParams packed;  // the same kernel and the grid size, for the device
  std::vector<double> corr_x, corr_y;  // gridding correction per image column / row
  int device = 0;
  int threads_per_block = 256;
  bool tiled_gridding = true;  // APERTURA_CUDA_GRIDDER: tiled (default) or simple
  std::string description;     // the kernel/grid part of describe(), written by the caller
};

// Throws InputError for w-stacking, a missing device or too little device memory (the message
// names the amount needed), std::runtime_error for CUDA failures.
template <typename T>
std::unique_ptr<imaging::ImagingOperator<T>> makeCudaOperator(const CudaOperatorConfig& config);

}  // namespace apertura::cuda
