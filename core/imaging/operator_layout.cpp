#include "core/imaging/operator_layout.h"

#include <algorithm>
#include <cmath>

#include "core/imaging/device_kernel.h"
#include "core/imaging/fft_plans.h"
#include "core/imaging/gridding_correction.h"
#include "core/util/input_error.h"

namespace apertura::imaging {

OperatorLayout makeOperatorLayout(const ImageGeometry& g, const OperatorSettings& s,
                                  bool single_precision) {
  if (g.nx < 2 || g.ny < 2 || g.nx % 2 || g.ny % 2)
    throw InputError("image size", "image dimensions must be even and at least 2");
  if (single_precision && s.epsilon < 1e-7)
    throw InputError("epsilon", "single precision cannot reach an accuracy below 1e-7");
  OperatorLayout l;
  // As in cpu_operator.cpp: w-stacking asks each axis for a bit more accuracy.
  l.kernel = chooseKernel(s.kernel, s.w_stacking ? s.epsilon / 1.5 : s.epsilon, s.oversampling);
  l.grid_u = goodFftSize(int(std::ceil(s.oversampling * g.nx)));
  l.grid_v = goodFftSize(int(std::ceil(s.oversampling * g.ny)));
  l.grid_u = std::max(l.grid_u, goodFftSize(2 * l.kernel.support));
  l.grid_v = std::max(l.grid_v, goodFftSize(2 * l.kernel.support));
  for (double p : kernelTransform(l.kernel, g.nx, l.grid_u))
    l.corr_x.push_back(1.0 / p);
  for (double p : kernelTransform(l.kernel, g.ny, l.grid_v))
    l.corr_y.push_back(1.0 / p);
  return l;
}

DeviceKernelParams packDeviceKernel(const KernelShape& kernel, int grid_u, int grid_v) {
  DeviceKernelParams p;
  switch (kernel.type) {
    case KernelType::ExpSemicircle:
      p.form = DeviceKernelParams::kExpSemicircle;
      break;
    case KernelType::KaiserBessel:
    case KernelType::Prolate:
      p.form = DeviceKernelParams::kBessel;
      break;
    case KernelType::Pillbox:
      p.form = DeviceKernelParams::kPillbox;
      break;
  }
  p.support = kernel.support;
  p.beta = kernel.beta;
  p.inv_i0_beta =
      p.form == DeviceKernelParams::kBessel ? 1.0 / std::cyl_bessel_i(0.0, kernel.beta) : 1.0;
  p.grid_u = grid_u;
  p.grid_v = grid_v;
  return p;
}

}  // namespace apertura::imaging
