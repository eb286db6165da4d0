#pragma once

// The per-pixel mathematics of the image-domain penalties (vector_space.h), as inline functions
// that compile both as host C++ and as CUDA device code, so that every space evaluates the same
// arithmetic as rml's regularizer classes (pixel_regularizers.cpp, gradient_regularizers.cpp,
// finite_differences.cpp). Each function reads the image only and depends on one pixel's index:
// one CUDA thread per pixel, no scratch buffers. The operations are those of the classes, in the
// same order, so that a space's gradients are the classes' to the bit and its values differ only
// by the order of summation.
#include <cfloat>
#include <cmath>
#include <cstddef>

#include "core/compute/vector_space.h"
#include "core/imaging/device_kernel.h"  // APERTURA_HOST_DEVICE

namespace apertura::compute::penalty {

APERTURA_HOST_DEVICE inline double weightAt(const double* mask, std::size_t p) {
  return mask == nullptr ? 1.0 : mask[p];
}

// Value contribution of one pixel (x: its value, m: its mask weight, prior: L2's prior or
// entropy's default at the pixel); stores scale * d(value)/dx in *scaled_derivative when not null
// (scale enters where the classes apply it: the same bits). Entropy is +infinity for x < 0 inside
// the mask; its derivative there is then meaningless (stored as 0). A pixel of weight 0 adds
// nothing to L1 and entropy, whatever its value; L2 multiplies by the weight (as its class).
// non_negative: the solver keeps x >= 0, and L1's derivative at 0 is its right derivative.
APERTURA_HOST_DEVICE inline double pixelPenaltyAt(PixelPenalty kind, double parameter, double x,
                                                  double m, double prior, double scale,
                                                  double* scaled_derivative,
                                                  bool non_negative = false) {
#if !defined(__CUDA_ARCH__)
  using std::fabs;
  using std::log;
  using std::sqrt;
#endif
  double g = 0.0;
  double value = 0.0;
  switch (kind) {
    case PixelPenalty::L1:
      if (m == 0.0)
        break;
      if (parameter > 0.0) {
        const double r = sqrt(x * x + parameter * parameter);
        value = m * (r - parameter);
        g = scale * m * x / r;
      } else {
        value = m * fabs(x);
        g = scale * m * double((x > 0.0 || (non_negative && x == 0.0)) - (x < 0.0));
      }
      break;
    case PixelPenalty::L2: {
      const double d = x - prior;
      value = m * d * d;
      g = scale * 2.0 * m * d;
      break;
    }
    case PixelPenalty::Entropy: {
      if (m == 0.0)
        break;
      if (x < 0.0) {
        value = HUGE_VAL;
        break;
      }
      // ln of the smallest positive double: the gradient at an exactly zero pixel stays finite.
      const double log_ratio = log((x < DBL_MIN ? DBL_MIN : x) / prior);
      value = m * ((x > 0.0 ? x * log_ratio : 0.0) - x + prior);
      g = scale * m * log_ratio;
      break;
    }
  }
  if (scaled_derivative != nullptr)
    *scaled_derivative = g;
  return value;
}

// The prox of one pixel: argmin_x step * penalty(x) + 1/2 (x - v)^2 (the exact penalty: L1
// without smoothing), as the classes' prox() computes it (pixel_regularizers.cpp) with m the
// pixel's mask weight and prior L2's prior (0 without one) or entropy's default at the pixel.
// L1 soft-thresholds by step * m; L2 is closed form; entropy solves e^y + a y = c (a = step * m,
// c = v + a ln prior) for x = e^y by Newton's method from the same starting points, with the same
// stopping test (v itself where a <= 0). min and max are written as std::min and std::max
// evaluate them, so that NaNs propagate alike.
APERTURA_HOST_DEVICE inline double pixelProxAt(PixelPenalty kind, double v, double step, double m,
                                               double prior) {
#if !defined(__CUDA_ARCH__)
  using std::copysign;
  using std::exp;
  using std::fabs;
  using std::log;
#endif
  switch (kind) {
    case PixelPenalty::L1: {
      const double threshold = step * m;
      const double a = fabs(v) - threshold;
      return a > 0.0 ? copysign(a, v) : 0.0;
    }
    case PixelPenalty::L2: {
      const double a = 2.0 * step * m;
      return (v + a * prior) / (1.0 + a);
    }
    case PixelPenalty::Entropy: {
      const double a = step * m;
      if (a <= 0.0)
        return v;
      const double c = v + a * log(prior);
      double y = c / a;
      if (c > 0.0) {
        const double minus_log_c = -log(c);
        const double l = 0.0 < minus_log_c ? minus_log_c : 0.0;  // std::max(0.0, -ln c)
        const double y2 = log(c + a * l);
        y = y2 < y ? y2 : y;  // std::min(y, y2)
      }
      for (int it = 0; it < 200; ++it) {
        const double e = exp(y);
        const double delta = (e + a * y - c) / (e + a);
        y -= delta;
        const double ay = fabs(y);
        if (fabs(delta) <= 1e-15 * (1.0 < ay ? ay : 1.0))  // std::max(1.0, |y|)
          break;
      }
      return exp(y);
    }
  }
  return v;
}

// Forward differences at (x, y) with Neumann boundaries (zero across the image edge).
APERTURA_HOST_DEVICE inline void differencesAt(const double* image, int nx, int ny, int x, int y,
                                               double& dx, double& dy) {
  const std::size_t p = std::size_t(y) * std::size_t(nx) + std::size_t(x);
  dx = x + 1 < nx ? image[p + 1] - image[p] : 0.0;
  dy = y + 1 < ny ? image[p + std::size_t(nx)] - image[p] : 0.0;
}

// The 5-point Laplacian (L I) at (x, y): laplacian() in finite_differences.cpp, i.e. -(D^T D I).
APERTURA_HOST_DEVICE inline double laplacianAt(const double* image, int nx, int ny, int x, int y) {
  const std::size_t p = std::size_t(y) * std::size_t(nx) + std::size_t(x);
  double v = 0.0;
  if (x + 1 < nx)
    v -= image[p + 1] - image[p];
  if (x > 0)
    v += image[p] - image[p - 1];
  if (y + 1 < ny)
    v -= image[p + std::size_t(nx)] - image[p];
  if (y > 0)
    v += image[p] - image[p - std::size_t(nx)];
  return 0.0 - v;  // out = 0, then out += -1 * v
}

// The dual field q = (qx, qy) at (x, y) of a first-order penalty (its gradient is D^T q) and,
// when `value` is not null, the pixel's value contribution. Not for the Laplacian.
APERTURA_HOST_DEVICE inline void differenceDualAt(DifferencePenalty kind, double parameter,
                                                  const double* image, const double* mask, int nx,
                                                  int ny, int x, int y, double& qx, double& qy,
                                                  double* value) {
#if !defined(__CUDA_ARCH__)
  using std::hypot;
  using std::sqrt;
#endif
  const double m = weightAt(mask, std::size_t(y) * std::size_t(nx) + std::size_t(x));
  double dx = 0.0, dy = 0.0;
  differencesAt(image, nx, ny, x, y, dx, dy);
  double v = 0.0;
  qx = qy = 0.0;
  switch (kind) {
    case DifferencePenalty::Tsv:
      v = m * (dx * dx + dy * dy);
      qx = dx * (2.0 * m);
      qy = dy * (2.0 * m);
      break;
    case DifferencePenalty::TvIsotropic: {
      if (m == 0.0)
        break;
      const double eps = parameter;
      const double r = sqrt(dx * dx + dy * dy + eps * eps);
      v = m * (r - eps);
      const double s = r > 0.0 ? m / r : 0.0;
      qx = dx * s;
      qy = dy * s;
      break;
    }
    case DifferencePenalty::TvAnisotropic: {
      if (m == 0.0)
        break;
      const double eps = parameter;
      const double rx = sqrt(dx * dx + eps * eps);
      const double ry = sqrt(dy * dy + eps * eps);
      v = m * ((rx - eps) + (ry - eps));
      qx = m * (rx > 0.0 ? dx / rx : 0.0);
      qy = m * (ry > 0.0 ? dy / ry : 0.0);
      break;
    }
    case DifferencePenalty::Huber: {
      const double delta = parameter;
      const double r = hypot(dx, dy);
      // h'(r) / r: 1 / delta inside the quadratic zone, 1 / r beyond.
      double s = 0.0;
      if (r <= delta) {
        v = m * r * r / (2.0 * delta);
        s = m / delta;
      } else {
        v = m * (r - 0.5 * delta);
        s = m / r;
      }
      qx = dx * s;
      qy = dy * s;
      break;
    }
    case DifferencePenalty::Laplacian:
      break;
  }
  if (value != nullptr)
    *value = v;
}

// Value contribution of pixel (x, y).
APERTURA_HOST_DEVICE inline double differencePenaltyValueAt(DifferencePenalty kind,
                                                            double parameter, const double* image,
                                                            const double* mask, int nx, int ny,
                                                            int x, int y) {
  if (kind == DifferencePenalty::Laplacian) {
    const double lap = laplacianAt(image, nx, ny, x, y);
    return weightAt(mask, std::size_t(y) * std::size_t(nx) + std::size_t(x)) * lap * lap;
  }
  double qx = 0.0, qy = 0.0, value = 0.0;
  differenceDualAt(kind, parameter, image, mask, nx, ny, x, y, qx, qy, &value);
  return value;
}

// The Laplacian penalty's dual q = 2 m (L I) at (x, y).
APERTURA_HOST_DEVICE inline double laplacianDualAt(const double* image, const double* mask, int nx,
                                                   int ny, int x, int y) {
  const std::size_t p = std::size_t(y) * std::size_t(nx) + std::size_t(x);
  return laplacianAt(image, nx, ny, x, y) * (2.0 * weightAt(mask, p));
}

// (L q)_p with q recomputed at p and its four neighbours: the Laplacian penalty's gradient (L is
// symmetric), as laplacian() applies it to q.
APERTURA_HOST_DEVICE inline double laplacianGradientAt(const double* image, const double* mask,
                                                       int nx, int ny, int x, int y) {
  const double qp = laplacianDualAt(image, mask, nx, ny, x, y);
  double v = 0.0;
  if (x + 1 < nx)
    v -= laplacianDualAt(image, mask, nx, ny, x + 1, y) - qp;
  if (x > 0)
    v += qp - laplacianDualAt(image, mask, nx, ny, x - 1, y);
  if (y + 1 < ny)
    v -= laplacianDualAt(image, mask, nx, ny, x, y + 1) - qp;
  if (y > 0)
    v += qp - laplacianDualAt(image, mask, nx, ny, x, y - 1);
  return 0.0 - v;
}

// The gradient element at (x, y), unscaled: (D^T q)_p for the first-order penalties, with q at
// p, p - 1 and p - nx as addDifferenceAdjoint() sums it; (L (2 m L I))_p for the Laplacian. The
// caller adds scale times it, as the classes do.
APERTURA_HOST_DEVICE inline double differencePenaltyGradientAt(DifferencePenalty kind,
                                                               double parameter,
                                                               const double* image,
                                                               const double* mask, int nx, int ny,
                                                               int x, int y) {
  if (kind == DifferencePenalty::Laplacian)
    return laplacianGradientAt(image, mask, nx, ny, x, y);
  double qx = 0.0, qy = 0.0, left = 0.0, up = 0.0, unused = 0.0;
  differenceDualAt(kind, parameter, image, mask, nx, ny, x, y, qx, qy, nullptr);
  double v = 0.0;
  if (x + 1 < nx)
    v -= qx;
  if (x > 0) {
    differenceDualAt(kind, parameter, image, mask, nx, ny, x - 1, y, left, unused, nullptr);
    v += left;
  }
  if (y + 1 < ny)
    v -= qy;
  if (y > 0) {
    differenceDualAt(kind, parameter, image, mask, nx, ny, x, y - 1, unused, up, nullptr);
    v += up;
  }
  return v;
}

}  // namespace apertura::compute::penalty
