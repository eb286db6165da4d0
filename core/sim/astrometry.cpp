#include "core/sim/astrometry.h"

#include <cmath>

namespace apertura::sim {
namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kDeg = M_PI / 180.0;

// Passive (coordinate-frame) rotations about the x, y and z axes, as in the IAU conventions.
Mat3 r1(double a) {
  const double c = std::cos(a), s = std::sin(a);
  return {{{1, 0, 0}, {0, c, s}, {0, -s, c}}};
}
Mat3 r2(double a) {
  const double c = std::cos(a), s = std::sin(a);
  return {{{c, 0, -s}, {0, 1, 0}, {s, 0, c}}};
}
Mat3 r3(double a) {
  const double c = std::cos(a), s = std::sin(a);
  return {{{c, s, 0}, {-s, c, 0}, {0, 0, 1}}};
}

// IAU 1980 nutation series, terms of 1 mas and above: multipliers of the Delaunay-type
// arguments (D, M, M', F, Omega), then dpsi = (s0 + s1 T) sin(arg), deps = (c0 + c1 T) cos(arg)
// in units of 0.1 mas. The terms left out sum to a few mas, i.e. ~2e-8 rad.
struct NutationTerm {
  int d, m, mp, f, om;
  double s0, s1, c0, c1;
};
constexpr NutationTerm kNutation[] = {
    {0, 0, 0, 0, 1, -171996, -174.2, 92025, 8.9},
    {-2, 0, 0, 2, 2, -13187, -1.6, 5736, -3.1},
    {0, 0, 0, 2, 2, -2274, -0.2, 977, -0.5},
    {0, 0, 0, 0, 2, 2062, 0.2, -895, 0.5},
    {0, 1, 0, 0, 0, 1426, -3.4, 54, -0.1},
    {0, 0, 1, 0, 0, 712, 0.1, -7, 0},
    {-2, 1, 0, 2, 2, -517, 1.2, 224, -0.6},
    {0, 0, 0, 2, 1, -386, -0.4, 200, 0},
    {0, 0, 1, 2, 2, -301, 0, 129, -0.1},
    {-2, -1, 0, 2, 2, 217, -0.5, -95, 0.3},
    {-2, 0, 1, 0, 0, -158, 0, 0, 0},
    {-2, 0, 0, 2, 1, 129, 0.1, -70, 0},
    {0, 0, -1, 2, 2, 123, 0, -53, 0},
    {2, 0, 0, 0, 0, 63, 0, 0, 0},
    {0, 0, 1, 0, 1, 63, 0.1, -33, 0},
    {2, 0, -1, 2, 2, -59, 0, 26, 0},
    {0, 0, -1, 0, 1, -58, -0.1, 32, 0},
    {0, 0, 1, 2, 1, -51, 0, 27, 0},
    {-2, 0, 2, 0, 0, 48, 0, 0, 0},
    {0, 0, -2, 2, 1, 46, 0, -24, 0},
    {2, 0, 0, 2, 2, -38, 0, 16, 0},
    {0, 0, 2, 2, 2, -31, 0, 13, 0},
    {0, 0, 2, 0, 0, 29, 0, 0, 0},
    {-2, 0, 1, 2, 2, 29, 0, -12, 0},
    {0, 0, 0, 2, 0, 26, 0, 0, 0},
    {-2, 0, 0, 2, 0, -22, 0, 0, 0},
    {0, 0, -1, 2, 1, 21, 0, -10, 0},
    {0, 2, 0, 0, 0, 17, -0.1, 0, 0},
    {2, 0, -1, 0, 1, 16, 0, -8, 0},
    {-2, 2, 0, 2, 2, -16, 0.1, 7, 0},
    {0, 1, 0, 0, 1, -15, 0, 9, 0},
    {-2, 0, 1, 0, 1, -13, 0, 7, 0},
    {0, -1, 0, 0, 1, -12, 0, 6, 0},
};

}  // namespace

Vec3 multiply(const Mat3& m, const Vec3& v) {
  Vec3 r{};
  for (int i = 0; i < 3; ++i)
    r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  return r;
}

Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  return r;
}

Mat3 transpose(const Mat3& m) {
  Mat3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[i][j] = m[j][i];
  return r;
}

