#include "core/project/region_sky_grid.h"

#include <wcslib/wcs.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace apertura::project {
namespace {

constexpr double kDeg = M_PI / 180.0;

// A wcsprm set up for the grid, freed on scope exit.
class GridWcs {
 public:
  explicit GridWcs(const RegionSkyGrid& g) {
    if (!g.valid())
      throw std::invalid_argument("region sky grid has no cell size");
    w_.flag = -1;
    wcsini(1, 2, &w_);
    std::snprintf(w_.ctype[0], sizeof(w_.ctype[0]), "RA---SIN");
    std::snprintf(w_.ctype[1], sizeof(w_.ctype[1]), "DEC--SIN");
    w_.crval[0] = g.ref_ra_rad / kDeg;
    w_.crval[1] = g.ref_dec_rad / kDeg;
    w_.crpix[0] = g.ref_pixel_x + 1.0;  // FITS pixels are 1-based
    w_.crpix[1] = g.ref_pixel_y + 1.0;
    w_.cdelt[0] = g.cell_x_rad / kDeg;
    w_.cdelt[1] = g.cell_y_rad / kDeg;
    if (wcsset(&w_) != 0) {
      wcsfree(&w_);
      throw std::invalid_argument("wcslib rejects the region sky grid");
    }
  }
  ~GridWcs() { wcsfree(&w_); }
  GridWcs(const GridWcs&) = delete;
  GridWcs& operator=(const GridWcs&) = delete;
  wcsprm* get() { return &w_; }

 private:
  wcsprm w_{};
};

}  // namespace

std::vector<double> skyToPixels(const RegionSkyGrid& grid, const std::vector<double>& radec) {
  GridWcs w(grid);
  const int n = static_cast<int>(radec.size() / 2);
  std::vector<double> world(2 * n), pixel(2 * n), imgcrd(2 * n), phi(n), theta(n);
  std::vector<int> stat(n);
  for (int i = 0; i < 2 * n; ++i)
    world[i] = radec[i] / kDeg;
  if (n > 0) {
    wcss2p(w.get(), n, 2, world.data(), phi.data(), theta.data(), imgcrd.data(), pixel.data(),
           stat.data());
  }
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 2; ++k) {
      pixel[2 * i + k] =
          stat[i] == 0 ? pixel[2 * i + k] - 1.0 : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return pixel;
}

std::vector<double> pixelsToSky(const RegionSkyGrid& grid, const std::vector<double>& xy) {
  GridWcs w(grid);
  const int n = static_cast<int>(xy.size() / 2);
  std::vector<double> world(2 * n), pixel(2 * n), imgcrd(2 * n), phi(n), theta(n);
  std::vector<int> stat(n);
  for (int i = 0; i < 2 * n; ++i)
    pixel[i] = xy[i] + 1.0;
  if (n > 0) {
    wcsp2s(w.get(), n, 2, pixel.data(), imgcrd.data(), phi.data(), theta.data(), world.data(),
           stat.data());
  }
  for (int i = 0; i < n; ++i) {
    double ra = world[2 * i] * kDeg;
    if (ra < 0.0)
      ra += 2.0 * M_PI;
    world[2 * i] = stat[i] == 0 ? ra : std::numeric_limits<double>::quiet_NaN();
    world[2 * i + 1] =
        stat[i] == 0 ? world[2 * i + 1] * kDeg : std::numeric_limits<double>::quiet_NaN();
  }
  return world;
}

}  // namespace apertura::project
