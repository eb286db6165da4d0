#include "gui/colormap/colormap_anchors.h"

#include <algorithm>
#include <cstddef>

namespace apertura::gui {
namespace {

constexpr double kNinth = 1.0 / 9.0;

ColorAnchor hex(double t, unsigned rgb) {
  return {t, static_cast<double>((rgb >> 16) & 0xff), static_cast<double>((rgb >> 8) & 0xff),
          static_cast<double>(rgb & 0xff)};
}

// Second derivatives of the natural cubic spline through (x[i], y[i]) (tridiagonal solve).
std::vector<double> splineSecondDerivatives(const std::vector<double>& x,
                                            const std::vector<double>& y) {
  const std::size_t n = x.size();
  std::vector<double> m(n, 0.0);
  if (n < 3)
    return m;
  std::vector<double> diag(n, 1.0), upper(n, 0.0), rhs(n, 0.0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double h0 = x[i] - x[i - 1];
    const double h1 = x[i + 1] - x[i];
    const double lower = h0 / 6.0;
    diag[i] = (h0 + h1) / 3.0;
    upper[i] = h1 / 6.0;
    rhs[i] = (y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0;
    // Forward elimination with the previous row (row 0 is the natural boundary m0 = 0).
    const double factor = lower / diag[i - 1];
    diag[i] -= factor * upper[i - 1];
    rhs[i] -= factor * rhs[i - 1];
  }
  for (std::size_t i = n - 2; i >= 1; --i) {
    m[i] = (rhs[i] - upper[i] * m[i + 1]) / diag[i];
  }
  return m;
}

double splineAt(const std::vector<double>& x, const std::vector<double>& y,
                const std::vector<double>& m, double t) {
  const auto upper = std::upper_bound(x.begin(), x.end(), t);
  std::size_t i = upper == x.begin() ? 0 : static_cast<std::size_t>(upper - x.begin()) - 1;
  i = std::min(i, x.size() - 2);
  const double h = x[i + 1] - x[i];
  const double a = (x[i + 1] - t) / h;
  const double b = (t - x[i]) / h;
  return a * y[i] + b * y[i + 1] +
         ((a * a * a - a) * m[i] + (b * b * b - b) * m[i + 1]) * h * h / 6.0;
}

}  // namespace

const std::vector<ColorAnchor>& viridisAnchors() {
  static const std::vector<ColorAnchor> anchors = {
      hex(0.0, 0x440154),  hex(kNinth, 0x482878),     hex(2 * kNinth, 0x3e4a89),
      hex(0.25, 0x3b528b), hex(3 * kNinth, 0x31688e), hex(4 * kNinth, 0x26828e),
      hex(0.5, 0x21908c),  hex(5 * kNinth, 0x1f9e89), hex(6 * kNinth, 0x35b779),
      hex(0.75, 0x5dc863), hex(7 * kNinth, 0x6dcd59), hex(8 * kNinth, 0xb4de2c),
      hex(1.0, 0xfde725)};
  return anchors;
}

const std::vector<ColorAnchor>& infernoAnchors() {
  static const std::vector<ColorAnchor> anchors = {
      hex(0.0, 0x000004),  hex(kNinth, 0x1b0c42),     hex(2 * kNinth, 0x4b0c6b),
      hex(0.25, 0x56106e), hex(3 * kNinth, 0x781c6d), hex(4 * kNinth, 0xa52c60),
      hex(0.5, 0xbb3754),  hex(5 * kNinth, 0xcf4446), hex(6 * kNinth, 0xed6925),
      hex(0.75, 0xf98c0a), hex(7 * kNinth, 0xfb9a06), hex(8 * kNinth, 0xf7d03c),
      hex(1.0, 0xfcffa4)};
  return anchors;
}

const std::vector<ColorAnchor>& magmaAnchors() {
  static const std::vector<ColorAnchor> anchors = {
      hex(0.0, 0x000004),  hex(kNinth, 0x180f3e),     hex(2 * kNinth, 0x451077),
      hex(0.25, 0x51127c), hex(3 * kNinth, 0x721f81), hex(4 * kNinth, 0x9f2f7f),
      hex(0.5, 0xb63679),  hex(5 * kNinth, 0xcd4071), hex(6 * kNinth, 0xf1605d),
      hex(0.75, 0xfb8861), hex(7 * kNinth, 0xfd9567), hex(8 * kNinth, 0xfec98d),
      hex(1.0, 0xfcfdbf)};
  return anchors;
}

const std::vector<ColorAnchor>& coolWarmAnchors() {
  static const std::vector<ColorAnchor> anchors = {
      {0.0, 59, 76, 192},     {0.125, 98, 130, 234}, {0.25, 141, 176, 254},
      {0.375, 184, 208, 249}, {0.5, 221, 221, 221},  {0.625, 245, 196, 173},
      {0.75, 244, 154, 123},  {0.875, 222, 96, 77},  {1.0, 180, 4, 38}};
  return anchors;
}

std::vector<ColorAnchor> interpolateAnchors(const std::vector<ColorAnchor>& anchors, int count) {
  std::vector<double> x, r, g, b;
  for (const ColorAnchor& a : anchors) {
    x.push_back(a.t);
    r.push_back(a.r);
    g.push_back(a.g);
    b.push_back(a.b);
  }
  const std::vector<double> mr = splineSecondDerivatives(x, r);
  const std::vector<double> mg = splineSecondDerivatives(x, g);
  const std::vector<double> mb = splineSecondDerivatives(x, b);
  const auto clamp = [](double v) { return std::clamp(v, 0.0, 255.0); };
  std::vector<ColorAnchor> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const double t = count > 1 ? static_cast<double>(i) / (count - 1) : 0.0;
    out.push_back({t, clamp(splineAt(x, r, mr, t)), clamp(splineAt(x, g, mg, t)),
                   clamp(splineAt(x, b, mb, t))});
  }
  return out;
}

}  // namespace apertura::gui
