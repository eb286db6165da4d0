#include "core/imaging/kernel.h"

#include <cmath>

#include "core/util/input_error.h"

namespace apertura::imaging {

std::string kernelTypeName(KernelType type) {
  switch (type) {
    case KernelType::ExpSemicircle:
      return "es";
    case KernelType::KaiserBessel:
      return "kb";
    case KernelType::Prolate:
      return "prolate";
    case KernelType::Pillbox:
      return "pillbox";
  }
  return "es";
}

KernelType parseKernelType(const std::string& name) {
  if (name == "es")
    return KernelType::ExpSemicircle;
  if (name == "kb")
    return KernelType::KaiserBessel;
  if (name == "prolate")
    return KernelType::Prolate;
  if (name == "pillbox")
    return KernelType::Pillbox;
  throw InputError("kernel",
                   "unknown gridding kernel '" + name + "' (expected es, kb, prolate or pillbox)");
}

double KernelShape::operator()(double x) const {
  if (std::abs(x) > 1.0)
    return 0.0;
  const double s = std::sqrt(std::max(0.0, 1.0 - x * x));
  switch (type) {
    case KernelType::ExpSemicircle:
      return std::exp(beta * (s - 1.0));
    case KernelType::KaiserBessel:
    case KernelType::Prolate:
      return std::cyl_bessel_i(0.0, beta * s) / std::cyl_bessel_i(0.0, beta);
    case KernelType::Pillbox:
      return 1.0;
  }
  return 0.0;
}

}  // namespace apertura::imaging
