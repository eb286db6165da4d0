#pragma once

#include <vector>

#include "core/sim/astrometry.h"

namespace apertura::sim {

// What the UVW computation needs besides the time: the J2000 phase centre, the observatory
// (any ITRF point of the array: it only sets the tiny diurnal-aberration term) and the Earth
// orientation.
struct UvwFrame {
  double ra_j2000 = 0.0;
  double dec_j2000 = 0.0;
  Vec3 observatory_itrf_m{0.0, 0.0, 0.0};
  EarthOrientation eop;
};

// The rotation taking an ITRF baseline vector at this instant (MJD seconds, UTC) into the J2000
// frame, following the chain of casacore's MBaseline ITRF -> J2000 conversion (the convention of
// CASA, casacore's derived UVW_J2000 and most Measurement Sets): Earth rotation (GAST),
// diurnal aberration, IAU 1976/1980 precession-nutation, annual aberration and light bending by
// the Sun, the last three applied as rotations that move the phase-centre direction. Polar
// motion is left out (casacore without IERS tables does the same). Agrees with casacore to
// better than 3e-8 of the baseline length (tests/sim/test_sim_uvw).
Mat3 itrfToJ2000(double mjd_utc_s, const UvwFrame& frame);

// (u, v, w) in metres of a J2000 baseline vector for the phase centre (ra, dec): u east,
// v north, w towards the source.
Vec3 baselineToUvw(const Vec3& b_j2000, double ra, double dec);

// UVW of every antenna relative to antenna 0; a baseline's UVW (the MS convention) is
// out[antenna2] - out[antenna1].
void antennaUvw(double mjd_utc_s, const UvwFrame& frame, const std::vector<Vec3>& antennas_itrf_m,
                std::vector<Vec3>& out);

}  // namespace apertura::sim
