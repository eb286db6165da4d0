#pragma once

// The per-pixel arithmetic of the total-variation prox's dual iteration (VectorSpace::
// primalFromDual and dualStep), compiled as host C++ and as CUDA device code so that every space
// runs the same operations in the same order. Each function reads its inputs only at its pixel
// and the neighbours that D or D^T couple to it: one CUDA thread per pixel, in place where a
// pixel's outputs are its own inputs.
#include <cmath>
#include <cstddef>

#include "core/compute/penalty_math.h"

namespace apertura::compute::dual {

// (D^T q)_p at (x, y): the element rml::addDifferenceAdjoint adds (it calls this).
APERTURA_HOST_DEVICE inline double differenceAdjointAt(const double* qx, const double* qy, int nx,
                                                       int ny, int x, int y) {
  const std::size_t p = std::size_t(y) * std::size_t(nx) + std::size_t(x);
  double v = 0.0;
  if (x + 1 < nx)
    v -= qx[p];
  if (x > 0)
    v += qx[p - 1];
  if (y + 1 < ny)
    v -= qy[p];
  if (y > 0)
    v += qy[p - std::size_t(nx)];
  return v;
}

// v - step (D^T q)_p, clipped at zero when `nonnegative`.
APERTURA_HOST_DEVICE inline double primalAt(double v, double step, double adjoint,
                                            bool nonnegative) {
  const double x = v + (-step) * adjoint;
  return nonnegative && !(x > 0.0) ? 0.0 : x;
}

struct DualPixel {
  double qx;
  double qy;
  double change;  // |q' - q|^2
  double norm;    // |q'|^2
};

// The projected dual step at (x, y) (see VectorSpace::dualStep): reads the primal image around
// the pixel and the pixel's own r and q; returns q' and the pixel's sums, and updates r in place.
APERTURA_HOST_DEVICE inline DualPixel dualStepAt(const VectorSpace::DualStepArgs& a,
                                                 const double* image, const double* mask, int x,
                                                 int y, double qx, double qy, double& rx,
                                                 double& ry) {
#if !defined(__CUDA_ARCH__)
  using std::hypot;
#endif
  const std::size_t p = std::size_t(y) * std::size_t(a.nx) + std::size_t(x);
  const double m = penalty::weightAt(mask, p);
  double dx = 0.0, dy = 0.0;
  penalty::differencesAt(image, a.nx, a.ny, x, y, dx, dy);
  const double huber = (a.huber_delta > 0.0 && m > 0.0) ? a.step * a.huber_delta / m : 0.0;
  double nqx = rx + (a.step * dx - huber * rx) / a.lipschitz;
  double nqy = ry + (a.step * dy - huber * ry) / a.lipschitz;
  // Projection on the ball (isotropic) or box of radius m.
  if (a.isotropic) {
    const double norm = hypot(nqx, nqy);
    if (norm > m) {
      const double s = norm > 0.0 ? m / norm : 0.0;
      nqx *= s;
      nqy *= s;
    }
  } else {
    nqx = nqx < -m ? -m : (nqx > m ? m : nqx);
    nqy = nqy < -m ? -m : (nqy > m ? m : nqy);
  }
  const double ddx = nqx - qx;
  const double ddy = nqy - qy;
  rx = nqx + a.momentum * ddx;
  ry = nqy + a.momentum * ddy;
  return {nqx, nqy, ddx * ddx + ddy * ddy, nqx * nqx + nqy * nqy};
}

}  // namespace apertura::compute::dual
