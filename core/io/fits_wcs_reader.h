#pragma once

// Internal to core/io: the WCS of a FITS image HDU read through wcslib, shared by the image and
// cube readers so that every form the FITS WCS papers allow (CDELTi with PCi_j, CDi_j, defaults)
// reads the same.
#include <fitsio.h>

#include <string>

#include "core/io/fits_image_io.h"

namespace apertura::fits {

// The spectral axis of a header, when it has one (axis < 0: none).
struct SpectralAxis {
  int axis = -1;      // 0-based FITS axis (2 for NAXIS3)
  std::string ctype;  // e.g. "FREQ"
  double crval = 0.0;
  double cdelt = 0.0;  // the axis' own scale (CDi_i, or CDELTi times PCi_i)
  double crpix = 1.0;
};

// Fills the celestial fields of `img` (cells, reference pixel and direction, projection) and
// frequency_hz / bandwidth_hz from the spectral axis, and returns that axis. RA must be axis 1 and
// Dec axis 2; rotated pixel grids are refused. Throws InputError naming `path` and what is wrong.
SpectralAxis readSkyWcs(fitsfile* f, const std::string& path, FitsImage& img);

}  // namespace apertura::fits
