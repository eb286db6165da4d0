#pragma once

// The gridding kernel as the CUDA backend evaluates it, in plain data and inline functions that
// compile both as host C++ and as CUDA device code: the host tests check these very functions
// against KernelShape and firstTap(), so the device evaluates the same kernel at the same points
// as the CPU operator (whose polynomial fit approximates the same exact values).
#include <cmath>

#include "core/imaging/kernel.h"

#if defined(__CUDACC__)
#define APERTURA_HOST_DEVICE __host__ __device__
#else
#define APERTURA_HOST_DEVICE
#endif

namespace apertura::imaging {

// Kernel and grid parameters packed for the device (trivially copyable: passed by value to the
// CUDA kernels).
struct DeviceKernelParams {
  enum Form : int { kExpSemicircle = 0, kBessel = 1, kPillbox = 2 };
  int form = kExpSemicircle;  // KaiserBessel and Prolate both use the I0 form
  int support = 0;            // W cells per axis
  double beta = 0.0;
  double inv_i0_beta = 1.0;  // 1 / I0(beta), for the Bessel form
  int grid_u = 0;            // grid cells along u (and v)
  int grid_v = 0;
};

// Host only: the packed form of `kernel` on an nu x nv grid.
DeviceKernelParams packDeviceKernel(const KernelShape& kernel, int grid_u, int grid_v);

// First kernel tap of a sample at grid coordinate g on an n-cell axis, wrapped into [0, n), the
// same as firstTap() in tile_plan.h; x0 receives the kernel argument of that tap,
// 2 (i0 - g_wrapped) / W, and tap j has argument x0 + 2 j / W (in [-1, 1)).
APERTURA_HOST_DEVICE inline int deviceFirstTap(double g, int support, int n, double& x0) {
#if !defined(__CUDA_ARCH__)
  using std::ceil;
  using std::floor;
#endif
  const double wrapped = g - n * floor(g / n);
  const double i0 = ceil(wrapped - 0.5 * support);
  x0 = 2.0 * (i0 - wrapped) / support;
  int i = int(i0);
  if (i < 0)
    i += n;
  if (i >= n)
    i -= n;
  return i;
}

// The exact kernel value at x in [-1, 1] (KernelShape::operator() on the host). The ES kernel is
// evaluated in precision T; the Bessel form always in double, because in float the rounding of
// its argument beta * sqrt(1 - x^2) alone costs 2e-6 near the peak.
template <typename T>
APERTURA_HOST_DEVICE inline T deviceKernelValue(const DeviceKernelParams& k, double x) {
#if !defined(__CUDA_ARCH__)
  using std::exp;
  using std::sqrt;
#endif
  // Device code: CUDA's float and double overloads of sqrt and exp; host: std::.
  switch (k.form) {
    case DeviceKernelParams::kExpSemicircle: {
      const T xt = T(x);
      const T s2 = (T(1) - xt) * (T(1) + xt);  // 1 - x^2, without cancellation near |x| = 1
      const T s = s2 > T(0) ? sqrt(s2) : T(0);
      // s - 1 = -x^2 / (1 + s), again without the cancellation.
      return exp(-T(k.beta) * xt * xt / (T(1) + s));
    }
    case DeviceKernelParams::kBessel: {
      const double s2 = (1.0 - x) * (1.0 + x);
      const double s = s2 > 0.0 ? sqrt(s2) : 0.0;
#if defined(__CUDA_ARCH__)
      return T(cyl_bessel_i0(k.beta * s) * k.inv_i0_beta);
#else
      return T(std::cyl_bessel_i(0.0, k.beta * s) * k.inv_i0_beta);
#endif
    }
    default:
      return T(1);
  }
}

}  // namespace apertura::imaging
