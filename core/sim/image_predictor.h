#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/imaging_operator.h"
#include "core/io/fits_image_io.h"

namespace apertura::sim {

// The fast path for image sky models: the JY/PIXEL image is degridded by the imaging operator
// (imaging_operator.h, double precision, w-stacking on where the w-term is not negligible, so it
// matches the exact path)
// instead of summing one exponential per pixel and visibility. The operator's pixel grid has
// l = (ix - nx/2) cell_l, m = (iy - ny/2) cell_m around the phase centre, which is exactly a FITS
// image's own grid when the image is SIN-projected with its reference point (CRVAL) at the phase
// centre: l = CDELT1 (x - CRPIX1), m = CDELT2 (y - CRPIX2). The reference pixel may sit anywhere
// (off-centre, even outside the image) as long as it is a whole pixel: the image is placed in a
// larger zero-padded grid with the reference pixel at its centre. Any other image (another
// projection, a reference point away from the phase centre, a fractional reference pixel) cannot
// be put on the operator's grid without resampling, which would not be exact: use the exact DFT
// (image_sky.h) for it; unsupportedReason() says why.
class FastImageModel {
 public:
  // Throws InputError (naming the image) when unsupportedReason() is not empty or BUNIT is not
  // JY/PIXEL.
  FastImageModel(const FitsImage& image, double phase_ra_rad, double phase_dec_rad,
                 double epsilon = 1e-7);
  ~FastImageModel();

  // Empty when the image can be predicted on its own grid; else the reason, for messages.
  static std::string unsupportedReason(const FitsImage& image, double phase_ra_rad,
                                       double phase_dec_rad);

  // Adds the image's visibilities at `rows` uvw (metres, imaging convention as in predict.h) for
  // every frequency: out[row * nchan + chan] += V. Calls are serialised (one operator).
  void addVisibilities(const double* uvw_m, std::size_t rows,
                       const std::vector<double>& frequencies_hz, std::complex<double>* out) const;

  std::size_t nonZeroPixels() const { return non_zero_; }
  double totalFluxJy() const { return total_flux_; }
  const imaging::ImageGeometry& geometry() const { return geometry_; }
  double epsilon() const { return epsilon_; }

 private:
  imaging::ImageGeometry geometry_;
  std::vector<std::complex<double>> pixels_;  // the padded operator image, ix fastest
  std::size_t non_zero_ = 0;
  double total_flux_ = 0.0;
  double epsilon_ = 1e-7;
  double max_n_minus_1_ = 0.0;  // largest |n - 1| over the non-zero pixels
  mutable std::mutex mutex_;
  // With and without w-stacking: the w-term is skipped (a much cheaper operator) for calls whose
  // largest w-term phase over the image stays below epsilon / 10. Made on first use.
  mutable std::unique_ptr<imaging::ImagingOperator<double>> w_operator_, flat_operator_;
  imaging::ImagingOperator<double>& operatorFor(bool w_stacking) const;
};

}  // namespace apertura::sim
