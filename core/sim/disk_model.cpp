#include "core/sim/disk_model.h"

#include <algorithm>
#include <cmath>

#include "core/util/input_error.h"

namespace apertura::sim {
namespace {

// Area-weighted mean of r^-p over the annulus [r1, r2], so each annulus carries exactly the flux
// of the continuous power law it replaces.
double meanPowerLaw(double r1, double r2, double p) {
  const double area = 0.5 * (r2 * r2 - r1 * r1);
  if (std::fabs(p - 2.0) < 1e-12)
    return std::log(r2 / r1) / area;
  return (std::pow(r2, 2.0 - p) - std::pow(r1, 2.0 - p)) / (2.0 - p) / area;
}

void validate(const RingDiskSource& d) {
  auto fail = [](const std::string& what) { throw InputError("disk model", what); };
  if (!(d.flux_jy >= 0.0))
    fail("flux must be >= 0");
  if (!(d.inner_radius >= 0.0 && d.inner_radius <= d.gap_inner && d.gap_inner <= d.gap_outer &&
        d.gap_outer <= d.outer_radius && d.inner_radius < d.outer_radius)) {
    fail("radii must satisfy 0 <= inner <= gap_inner <= gap_outer <= outer and inner < outer");
  }
  if (!(d.gap_depth >= 0.0 && d.gap_depth <= 1.0))
    fail("gap depth must be in [0, 1]");
  if (!(d.inclination >= 0.0 && d.inclination < 0.5 * M_PI)) {
    fail("inclination must be in [0, 90) degrees");
  }
  if (d.inner_radius == 0.0 && d.power_index >= 2.0) {
    fail("a power index >= 2 needs an inner radius > 0 (the flux would diverge)");
  }
  if (d.annuli < 2)
    fail("at least 2 annuli are needed");
}

// Splits [a, b] into n equal annuli, appending the outer boundaries.
void appendSplit(std::vector<double>& r, double a, double b, int n) {
  for (int i = 1; i <= n; ++i)
    r.push_back(a + (b - a) * i / n);
}

}  // namespace

DiskProfile makeDiskProfile(const RingDiskSource& d) {
  validate(d);
  DiskProfile p;
  const double inner_width = d.gap_inner - d.inner_radius;
  const double outer_width = d.outer_radius - d.gap_outer;
  const double total = inner_width + outer_width;
  int n_inner = 0;
  if (inner_width > 0.0) {
    n_inner = std::max(1, static_cast<int>(std::lround(d.annuli * inner_width / total)));
  }
  const int n_outer = outer_width > 0.0 ? std::max(1, d.annuli - n_inner) : 0;
  p.radius.push_back(d.inner_radius);
  appendSplit(p.radius, d.inner_radius, d.gap_inner, n_inner);
  const bool has_gap = d.gap_outer > d.gap_inner;
  if (has_gap)
    p.radius.push_back(d.gap_outer);
  appendSplit(p.radius, d.gap_outer, d.outer_radius, n_outer);

  double flux = 0.0;
  for (std::size_t k = 0; k + 1 < p.radius.size(); ++k) {
    const double r1 = p.radius[k], r2 = p.radius[k + 1];
    const bool in_gap = has_gap && r1 == d.gap_inner && r2 == d.gap_outer;
    const double b = meanPowerLaw(r1, r2, d.power_index) * (in_gap ? d.gap_depth : 1.0);
    p.brightness.push_back(b);
    flux += b * M_PI * (r2 * r2 - r1 * r1);
  }
  p.cos_inclination = std::cos(d.inclination);
  // Projection shrinks the sky area by cos(i); scale so the whole disk carries flux_jy.
  const double scale = flux > 0.0 ? d.flux_jy / (flux * p.cos_inclination) : 0.0;
  for (double& b : p.brightness)
    b *= scale;
  p.sin_pa = std::sin(d.position_angle);
  p.cos_pa = std::cos(d.position_angle);
  return p;
}

namespace {

// Fourier transform of a uniform face-on disk of radius r and unit brightness at radial spatial
// frequency q: 2 pi r^2 J1(x) / x with x = 2 pi q r (-> pi r^2 as q -> 0).
double uniformDisk(double r, double q) {
  const double x = 2.0 * M_PI * q * r;
  if (x < 1e-6)
    return M_PI * r * r * (1.0 - x * x / 8.0);
  return 2.0 * M_PI * r * r * std::cyl_bessel_j(1.0, x) / x;
}

}  // namespace

double diskVisibility(const DiskProfile& p, double u, double v) {
  // Rotate (u, v) to the disk axes; the minor axis is foreshortened by cos(i) on the sky, so its
  // spatial frequency is scaled by cos(i) in the disk plane (and the area by cos(i)).
  const double u_major = u * p.sin_pa + v * p.cos_pa;
  const double u_minor = u * p.cos_pa - v * p.sin_pa;
  const double q = std::hypot(u_major, u_minor * p.cos_inclination);
  // Annulus k is the difference of two uniform disks, so boundary k contributes
  // (B[k-1] - B[k]) times a uniform disk of radius r_k (B outside the profile is 0).
  const std::size_t n = p.brightness.size();
  double sum = 0.0;
  for (std::size_t k = 0; k <= n; ++k) {
    const double inside = k >= 1 ? p.brightness[k - 1] : 0.0;
    const double outside = k < n ? p.brightness[k] : 0.0;
    if (inside != outside && p.radius[k] > 0.0)
      sum += (inside - outside) * uniformDisk(p.radius[k], q);
  }
  return sum * p.cos_inclination;
}

double diskBrightness(const DiskProfile& p, double dl, double dm) {
  const double x_major = dl * p.sin_pa + dm * p.cos_pa;
  const double x_minor = (dl * p.cos_pa - dm * p.sin_pa) / p.cos_inclination;
  const double r = std::hypot(x_major, x_minor);
  if (r < p.radius.front() || r >= p.radius.back())
    return 0.0;
  const auto it = std::upper_bound(p.radius.begin(), p.radius.end(), r);
  return p.brightness[static_cast<std::size_t>(it - p.radius.begin()) - 1];
}

}  // namespace apertura::sim
