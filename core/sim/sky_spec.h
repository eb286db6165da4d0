#pragma once

#include <string>

#include "core/sim/simulator.h"
#include "core/sim/sky_model.h"

namespace apertura::sim {

// Parsers for the command-line sky and observation specs. Offsets and sizes are in arcsec,
// angles in degrees; each throws InputError naming the option and the value at fault.
//   point:    FLUX_JY,DRA,DDEC[,SPECTRAL_INDEX]
//   gaussian: FLUX_JY,DRA,DDEC,MAJ_FWHM,MIN_FWHM,PA_DEG[,SPECTRAL_INDEX]
//   disk:     FLUX_JY,DRA,DDEC,R_IN,GAP_IN,GAP_OUT,R_OUT,INC_DEG,PA_DEG[,GAP_DEPTH[,POWER_INDEX]]
//   spw:      FIRST_FREQ_HZ,NCHAN,CHAN_WIDTH_HZ
// DRA/DDEC are the (l, m) offsets east and north of the phase centre.
PointSource parsePointSpec(const std::string& text);
GaussianSource parseGaussianSpec(const std::string& text);
RingDiskSource parseDiskSpec(const std::string& text);
SpectralWindowSpec parseSpectralWindowSpec(const std::string& text);

// Right ascension: decimal degrees ("246.5429") or sexagesimal hours ("16:26:10.3" or
// "16h26m10.3s"). Declination: decimal degrees or sexagesimal degrees ("-24:23:02").
double parseRightAscension(const std::string& text);
double parseDeclination(const std::string& text);

}  // namespace apertura::sim
