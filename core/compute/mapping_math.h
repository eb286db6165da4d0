#pragma once

// The pixel-by-pixel maps from the solver's variables x to the image I (rml::MappedObjective),
// written once for the host and the device: I = phi(x) inside the support, 0 outside, and the
// chain rule's phi'(x).
#include <cmath>

#include "core/imaging/device_kernel.h"  // APERTURA_HOST_DEVICE

namespace apertura::compute {

enum class PixelMapping {
  Exp,      // I = exp(x)
  Softplus  // I = ln(1 + exp(x))
};

namespace mapping {

APERTURA_HOST_DEVICE inline double softplus(double x) {
#if !defined(__CUDA_ARCH__)
  using std::exp;
  using std::log1p;
#endif
  return x > 0.0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

APERTURA_HOST_DEVICE inline double sigmoid(double x) {
#if !defined(__CUDA_ARCH__)
  using std::exp;
#endif
  if (x >= 0.0)
    return 1.0 / (1.0 + exp(-x));
  const double e = exp(x);
  return e / (1.0 + e);
}

// phi(x).
APERTURA_HOST_DEVICE inline double toImage(PixelMapping m, double x) {
#if !defined(__CUDA_ARCH__)
  using std::exp;
#endif
  return m == PixelMapping::Exp ? exp(x) : softplus(x);
}

// phi'(x), from x and I = phi(x) (for exp, I itself).
APERTURA_HOST_DEVICE inline double derivative(PixelMapping m, double x, double image) {
  return m == PixelMapping::Exp ? image : sigmoid(x);
}

}  // namespace mapping
}  // namespace apertura::compute
