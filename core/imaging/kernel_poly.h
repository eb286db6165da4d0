#pragma once

#include <vector>

#include "core/imaging/kernel.h"

namespace apertura::imaging {

// Piecewise-polynomial form of a kernel, so that the W tap values of one sample cost one Horner
// evaluation per tap instead of an exp and a sqrt. For a sample at grid coordinate g the taps sit
// at cells i0 + j, j = 0..W-1, with i0 = ceil(g - W/2); with y = 2 (i0 - g) + W - 1 in [-1, 1) tap
// j has kernel argument x = (2 j - W + 1 + y) / W, and phi(x) ~ sum_d coeff[d * W + j] y^(D - d)
// (highest power first). Coefficients come from Chebyshev interpolation of each tap's piece.
template <typename T>
struct KernelPolynomial {
  int support = 0;
  int degree = 0;
  std::vector<T> coeff;  // (degree + 1) * support, highest power first
  // The same coefficients with every power's row padded by zero taps to paddedSupport(support)
  // columns, so the tile loops run over whole SIMD vectors; a padded tap evaluates to exactly 0.
  std::vector<T> padded;

  static constexpr int paddedSupport(int w) { return (w + 3) / 4 * 4; }

  // Tap values at y, written to taps[0..W).
  void evaluate(T y, T* taps) const {
    for (int j = 0; j < support; ++j)
      taps[j] = coeff[j];
    for (int d = 1; d <= degree; ++d) {
      const T* c = coeff.data() + d * support;
      for (int j = 0; j < support; ++j)
        taps[j] = taps[j] * y + c[j];
    }
  }
};

// The lowest degree (up to support + 8) whose maximum absolute error against the exact kernel is
// below `tolerance`.
template <typename T>
KernelPolynomial<T> fitKernelPolynomial(const KernelShape& kernel, double tolerance);

}  // namespace apertura::imaging
