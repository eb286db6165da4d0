#pragma once

#include <optional>
#include <string>

#include "core/imaging/image_geometry.h"

namespace apertura::imaging {

// Refuses, naming `cell_key` (the setting or option the cell came from), an image that cannot
// show the data: one reaching beyond the sky (direction cosines |l|, |m| >= 1), or one smaller
// than the finest fringe of the data (`max_uv_wavelengths`, 0 when unknown), whose PSF main lobe
// would fill it. Such cells otherwise fail later with a message about the beam fit.
void checkImageExtent(const ImageGeometry& g, double max_uv_wavelengths,
                      const std::string& cell_key);

// Refuses, naming `taper_key`, a uv taper wider on the sky than the image: it keeps no baseline
// longer than one uv cell, so every sample's imaging weight vanishes.
void checkTaper(const std::optional<double>& taper_fwhm_arcsec, const ImageGeometry& g,
                const std::string& taper_key);

}  // namespace apertura::imaging
