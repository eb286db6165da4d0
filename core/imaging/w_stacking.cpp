#include "core/imaging/w_stacking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/imaging/gridding_correction.h"

namespace apertura::imaging {

void wRange(const std::vector<UvwBlock>& blocks, double& w_min, double& w_max) {
  w_min = std::numeric_limits<double>::max();
  w_max = std::numeric_limits<double>::lowest();
  for (const UvwBlock& b : blocks) {
    if (b.num_channels == 0)
      continue;
    const auto [fmin, fmax] =
        std::minmax_element(b.frequencies_hz, b.frequencies_hz + b.num_channels);
    for (std::size_t r = 0; r < b.num_rows; ++r) {
      const double w = b.uvw_m[3 * r + 2];
      const double a = w * *fmin / kSpeedOfLight, c = w * *fmax / kSpeedOfLight;
      w_min = std::min({w_min, a, c});
      w_max = std::max({w_max, a, c});
    }
  }
  if (w_min > w_max)
    w_min = w_max = 0.0;
}

WStackLayout planWStack(const ImageGeometry& g, const KernelShape& kernel, double w_min,
                        double w_max) {
  WStackLayout s;
  const std::size_t npix = g.numPixels();
  std::vector<double> nm1(npix);
  double lo = 0.0, hi = -1.0;
  for (int iy = 0; iy < g.ny; ++iy)
    for (int ix = 0; ix < g.nx; ++ix) {
      const double l = g.l(ix), m = g.m(iy), r2 = l * l + m * m;
      // n - 1 = -r2 / (1 + sqrt(1 - r2)) avoids cancellation near the phase centre.
      const double v = r2 < 1.0 ? -r2 / (1.0 + std::sqrt(1.0 - r2)) : -1.0;
      nm1[std::size_t(iy) * g.nx + ix] = v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  const double half = 0.5 * (hi - lo);
  if (half <= 0.0 || w_max - w_min <= 0.0)
    return s;
  s.active = true;
  s.x0 = 0.5 * (hi + lo);
  s.dw = 1.0 / (2.0 * kernel.oversampling * half);
  const int ws = kernel.support;
  s.w0 = w_min - 0.5 * ws * s.dw;
  s.planes = int(std::ceil((w_max - s.w0) / s.dw + 0.5 * ws)) + 1;
  s.xi.resize(npix);
  s.correction.resize(npix);
  // psi_w is smooth and even: tabulate it on |f| <= dw * half and interpolate (4-point Lagrange).
  const int nt = 2048;
  const double fmax = s.dw * half * (1.0 + 1e-9), h = fmax / (nt - 3);
  std::vector<double> tab(nt);
  for (int i = 0; i < nt; ++i)
    tab[i] = kernelTransformAt(kernel, (i - 1) * h);
  for (std::size_t p = 0; p < npix; ++p) {
    s.xi[p] = nm1[p] - s.x0;
    const double t = std::abs(s.dw * s.xi[p]) / h + 1.0;
    const int i = std::min(std::max(int(t) - 1, 0), nt - 4);
    const double x = t - i;
    const double v =
        -tab[i] * (x - 1) * (x - 2) * (x - 3) / 6 + tab[i + 1] * x * (x - 2) * (x - 3) / 2 -
        tab[i + 2] * x * (x - 1) * (x - 3) / 2 + tab[i + 3] * x * (x - 1) * (x - 2) / 6;
    s.correction[p] = 1.0 / v;
  }
  return s;
}

WStackLayout planWStackFor(const std::vector<UvwBlock>& blocks, const ImageGeometry& geometry,
                           const KernelShape& kernel, const OperatorSettings& settings) {
  double w_min, w_max;
  wRange(blocks, w_min, w_max);
  if (settings.w_cover_min <= settings.w_cover_max) {
    std::size_t samples = 0;
    for (const UvwBlock& b : blocks)
      samples += b.numSamples();
    w_min = samples > 0 ? std::min(w_min, settings.w_cover_min) : settings.w_cover_min;
    w_max = samples > 0 ? std::max(w_max, settings.w_cover_max) : settings.w_cover_max;
  }
  return planWStack(geometry, kernel, w_min, w_max);
}

}  // namespace apertura::imaging
