#include "core/imaging/kernel.h"

#include <cmath>

#include "core/util/input_error.h"

namespace apertura::imaging {

std::string kernelTypeName(KernelType type) {
  return choiceName(type);
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

namespace apertura {

template <>
const std::vector<ChoiceName<imaging::KernelType>>& choiceTable<imaging::KernelType>() {
  using imaging::KernelType;
  static const std::vector<ChoiceName<KernelType>> t = {{KernelType::ExpSemicircle, "es"},
                                                        {KernelType::KaiserBessel, "kaiser-bessel"},
                                                        {KernelType::Prolate, "pswf"},
                                                        {KernelType::Pillbox, "pillbox"}};
  return t;
}

}  // namespace apertura
