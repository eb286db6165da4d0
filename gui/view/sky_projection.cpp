#include "gui/view/sky_projection.h"

#include <wcslib/wcs.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace apertura::gui {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegPerRad = 180.0 / kPi;

}  // namespace

void SkyProjection::Deleter::operator()(wcsprm* wcs) const {
  wcsfree(wcs);
  delete wcs;
}

SkyProjection::SkyProjection(const ImageWcs& grid) {
  if (!grid.valid() || grid.projection.size() != 3)
    return;
  std::unique_ptr<wcsprm, Deleter> wcs(new wcsprm);
  wcs->flag = -1;  // tells wcsinit the struct holds no allocated memory yet
  if (wcsinit(1, 2, wcs.get(), 0, 0, 0) != 0)
    return;
  std::snprintf(wcs->ctype[0], sizeof wcs->ctype[0], "RA---%s", grid.projection.c_str());
  std::snprintf(wcs->ctype[1], sizeof wcs->ctype[1], "DEC--%s", grid.projection.c_str());
  std::strcpy(wcs->cunit[0], "deg");
  std::strcpy(wcs->cunit[1], "deg");
  wcs->crval[0] = grid.ref_ra_rad * kDegPerRad;
  wcs->crval[1] = grid.ref_dec_rad * kDegPerRad;
  wcs->crpix[0] = grid.ref_pixel_x + 1.0;
  wcs->crpix[1] = grid.ref_pixel_y + 1.0;
  wcs->cdelt[0] = grid.cell_x_rad * kDegPerRad;
  wcs->cdelt[1] = grid.cell_y_rad * kDegPerRad;
  if (wcsset(wcs.get()) != 0)
    return;
  wcs_ = std::move(wcs);
}

SkyProjection::~SkyProjection() = default;
SkyProjection::SkyProjection(SkyProjection&&) noexcept = default;
SkyProjection& SkyProjection::operator=(SkyProjection&&) noexcept = default;

std::optional<SkyPosition> SkyProjection::pixelToWorld(double x, double y) const {
  if (!wcs_)
    return std::nullopt;
  double pixel[2] = {x + 1.0, y + 1.0};
  double intermediate[2];
  double phi = 0.0;
  double theta = 0.0;
  double world[2];
  int status = 0;
  if (wcsp2s(wcs_.get(), 1, 2, pixel, intermediate, &phi, &theta, world, &status) != 0 ||
      status != 0)
    return std::nullopt;
  double ra = std::fmod(world[0], 360.0);
  if (ra < 0.0)
    ra += 360.0;
  return SkyPosition{ra / kDegPerRad, world[1] / kDegPerRad};
}

}  // namespace apertura::gui
