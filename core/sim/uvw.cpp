#include "core/sim/uvw.h"

#include <cmath>

namespace apertura::sim {
namespace {

constexpr double kSpeedOfLight = 299792458.0;
constexpr double kSiderealPerSolar = 1.002737909350795;

Vec3 add(const Vec3& a, const Vec3& b, double scale) {
  return {a[0] + scale * b[0], a[1] + scale * b[1], a[2] + scale * b[2]};
}

double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Vec3 normalised(const Vec3& a) {
  const double n = std::sqrt(dot(a, a));
  return {a[0] / n, a[1] / n, a[2] / n};
}

// Relativistic annual aberration of a unit direction d for observer velocity beta (units of c).
Vec3 aberrate(const Vec3& d, const Vec3& beta) {
  const double g1 = std::sqrt(1.0 - dot(beta, beta));
  const double g2 = dot(d, beta);
  const Vec3 shifted = add(Vec3{g1 * d[0], g1 * d[1], g1 * d[2]}, beta, 1.0 + g2 / (1.0 + g1));
  return normalised(shifted);
}

// The geometric direction whose aberrated image is `apparent` (fixed-point iteration; converges
// to 1e-15 in a few steps because |beta| ~ 1e-4).
Vec3 unaberrate(const Vec3& apparent, const Vec3& beta) {
  Vec3 d = apparent;
  for (int i = 0; i < 8; ++i) {
    const Vec3 image = aberrate(d, beta);
    d = normalised(
        add(d, Vec3{image[0] - apparent[0], image[1] - apparent[1], image[2] - apparent[2]}, -1.0));
  }
  return d;
}

}  // namespace

Mat3 itrfToJ2000(double mjd_utc_s, const UvwFrame& frame) {
  const double t = julianCenturiesTT(mjd_utc_s);
  const double gast = greenwichApparentSiderealTime(mjd_utc_s, frame.eop);
  // Earth rotation: ITRF (polar motion ignored, as without IERS tables) to true equator/equinox.
  const Mat3 earth{{{std::cos(gast), -std::sin(gast), 0.0},
                    {std::sin(gast), std::cos(gast), 0.0},
                    {0.0, 0.0, 1.0}}};
  const Mat3 pn = precessionNutationMatrix(t);
  const Vec3 dir_j2000 = unitVector(frame.ra_j2000, frame.dec_j2000);
  const Vec3 dir_true = multiply(pn, dir_j2000);

  // Diurnal aberration as casacore applies it to baselines: a rotation moving the phase centre
  // by -v_rot/c along the observatory's geocentric zenith.
  const Vec3& p = frame.observatory_itrf_m;
  const double radius = std::sqrt(dot(p, p));
  Mat3 diurnal{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  if (radius > 0.0) {
    const double lon = std::atan2(p[1], p[0]);
    const double lat = std::atan2(p[2], std::hypot(p[0], p[1]));
    const double g = 2.0 * M_PI * radius / 86400.0 / kSiderealPerSolar / kSpeedOfLight;
    const Vec3 zenith = unitVector(gast + lon, lat);
    diurnal = rotationBetween(dir_true, normalised(add(dir_true, zenith, -g)));
  }

  // Annual aberration: rotate the apparent phase centre back to its geometric direction.
  const Vec3 beta = earthVelocityOverC(t);
  const Mat3 annual = rotationBetween(dir_j2000, unaberrate(dir_j2000, beta));

  // Light bending by the Sun (casacore's JNAT -> J2000 step): rotate the phase centre back by
  // its gravitational deflection, 1.974e-8 rad / distance_au * (s - (d.s) d) / (1 - d.s).
  double distance_au = 1.0;
  const Vec3 sun = sunDirection(t, distance_au);
  const Vec3 dir_geometric = multiply(annual, dir_j2000);
  const double cos_elong = dot(dir_geometric, sun);
  Mat3 bending{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  if (cos_elong < std::cos(0.0047)) {  // outside the solar disk
    const double g = -1.974e-8 / distance_au / (1.0 - cos_elong);
    const Vec3 shift{g * (sun[0] - cos_elong * dir_geometric[0]),
                     g * (sun[1] - cos_elong * dir_geometric[1]),
                     g * (sun[2] - cos_elong * dir_geometric[2])};
    bending = rotationBetween(dir_geometric, normalised(add(dir_geometric, shift, -1.0)));
  }
  return multiply(bending, multiply(annual, multiply(transpose(pn), multiply(diurnal, earth))));
}

Vec3 baselineToUvw(const Vec3& b, double ra, double dec) {
  const double sa = std::sin(ra), ca = std::cos(ra), sd = std::sin(dec), cd = std::cos(dec);
  return {-sa * b[0] + ca * b[1], -sd * ca * b[0] - sd * sa * b[1] + cd * b[2],
          cd * ca * b[0] + cd * sa * b[1] + sd * b[2]};
}

void antennaUvw(double mjd_utc_s, const UvwFrame& frame, const std::vector<Vec3>& antennas,
                std::vector<Vec3>& out) {
  out.resize(antennas.size());
  if (antennas.empty())
    return;
  const Mat3 rot = itrfToJ2000(mjd_utc_s, frame);
  for (std::size_t a = 0; a < antennas.size(); ++a) {
    const Vec3 rel = add(antennas[a], antennas[0], -1.0);
    out[a] = baselineToUvw(multiply(rot, rel), frame.ra_j2000, frame.dec_j2000);
  }
}

}  // namespace apertura::sim
