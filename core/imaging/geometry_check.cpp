#include "core/imaging/geometry_check.h"

#include <cmath>
#include <sstream>

#include "core/util/input_error.h"

namespace apertura::imaging {
namespace {

constexpr double kArcsecPerRad = 180.0 * 3600.0 / M_PI;

std::string arcsec(double rad) {
  std::ostringstream o;
  o.precision(3);
  o << rad * kArcsecPerRad << " arcsec";
  return o.str();
}

}  // namespace

void checkImageExtent(const ImageGeometry& g, double max_uv_wavelengths,
                      const std::string& cell_key) {
  const double cell = std::max(std::abs(g.cell_l), std::abs(g.cell_m));
  const double half_width = 0.5 * std::max(g.nx, g.ny) * cell;
  if (!std::isfinite(half_width) || half_width >= 1.0) {
    std::ostringstream o;
    o << "a cell of " << arcsec(cell) << " makes the " << g.nx << " x " << g.ny
      << " image reach beyond the sky (half its width must stay below 1 radian, 57 deg)";
    throw InputError(cell_key, o.str());
  }
  if (max_uv_wavelengths > 0.0) {
    const double fringe = 1.0 / max_uv_wavelengths;
    const double width = std::min(g.nx * std::abs(g.cell_l), g.ny * std::abs(g.cell_m));
    if (!(width > fringe)) {
      throw InputError(cell_key, "a cell of " + arcsec(cell) + " makes the image " + arcsec(width) +
                                     " across, less than the data's finest fringe (" +
                                     arcsec(fringe) +
                                     "): the PSF's main lobe would fill it; a cell near a third of "
                                     "the fringe resolves it");
    }
  }
}

void checkTaper(const std::optional<double>& taper_fwhm_arcsec, const ImageGeometry& g,
                const std::string& taper_key) {
  if (!taper_fwhm_arcsec)
    return;
  const double width = std::max(g.nx * std::abs(g.cell_l), g.ny * std::abs(g.cell_m));
  const double taper = *taper_fwhm_arcsec / kArcsecPerRad;
  if (!(taper < width)) {
    throw InputError(taper_key, "a taper of " + arcsec(taper) + " is wider than the image (" +
                                    arcsec(width) +
                                    "): it keeps no baseline longer than one uv cell");
  }
}

}  // namespace apertura::imaging
