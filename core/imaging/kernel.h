#pragma once

#include <string>

#include "core/util/choice_names.h"

namespace apertura::imaging {

// Gridding kernels. The exponential-of-semicircle (ES) kernel of Barnett et al. (FINUFFT) is the
// default: phi(x) = exp(beta * (sqrt(1 - x^2) - 1)) on |x| <= 1. Kaiser-Bessel, a
// prolate-spheroidal stand-in (Kaiser-Bessel with the PSWF bandwidth parameter) and the pillbox
// (nearest cell, W = 1) exist for comparison.
enum class KernelType { ExpSemicircle, KaiserBessel, Prolate, Pillbox };

// Its name (the table below: es, kaiser-bessel, pswf, pillbox), for logs and messages.
std::string kernelTypeName(KernelType type);

// A kernel spans `support` grid cells: the argument x = 2 * delta / support, delta the distance
// in cells from the sample to the cell centre.
struct KernelShape {
  KernelType type = KernelType::ExpSemicircle;
  int support = 6;     // W, cells per axis
  double beta = 13.8;  // shape parameter (unused for the pillbox)
  double oversampling = 2.0;

  double operator()(double x) const;  // exact kernel value, x in [-1, 1]; 0 outside
};

// The smallest support W whose measured accuracy meets `epsilon` at oversampling `sigma`, with beta
// from the tuned table (see kernel_table.cpp for how it was derived). Throws InputError when
// epsilon cannot be met (below ~1e-14) or sigma is outside [1.2, 2.5].
KernelShape chooseKernel(KernelType type, double epsilon, double sigma);

// The measured 1-D L2 relative error of the tuned ES kernel of support W at oversampling sigma
// (interpolated from the table): what chooseKernel compares epsilon against.
double tabulatedEsError(int support, double sigma);

constexpr int kMaxSupport = 16;

}  // namespace apertura::imaging

namespace apertura {
template <>
const std::vector<ChoiceName<imaging::KernelType>>& choiceTable<imaging::KernelType>();
}  // namespace apertura
