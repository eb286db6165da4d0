#pragma once

#include <string>
#include <vector>

#include "core/imaging/image_geometry.h"

namespace apertura::pipeline {

// The starting image of an optimisation read from a model FITS file (Jy/pixel), e.g. an earlier
// run's -model.fits: it must have the run's size, cell and phase centre (an image on another grid
// would start the solver from a shifted or rescaled sky without any sign of it). Blank (NaN)
// pixels become 0, negative ones too when `positive`, and pixels outside `mask` (when not empty)
// are 0. Throws InputError naming optimizer.initial_model and the file.
std::vector<double> readInitialModel(const std::string& path, const imaging::ImageGeometry& g,
                                     double ra_rad, double dec_rad, bool positive,
                                     const std::vector<double>& mask);

// The same for a cube run of `planes` planes (imaging.spectral_mode cube): returns planes * nx *
// ny values, plane-major. A model cube (an earlier cube run's -model.fits) must have exactly
// `planes` planes, each starting its own plane (continuing a cube run); a 2-D model image (or a
// cube of one plane) starts every plane. The same checks as above, then a clear InputError when
// the plane counts differ (another channels_per_plane or spectral window selection).
std::vector<double> readInitialModelCube(const std::string& path, const imaging::ImageGeometry& g,
                                         double ra_rad, double dec_rad, bool positive,
                                         const std::vector<double>& mask, int planes);

}  // namespace apertura::pipeline
