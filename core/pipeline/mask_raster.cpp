#include "core/pipeline/mask_raster.h"

#include <cmath>

namespace apertura::pipeline {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool insideRectangle(const std::vector<double>& v, double x, double y) {
  const double x0 = std::min(v[0], v[2]), x1 = std::max(v[0], v[2]);
  const double y0 = std::min(v[1], v[3]), y1 = std::max(v[1], v[3]);
  return x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

// cx cy a b angle: semi-axes a (along the rotated x axis) and b, angle counter-clockwise from +x.
bool insideEllipse(const std::vector<double>& v, double x, double y) {
  const double t = v[4] * kPi / 180.0;
  const double dx = x - v[0], dy = y - v[1];
  const double u = dx * std::cos(t) + dy * std::sin(t);
  const double w = -dx * std::sin(t) + dy * std::cos(t);
  if (v[2] <= 0.0 || v[3] <= 0.0)
    return false;
  return (u * u) / (v[2] * v[2]) + (w * w) / (v[3] * v[3]) <= 1.0;
}

// Even-odd rule: count edge crossings of a ray towards +x.
bool insidePolygon(const std::vector<double>& v, double x, double y) {
  const std::size_t n = v.size() / 2;
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const double xi = v[2 * i], yi = v[2 * i + 1], xj = v[2 * j], yj = v[2 * j + 1];
    if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi)
      inside = !inside;
  }
  return inside;
}

bool inside(const project::MaskRegion& r, double x, double y) {
  if (r.shape == "rectangle" && r.values.size() == 4)
    return insideRectangle(r.values, x, y);
  if (r.shape == "ellipse" && r.values.size() == 5)
    return insideEllipse(r.values, x, y);
  if (r.shape == "polygon" && r.values.size() >= 6)
    return insidePolygon(r.values, x, y);
  return false;
}

}  // namespace

std::vector<double> rasterizeMask(const std::vector<project::MaskRegion>& regions, int nx, int ny) {
  if (regions.empty() || nx <= 0 || ny <= 0)
    return {};
  std::vector<double> mask(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny),
                           regions.front().subtract ? 1.0 : 0.0);
  for (const auto& r : regions) {
    const double value = r.subtract ? 0.0 : 1.0;
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        if (inside(r, x, y))
          mask[static_cast<std::size_t>(y) * nx + x] = value;
      }
    }
  }
  return mask;
}

}  // namespace apertura::pipeline
