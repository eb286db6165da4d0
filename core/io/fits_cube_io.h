#pragma once

#include <string>
#include <vector>

#include "core/io/fits_image_io.h"

namespace apertura {

// A spectral cube: planes of one sky grid along a FREQ axis, as written by writeFitsCube.
// `header` carries the sky WCS, units and provenance (its pixels, frequency_hz, bandwidth_hz and
// beam are ignored on write); plane k's pixel (x, y) is pixels[(k * ny + y) * nx + x].
struct FitsCube {
  FitsImage header;
  int planes = 0;
  std::vector<double> pixels;
  std::vector<double> frequencies_hz;  // per plane, increasing
  std::vector<double> bandwidths_hz;   // per plane (channel width for the FREQ axis)
  std::vector<ImageBeam> beams;        // per plane, or empty (no beam: a model)
  // What the header says (filled by readFitsCube; writeFitsCube derives them).
  double crval3 = 0.0, cdelt3 = 0.0, crpix3 = 0.0;
  std::string ctype3, specsys;
};

// Writes a 4-D primary image RA---<proj>, DEC--<proj>, FREQ (planes), STOKES (I):
// CRVAL3 = the first plane's frequency, CRPIX3 = 1, CDELT3 = the mean plane spacing (the plane's
// width for one plane; unevenly spaced planes are listed, one HISTORY card each), SPECSYS TOPOCENT.
// With beams: BMAJ/BMIN/BPA of plane 0 in the primary header, CASAMBM = T and a CASA-style BEAMS
// binary table (BMAJ, BMIN in arcsec, BPA in deg, CHAN, POL; one row per plane). Atomic; throws
// InputError naming the path.
void writeFitsCube(const std::string& path, const FitsCube& cube,
                   FitsPixelType type = FitsPixelType::Float32);

// Reads such a cube back (any number of planes; a missing BEAMS table leaves `beams` with the
// primary header's beam for every plane, or empty). Throws InputError naming the file.
FitsCube readFitsCube(const std::string& path);

}  // namespace apertura
