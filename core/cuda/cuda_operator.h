#pragma once

// apertura_cuda's imaging operator. No CUDA headers here: core's operator factory includes this
// file and calls makeCudaOperator when the backend is built (APERTURA_HAVE_CUDA). apertura_cuda
// uses only header-only parts of core, so core can link it without a cycle: everything it needs
// from core's compiled code (kernel choice, gridding correction) arrives in the config.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/imaging/device_kernel.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/w_stacking.h"

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
  // describe()'s kernel and grid fields (before wstack_planes) and its precision fields (after),
  // written by the caller as the CPU operator writes them.
  std::string description, description_tail;
  // With settings.w_stacking: the planes for the blocks given to setSamples (planWStackFor, which
  // is core's compiled code).
  std::function<imaging::WStackLayout(const std::vector<imaging::UvwBlock>&)> plan_w_stack;
};

// Throws InputError for a missing device or too little device memory (the message names the
// amount needed), std::runtime_error for CUDA failures.
template <typename T>
std::unique_ptr<imaging::ImagingOperator<T>> makeCudaOperator(const CudaOperatorConfig& config);

}  // namespace apertura::cuda