Vec3 unitVector(double longitude, double latitude) {
  return {std::cos(longitude) * std::cos(latitude), std::sin(longitude) * std::cos(latitude),
          std::sin(latitude)};
}

double taiMinusUtc(double mjd) {
  // Dates (MJD) from which TAI - UTC took each value.
  static constexpr double kSteps[][2] = {{51179, 32}, {53736, 33}, {54832, 34},
                                         {56109, 35}, {57204, 36}, {57754, 37}};
  double value = kSteps[0][1];
  for (const auto& s : kSteps) {
    if (mjd >= s[0])
      value = s[1];
  }
  return value;
}

double julianCenturiesTT(double mjd_utc_s) {
  const double mjd_utc = mjd_utc_s / 86400.0;
  const double mjd_tt = mjd_utc + (taiMinusUtc(mjd_utc) + 32.184) / 86400.0;
  return (mjd_tt - 51544.5) / 36525.0;
}

Nutation nutationIau1980(double t) {
  const double d =
      (297.85036 + 445267.111480 * t - 0.0019142 * t * t + t * t * t / 189474.0) * kDeg;
  const double m = (357.52772 + 35999.050340 * t - 0.0001603 * t * t - t * t * t / 300000.0) * kDeg;
  const double mp =
      (134.96298 + 477198.867398 * t + 0.0086972 * t * t + t * t * t / 56250.0) * kDeg;
  const double f = (93.27191 + 483202.017538 * t - 0.0036825 * t * t + t * t * t / 327270.0) * kDeg;
  const double om = (125.04452 - 1934.136261 * t + 0.0020708 * t * t + t * t * t / 450000.0) * kDeg;
  Nutation n;
  for (const auto& k : kNutation) {
    const double arg = k.d * d + k.m * m + k.mp * mp + k.f * f + k.om * om;
    n.dpsi += (k.s0 + k.s1 * t) * std::sin(arg);
    n.deps += (k.c0 + k.c1 * t) * std::cos(arg);
  }
  n.dpsi *= 1e-4 * kArcsec;
  n.deps *= 1e-4 * kArcsec;
  n.eps_mean = (84381.448 - 46.8150 * t - 0.00059 * t * t + 0.001813 * t * t * t) * kArcsec;
  return n;
}

Mat3 precessionNutationMatrix(double t) {
  const double zeta = (2306.2181 * t + 0.30188 * t * t + 0.017998 * t * t * t) * kArcsec;
  const double z = (2306.2181 * t + 1.09468 * t * t + 0.018203 * t * t * t) * kArcsec;
  const double theta = (2004.3109 * t - 0.42665 * t * t - 0.041833 * t * t * t) * kArcsec;
  const Mat3 precession = multiply(r3(-z), multiply(r2(theta), r3(-zeta)));
  const Nutation n = nutationIau1980(t);
  const Mat3 nutation = multiply(r1(-(n.eps_mean + n.deps)), multiply(r3(-n.dpsi), r1(n.eps_mean)));
  return multiply(nutation, precession);
}

double greenwichApparentSiderealTime(double mjd_utc_s, const EarthOrientation& eop) {
  const double mjd_ut1 = (mjd_utc_s + eop.ut1_minus_utc_s) / 86400.0;
  const double day0 = std::floor(mjd_ut1);
  const double tu = (day0 - 51544.5) / 36525.0;
  const double gmst0_s =
      24110.54841 + 8640184.812866 * tu + 0.093104 * tu * tu - 6.2e-6 * tu * tu * tu;
  const double gmst_s = gmst0_s + 1.002737909350795 * (mjd_ut1 - day0) * 86400.0;
  const double gmst = std::fmod(gmst_s, 86400.0) / 86400.0 * 2.0 * M_PI;
  const Nutation n = nutationIau1980(julianCenturiesTT(mjd_utc_s));
  return gmst + n.dpsi * std::cos(n.eps_mean + n.deps);
}

