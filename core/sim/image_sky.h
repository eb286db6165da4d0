#pragma once

#include <vector>

#include "core/io/fits_image_io.h"
#include "core/sim/sky_model.h"

namespace apertura::sim {

// The exact-DFT path for image sky models: every non-zero pixel of a JY/PIXEL image becomes a
// point source at the pixel centre's (l, m) relative to the phase centre (positions through
// wcslib, so any projection and reference point work). NaN pixels (blanks) are skipped. Throws
// InputError when BUNIT is not Jy/pixel (a Jy/beam image is not a sky model).
std::vector<PointSource> imageToPointSources(const FitsImage& image, double phase_ra_rad,
                                             double phase_dec_rad);

// Throws InputError when BUNIT is not Jy/pixel (a Jy/beam image is not a sky model).
void requireJyPerPixel(const FitsImage& image);

// Direction cosines of (ra, dec) relative to the phase centre (l east, m north).
void directionCosines(double ra, double dec, double ra0, double dec0, double& l, double& m);

// Renders a sky model as a SIN-projected JY/PIXEL image centred on the phase centre (reference
// pixel n/2, RA increasing to the left): point sources go to their nearest pixel; Gaussians and
// disks are integrated over each pixel on a supersampled grid. This is the "true sky" beside a
// simulated data set.
FitsImage renderSkyImage(const SkyModel& sky, int n, double cell_rad, double ra_rad, double dec_rad,
                         double frequency_hz, int supersample = 8);

}  // namespace apertura::sim
