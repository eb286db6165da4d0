#pragma once

#include <memory>
#include <optional>
#include <string>

struct wcsprm;

namespace apertura::gui {

// The celestial coordinate system of an image: a tangent-plane grid about a phase centre, as
// FITS writes it with CTYPE 'RA---SIN'/'DEC--SIN'. Pixel indices here are 0-based (FITS adds 1).
struct ImageWcs {
  double ref_ra_rad = 0.0;   // CRVAL1
  double ref_dec_rad = 0.0;  // CRVAL2
  double ref_pixel_x = 0.0;  // CRPIX1 - 1
  double ref_pixel_y = 0.0;  // CRPIX2 - 1
  double cell_x_rad = 0.0;   // CDELT1, negative when RA increases to the left (east left)
  double cell_y_rad = 0.0;   // CDELT2
  std::string projection = "SIN";

  // A grid without cell sizes carries no sky coordinates.
  bool valid() const { return cell_x_rad != 0.0 && cell_y_rad != 0.0; }
};

struct SkyPosition {
  double ra_rad;
  double dec_rad;
};

// Pixel -> world conversion through wcslib, so the readout agrees with DS9/CARTA and FITS files.
class SkyProjection {
 public:
  SkyProjection() = default;
  explicit SkyProjection(const ImageWcs& wcs);
  ~SkyProjection();
  SkyProjection(SkyProjection&&) noexcept;
  SkyProjection& operator=(SkyProjection&&) noexcept;

  // False without a usable grid, or when wcslib rejected it.
  bool valid() const { return wcs_ != nullptr; }

  // Sky position of a (fractional) 0-based pixel; nullopt outside the projection's domain (a SIN
  // grid beyond the horizon) or without a grid. RA is in [0, 2 pi).
  std::optional<SkyPosition> pixelToWorld(double x, double y) const;

 private:
  struct Deleter {
    void operator()(wcsprm* wcs) const;
  };
  std::unique_ptr<wcsprm, Deleter> wcs_;
};

}  // namespace apertura::gui
