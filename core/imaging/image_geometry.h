#pragma once

#include <cstddef>

namespace apertura::imaging {

// Pixel grid of an image on the sky. Pixel (ix, iy) (ix fastest in memory) sits at direction
// cosines l = (ix - nx/2) * cell_l, m = (iy - ny/2) * cell_m. Standard radio images have RA
// increasing to the left, i.e. cell_l = -cell (FITS CDELT1 < 0) and cell_m = +cell; fromCell()
// sets that up. l points East (towards increasing RA), m North; both in radians.
struct ImageGeometry {
  int nx = 0;
  int ny = 0;
  double cell_l = 0.0;  // radians per pixel along x, negative for RA increasing to the left
  double cell_m = 0.0;  // radians per pixel along y

  static ImageGeometry fromCell(int nx, int ny, double cell_rad) {
    return ImageGeometry{nx, ny, -cell_rad, cell_rad};
  }
  std::size_t numPixels() const { return std::size_t(nx) * std::size_t(ny); }
  double l(int ix) const { return (ix - nx / 2) * cell_l; }
  double m(int iy) const { return (iy - ny / 2) * cell_m; }
};

}  // namespace apertura::imaging
