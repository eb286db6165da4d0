#pragma once

#include <array>

namespace apertura::sim {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<std::array<double, 3>, 3>;  // row-major

Vec3 multiply(const Mat3& m, const Vec3& v);
Mat3 multiply(const Mat3& a, const Mat3& b);
Mat3 transpose(const Mat3& m);

// Earth orientation parameters not predictable from theory (IERS bulletins). Zero is what
// casacore assumes when its IERS tables are absent.
struct EarthOrientation {
  double ut1_minus_utc_s = 0.0;
};

// TAI - UTC in seconds (leap seconds since 1999; 32 s before, which is harmless for the
// slowly varying terms it feeds: precession, nutation, aberration).
double taiMinusUtc(double mjd_utc_days);

// Julian centuries of TT since J2000.0 for an MJD (UTC) in seconds.
double julianCenturiesTT(double mjd_utc_s);

// Greenwich apparent sidereal time (rad): IAU 1982 GMST of UT1 plus the equation of the
// equinoxes (IAU 1980 nutation).
double greenwichApparentSiderealTime(double mjd_utc_s, const EarthOrientation& eop);

// Rotation from J2000 mean equator and equinox to the true equator and equinox of date:
// IAU 1976 precession followed by IAU 1980 nutation (its terms above 0.1 mas).
Mat3 precessionNutationMatrix(double t_centuries);

// Nutation in longitude and obliquity and the mean obliquity (rad), IAU 1980.
struct Nutation {
  double dpsi = 0.0, deps = 0.0, eps_mean = 0.0;
};
Nutation nutationIau1980(double t_centuries);

// Velocity of the Earth (Earth-Moon barycentre on a Keplerian orbit) divided by c, in the J2000
// equatorial frame. Good to about 1e-3 of its value (1e-7 rad of aberration).
Vec3 earthVelocityOverC(double t_centuries);

// Unit vector from the Earth to the Sun (J2000 equatorial) and the distance in AU, from the same
// Keplerian orbit.
Vec3 sunDirection(double t_centuries, double& distance_au);

// The rotation that takes unit vector `from` to unit vector `to` about their common normal.
Mat3 rotationBetween(const Vec3& from, const Vec3& to);

Vec3 unitVector(double longitude, double latitude);

}  // namespace apertura::sim
