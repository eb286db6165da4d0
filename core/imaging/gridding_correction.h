#pragma once

#include <vector>

#include "core/imaging/kernel.h"

namespace apertura::imaging {

// The continuous Fourier transform of the kernel in grid-cell units,
//   psi(p) = integral phi(2 d / W) exp(2 pi i p d / N) dd,
// at the image pixel offsets p = -n/2 .. n - n/2 - 1 of an n-pixel axis on an N-cell grid. The ES
// kernel has no closed-form transform, so every kernel is integrated numerically (Gauss-Legendre
// after x = sin(theta), which removes the square-root branch points at |x| = 1 and so converges
// exponentially). Dividing the image by psi undoes the kernel's taper ("gridding correction").
std::vector<double> kernelTransform(const KernelShape& kernel, int image_pixels, int grid_cells);

// The same transform at arbitrary real frequencies, in cycles per cell: psi(f) with
// f = p / N above. Used by w-stacking, whose "pixels" are values of n - 1.
double kernelTransformAt(const KernelShape& kernel, double cycles_per_cell);

// Gauss-Legendre nodes and weights on [-1, 1].
void gaussLegendre(int n, std::vector<double>& nodes, std::vector<double>& weights);

}  // namespace apertura::imaging
