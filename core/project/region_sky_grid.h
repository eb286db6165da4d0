#pragma once

#include <vector>

namespace apertura::project {

// The sky grid that region files in celestial coordinates are converted with: a SIN projection
// about the phase centre, as the imaging pipeline and its FITS export define the image (pixel
// indices 0-based, cell_x negative when RA increases to the left).
struct RegionSkyGrid {
  double ref_ra_rad = 0.0;
  double ref_dec_rad = 0.0;
  double ref_pixel_x = 0.0;
  double ref_pixel_y = 0.0;
  double cell_x_rad = 0.0;
  double cell_y_rad = 0.0;

  bool valid() const { return cell_x_rad != 0.0 && cell_y_rad != 0.0; }
};

// 0-based pixel positions (x0, y0, x1, y1, ...) of J2000 RA/Dec pairs in radians (ra0, dec0, ...),
// through wcslib so they agree with FITS readers. A position the projection cannot reach (the far
// hemisphere of a SIN grid) comes back as NaN. Throws std::invalid_argument for an invalid grid.
std::vector<double> skyToPixels(const RegionSkyGrid& grid, const std::vector<double>& radec);

// The inverse: RA/Dec in radians (RA in [0, 2 pi)) of 0-based pixel positions.
std::vector<double> pixelsToSky(const RegionSkyGrid& grid, const std::vector<double>& xy);

}  // namespace apertura::project
