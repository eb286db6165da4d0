#pragma once

#include <cstddef>

namespace apertura::rml {

// Forward differences with Neumann boundaries (a difference across the image edge is zero):
// dx_p = I(x+1, y) - I(x, y), dy_p = I(x, y+1) - I(x, y). D maps nx*ny pixels to 2*nx*ny values
// (dx then dy); divergenceAdjoint computes D^T q, ADDING scale * D^T q to `out`.
void forwardDifferences(const double* image, int nx, int ny, double* dx, double* dy);
void addDifferenceAdjoint(const double* qx, const double* qy, int nx, int ny, double scale,
                          double* out);
// The 5-point Laplacian with the same boundaries, L = -D^T D (symmetric); overwrites out.
void laplacian(const double* image, int nx, int ny, double* out);

}  // namespace apertura::rml
