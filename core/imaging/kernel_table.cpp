#include <cmath>
#include <sstream>

#include "core/imaging/kernel.h"
#include "core/util/input_error.h"

namespace apertura::imaging {

namespace {
struct Entry {
  double sigma;
  int support;
  double gamma;  // beta = gamma * pi * W * (1 - 1 / (2 sigma))
  double error;  // measured 1-D L2 relative error
};
// Printed by tests/imaging/tune_es_kernel.cpp: for each (sigma, W) the gamma in 0.80..1.10 that
// minimises the 1-D L2 relative error of a 256-pixel type-2 NUFFT at 2 x 2000 random points
// against the direct sum, and that error. Values near 3e-14 are double rounding, not the kernel.
// clang-format off
const Entry kTable[] = {
  {1.20, 2, 0.80, 1.34e-01},
  {1.20, 3, 0.81, 2.76e-02},
  {1.20, 4, 0.89, 7.91e-03},
  {1.20, 5, 0.93, 2.11e-03},
  {1.20, 6, 0.95, 6.12e-04},
  {1.20, 7, 0.96, 1.94e-04},
  {1.20, 8, 0.98, 5.30e-05},
  {1.20, 9, 0.98, 1.62e-05},
  {1.20, 10, 0.98, 4.59e-06},
  {1.20, 11, 0.98, 1.46e-06},
  {1.20, 12, 0.99, 4.79e-07},
  {1.20, 13, 0.99, 1.30e-07},
  {1.20, 14, 0.99, 3.66e-08},
  {1.20, 15, 0.97, 9.57e-09},
  {1.20, 16, 0.98, 3.06e-09},
  {1.25, 2, 0.80, 1.16e-01},
  {1.25, 3, 0.82, 2.21e-02},
  {1.25, 4, 0.90, 5.66e-03},
  {1.25, 5, 0.94, 1.29e-03},
  {1.25, 6, 0.96, 3.44e-04},
  {1.25, 7, 0.97, 9.12e-05},
  {1.25, 8, 0.98, 2.18e-05},
  {1.25, 9, 0.98, 6.31e-06},
  {1.25, 10, 0.98, 1.62e-06},
  {1.25, 11, 0.98, 4.61e-07},
  {1.25, 12, 0.99, 1.08e-07},
  {1.25, 13, 0.99, 2.78e-08},
  {1.25, 14, 0.99, 7.45e-09},
  {1.25, 15, 0.98, 1.64e-09},
  {1.25, 16, 0.98, 4.22e-10},
  {1.50, 2, 0.80, 6.79e-02},
  {1.50, 3, 0.86, 1.01e-02},
  {1.50, 4, 0.92, 1.78e-03},
  {1.50, 5, 0.95, 2.80e-04},
  {1.50, 6, 0.97, 4.99e-05},
  {1.50, 7, 0.97, 9.05e-06},
  {1.50, 8, 0.98, 1.42e-06},
  {1.50, 9, 0.98, 2.85e-07},
  {1.50, 10, 0.99, 4.02e-08},
  {1.50, 11, 0.99, 7.28e-09},
  {1.50, 12, 0.99, 1.26e-09},
  {1.50, 13, 0.97, 2.21e-10},
  {1.50, 14, 0.98, 3.88e-11},
  {1.50, 15, 0.98, 5.13e-12},
  {1.50, 16, 0.98, 9.62e-13},
  {1.75, 2, 0.80, 4.95e-02},
  {1.75, 3, 0.89, 6.26e-03},
  {1.75, 4, 0.93, 8.71e-04},
  {1.75, 5, 0.96, 1.10e-04},
  {1.75, 6, 0.97, 1.51e-05},
  {1.75, 7, 0.98, 2.13e-06},
  {1.75, 8, 0.98, 2.90e-07},
  {1.75, 9, 0.99, 4.13e-08},
  {1.75, 10, 0.99, 4.89e-09},
  {1.75, 11, 0.99, 6.54e-10},
  {1.75, 12, 0.97, 8.86e-11},
  {1.75, 13, 0.99, 1.32e-11},
  {1.75, 14, 0.98, 1.45e-12},
  {1.75, 15, 0.98, 2.12e-13},
  {1.75, 16, 0.99, 9.64e-14},
  {2.00, 2, 0.80, 4.04e-02},
  {2.00, 3, 0.90, 4.61e-03},
  {2.00, 4, 0.94, 5.32e-04},
  {2.00, 5, 0.96, 5.90e-05},
  {2.00, 6, 0.97, 7.03e-06},
  {2.00, 7, 0.98, 8.19e-07},
  {2.00, 8, 0.99, 9.74e-08},
  {2.00, 9, 0.99, 1.05e-08},
  {2.00, 10, 0.99, 1.14e-09},
  {2.00, 11, 0.99, 1.30e-10},
  {2.00, 12, 0.97, 1.55e-11},
  {2.00, 13, 0.98, 1.78e-12},
  {2.00, 14, 0.98, 1.72e-13},
  {2.00, 15, 0.98, 4.22e-14},
  {2.00, 16, 0.99, 3.93e-14},
  {2.50, 2, 0.81, 3.33e-02},
  {2.50, 3, 0.91, 3.12e-03},
  {2.50, 4, 0.95, 2.94e-04},
  {2.50, 5, 0.97, 2.66e-05},
  {2.50, 6, 0.98, 2.58e-06},
  {2.50, 7, 0.98, 2.43e-07},
  {2.50, 8, 0.99, 2.15e-08},
  {2.50, 9, 0.99, 1.94e-09},
  {2.50, 10, 0.97, 1.86e-10},
  {2.50, 11, 0.99, 1.75e-11},
  {2.50, 12, 0.98, 1.55e-12},
  {2.50, 13, 0.98, 1.43e-13},
  {2.50, 14, 0.98, 3.17e-14},
  {2.50, 15, 1.00, 2.95e-14},
  {2.50, 16, 1.00, 2.98e-14},
};
// clang-format on
constexpr double kSigmas[] = {1.2, 1.25, 1.5, 1.75, 2.0, 2.5};

// The largest tabulated sigma not above the requested one: its errors bound the requested
// sigma's from above (more oversampling only helps).
double tableSigma(double sigma) {
  double best = kSigmas[0];
  for (double s : kSigmas)
    if (s <= sigma + 1e-9)
      best = s;
  return best;
}

const Entry* find(double sigma, int support) {
  for (const Entry& e : kTable)
    if (std::abs(e.sigma - sigma) < 1e-9 && e.support == support)
      return &e;
  return nullptr;
}
}  // namespace

double tabulatedEsError(int support, double sigma) {
  const Entry* e = find(tableSigma(sigma), support);
  return e ? e->error : 1.0;
}

KernelShape chooseKernel(KernelType type, double epsilon, double sigma) {
  if (!(sigma >= 1.2 && sigma <= 2.5)) {
    std::ostringstream msg;
    msg << "oversampling factor " << sigma << " outside the supported range 1.2 .. 2.5";
    throw InputError("oversampling", msg.str());
  }
  KernelShape k;
  k.type = type;
  k.oversampling = sigma;
  if (type == KernelType::Pillbox) {
    k.support = 1;
    k.beta = 0.0;
    return k;
  }
  // The 2-D error is about sqrt(2) times the 1-D one; a factor 2 leaves some margin.
  const double ts = tableSigma(sigma);
  const Entry* chosen = nullptr;
  for (int w = 2; w <= kMaxSupport && !chosen; ++w) {
    const Entry* e = find(ts, w);
    if (e && 2.0 * e->error <= epsilon)
      chosen = e;
  }
  if (!chosen) {
    std::ostringstream msg;
    msg << "accuracy " << epsilon << " cannot be reached at oversampling " << sigma
        << " (best: " << 2.0 * find(ts, kMaxSupport)->error << ")";
    throw InputError("epsilon", msg.str());
  }
  k.support = chosen->support;
  const double w = k.support;
  switch (type) {
    case KernelType::ExpSemicircle:
      k.beta = chosen->gamma * M_PI * w * (1.0 - 0.5 / sigma);
      break;
    case KernelType::KaiserBessel:
      // Beatty, Nishimura & Pauly (2005): the Kaiser-Bessel shape for width W and oversampling.
      k.beta = M_PI * std::sqrt(std::max(
                          1.0, w * w / (sigma * sigma) * (sigma - 0.5) * (sigma - 0.5) - 0.8));
      break;
    case KernelType::Prolate:
      // A Kaiser-Bessel kernel with the PSWF bandwidth c = pi W (1 - 1/(2 sigma)) approximates the
      // zeroth prolate spheroidal wave function closely.
      k.beta = M_PI * w * (1.0 - 0.5 / sigma);
      break;
    case KernelType::Pillbox:
      break;
  }
  return k;
}

}  // namespace apertura::imaging
