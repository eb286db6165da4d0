#pragma once

#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/kernel.h"
#include "core/imaging/tile_plan.h"

namespace apertura::imaging {

// w-stacking with a gridding kernel along w as well (the "improved w-stacking" of Ye, Gull, Tan &
// Nikolic 2020 / Arras et al. 2021): the w-term exp(-2 pi i w (n - 1)) is a third NUFFT axis whose
// "pixel coordinates" are xi = (n - 1) - x0 (x0 the centre of the image's n - 1 range). Samples are
// spread over W_w planes w_j = w0 + j dw with the same kernel; each plane carries the phase screen
// exp(-2 pi i w_j xi) in the image plane, the image is divided by the kernel's transform at
// dw * xi, and each sample gets the residual phase exp(-2 pi i w x0). With dw = 1 / (2 sigma
// |xi|max) this reaches the same accuracy as the u and v axes.
struct WStackLayout {
  bool active = false;
  int planes = 1;
  double w0 = 0.0;                 // wavelengths at plane 0
  double dw = 1.0;                 // wavelengths between planes
  double x0 = 0.0;                 // centre of the image's n - 1 range
  std::vector<double> xi;          // per pixel: n - 1 - x0
  std::vector<double> correction;  // per pixel: 1 / psi_w(dw * xi)
};

// Plans the planes for samples whose w (wavelengths) spans [w_min, w_max].
WStackLayout planWStack(const ImageGeometry& geometry, const KernelShape& kernel, double w_min,
                        double w_max);

// Smallest and largest w in wavelengths over all samples of the blocks.
void wRange(const std::vector<UvwBlock>& blocks, double& w_min, double& w_max);

// The planes an operator with `settings` (w_stacking on) uses for `blocks`: their w range widened
// to settings' w_cover range. Every backend plans its planes here, so they agree.
WStackLayout planWStackFor(const std::vector<UvwBlock>& blocks, const ImageGeometry& geometry,
                           const KernelShape& kernel, const OperatorSettings& settings);

}  // namespace apertura::imaging
