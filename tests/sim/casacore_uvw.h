#pragma once

#include <vector>

#include "core/sim/astrometry.h"

namespace apertura::testing {

// casacore's own UVW (the chain of derivedmscal's UVW_J2000): per-antenna MBaseline ITRF ->
// J2000 conversion in a frame with the epoch (UTC), the observatory and the J2000 phase centre,
// projected with MVuvw. Returns antenna uvw relative to antenna 0 (casacore sign: baseline
// uvw = out[ant2] - out[ant1]).
std::vector<sim::Vec3> casacoreAntennaUvw(double mjd_utc_s, const std::vector<sim::Vec3>& itrf,
                                          const sim::Vec3& observatory, double ra, double dec);

// casacore's dUT1 (UT1 - UTC, s) for a date: 0 without IERS tables.
double casacoreDut1(double mjd_utc_s);

}  // namespace apertura::testing
