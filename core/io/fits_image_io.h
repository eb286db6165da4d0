#pragma once

#include <optional>
#include <string>
#include <vector>

namespace apertura {

struct ImageBeam {
  double major_fwhm_rad = 0.0;
  double minor_fwhm_rad = 0.0;
  double position_angle_rad = 0.0;  // north through east
};

enum class FitsPixelType { Float32, Float64 };

// A 2-D sky image with a celestial WCS (no rotation), as written to and read from FITS.
// Pixel (x, y) is pixels[y * nx + x]; x runs along RA (FITS axis 1), y along Dec (axis 2), and
// pixel (0, 0) is FITS pixel (1, 1). Units follow BUNIT: JY/PIXEL for models, JY/BEAM for dirty
// and restored images.
struct FitsImage {
  int nx = 0;
  int ny = 0;
  std::vector<double> pixels;
  double cell_x_rad = 0.0;   // CDELT1 (negative when RA increases to the left, as usual)
  double cell_y_rad = 0.0;   // CDELT2
  double ref_pixel_x = 0.0;  // 0-based (CRPIX1 - 1)
  double ref_pixel_y = 0.0;
  double ref_ra_rad = 0.0;  // CRVAL1, CRVAL2 (J2000)
  double ref_dec_rad = 0.0;
  std::string projection = "SIN";
  double frequency_hz = 0.0;  // 0: no spectral axis written
  double bandwidth_hz = 0.0;
  std::string bunit = "JY/PIXEL";
  std::optional<ImageBeam> beam;  // BMAJ, BMIN, BPA
  std::string object;
  std::string telescope;
  std::string date_obs;  // ISO-8601 UTC start of the observation (DATE-OBS); empty: not written
  std::vector<std::string> history;

  double at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * nx + x]; }
};

// Writes a primary-HDU image with axes RA---<proj>, DEC--<proj> and, when frequency_hz > 0,
// degenerate FREQ and STOKES (I) axes, as radio imagers do. Atomic: a temporary sibling is
// renamed over `path`. Throws InputError naming the path.
void writeFitsImage(const std::string& path, const FitsImage& image,
                    FitsPixelType type = FitsPixelType::Float32);

// Reads the primary image: two celestial axes (any wcslib projection) plus optional degenerate
// axes of length 1. Rejects rotated grids (non-diagonal PC/CD) with an InputError naming the
// file and the keyword at fault.
FitsImage readFitsImage(const std::string& path);

// J2000 RA/Dec (rad) of pixels through wcslib: xy holds x0, y0, x1, y1, ... (0-based, fractional
// allowed); returns ra0, dec0, ra1, dec1, ...
std::vector<double> fitsPixelsToWorld(const FitsImage& image, const std::vector<double>& xy);

}  // namespace apertura
