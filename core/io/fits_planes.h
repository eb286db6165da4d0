#pragma once

#include <string>
#include <vector>

namespace apertura {

// How many image planes the primary image of a FITS file holds: NAXIS3 for a cube (3 or 4 axes,
// as writeFitsCube writes them), 1 for a 2-D image or one whose extra axes are all of length 1.
// Lets a reader choose between readFitsImage and readFitsCube without reading any pixels.
// Throws InputError naming the file when it does not exist or is not a FITS image.
int fitsImagePlanes(const std::string& path);

// The exact plane frequencies (Hz) that writeFitsCube lists in HISTORY cards ("Apertura plane N
// frequency F Hz") when a cube's planes are not evenly spaced (several spectral windows): the
// linear FREQ axis only gives their mean spacing. Empty when the file lists none, or not every
// plane of `planes`. Throws InputError naming the file when it cannot be read.
std::vector<double> fitsListedPlaneFrequencies(const std::string& path, int planes);

}  // namespace apertura
