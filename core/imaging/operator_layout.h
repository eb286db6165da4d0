#pragma once

#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/kernel.h"

namespace apertura::imaging {

// What an operator backend derives from the geometry and settings before any sample is seen: the
// kernel, the oversampled grid size and the gridding correction per image row and column. The CPU
// operator computes the same (tests/imaging/test_operator_factory checks kernel and grid size
// against it), so other backends built on this layout use the same kernel and correction.
struct OperatorLayout {
  KernelShape kernel;
  int grid_u = 0;
  int grid_v = 0;
  std::vector<double> corr_x;  // 1 / psi per image column (multiplies the image)
  std::vector<double> corr_y;  // 1 / psi per image row
};

// Validates like the CPU operator (even image sizes >= 2; float epsilon >= 1e-7) and throws
// InputError otherwise.
OperatorLayout makeOperatorLayout(const ImageGeometry& geometry, const OperatorSettings& settings,
                                  bool single_precision);

}  // namespace apertura::imaging