Vec3 earthVelocityOverC(double t) {
  // Mean Keplerian elements of the Earth-Moon barycentre (J2000 ecliptic and equinox).
  const double a_au = 1.00000261;
  const double e = 0.01671123 - 0.00004392 * t;
  const double perihelion = (102.93768193 + 0.32327364 * t) * kDeg;
  const double mean_longitude = (100.46457166 + 35999.37244981 * t) * kDeg;
  const double mean_anomaly = std::remainder(mean_longitude - perihelion, 2.0 * M_PI);
  double ecc = mean_anomaly;
  for (int i = 0; i < 20; ++i) {
    ecc -= (ecc - e * std::sin(ecc) - mean_anomaly) / (1.0 - e * std::cos(ecc));
  }
  const double true_anomaly = 2.0 * std::atan2(std::sqrt(1.0 + e) * std::sin(ecc / 2),
                                               std::sqrt(1.0 - e) * std::cos(ecc / 2));
  constexpr double kAu = 149597870700.0;
  constexpr double kYearS = 365.256363004 * 86400.0;  // sidereal year
  const double mean_motion = 2.0 * M_PI / kYearS;
  const double scale = mean_motion * a_au * kAu / std::sqrt(1.0 - e * e) / 299792458.0;
  const double radial = scale * e * std::sin(true_anomaly);
  const double transverse = scale * (1.0 + e * std::cos(true_anomaly));
  const double lambda = true_anomaly + perihelion;
  Vec3 ecliptic{radial * std::cos(lambda) - transverse * std::sin(lambda),
                radial * std::sin(lambda) + transverse * std::cos(lambda), 0.0};
  // Circular-orbit corrections of ~12 m/s each (4e-8 rad of aberration): the Earth about the
  // Earth-Moon barycentre, and the Sun about the solar-system barycentre (Jupiter, Saturn).
  struct Reflex {
    double speed_m_s, longitude0_deg, rate_deg_per_century;
  };
  constexpr Reflex kReflex[] = {{12.42, 218.3165, 481267.8813},
                                {12.48, 34.39644, 3034.74612775},
                                {2.77, 49.95424, 1222.49362201}};
  for (const auto& r : kReflex) {
    const double l = (r.longitude0_deg + r.rate_deg_per_century * t) * kDeg;
    ecliptic[0] += r.speed_m_s / 299792458.0 * std::sin(l);
    ecliptic[1] -= r.speed_m_s / 299792458.0 * std::cos(l);
  }
  const double eps0 = 84381.448 * kArcsec;
  return {ecliptic[0], ecliptic[1] * std::cos(eps0) - ecliptic[2] * std::sin(eps0),
          ecliptic[1] * std::sin(eps0) + ecliptic[2] * std::cos(eps0)};
}

Vec3 sunDirection(double t, double& distance_au) {
  const double e = 0.01671123 - 0.00004392 * t;
  const double perihelion = (102.93768193 + 0.32327364 * t) * kDeg;
  const double mean_anomaly =
      std::remainder((100.46457166 + 35999.37244981 * t) * kDeg - perihelion, 2.0 * M_PI);
  double ecc = mean_anomaly;
  for (int i = 0; i < 20; ++i) {
    ecc -= (ecc - e * std::sin(ecc) - mean_anomaly) / (1.0 - e * std::cos(ecc));
  }
  const double true_anomaly = 2.0 * std::atan2(std::sqrt(1.0 + e) * std::sin(ecc / 2),
                                               std::sqrt(1.0 - e) * std::cos(ecc / 2));
  distance_au = 1.00000261 * (1.0 - e * std::cos(ecc));
  const double lambda = true_anomaly + perihelion + M_PI;  // the Sun seen from the Earth
  const double eps0 = 84381.448 * kArcsec;
  return {std::cos(lambda), std::sin(lambda) * std::cos(eps0), std::sin(lambda) * std::sin(eps0)};
}

Mat3 rotationBetween(const Vec3& a, const Vec3& b) {
  const Vec3 axis{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  const double s = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  Mat3 r{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  if (s < 1e-300)
    return r;
  const Vec3 k{axis[0] / s, axis[1] / s, axis[2] / s};
  // Rodrigues: R = I + sin K + (1 - cos) K^2 with K the cross-product matrix of the unit axis.
  const Mat3 kx{{{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}}};
  const Mat3 kx2 = multiply(kx, kx);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[i][j] += s * kx[i][j] + (1.0 - c) * kx2[i][j];
  return r;
}

}  // namespace apertura::sim
