#include "core/sim/image_predictor.h"

#include <algorithm>
#include <cmath>

#include "core/sim/image_sky.h"
#include "core/util/input_error.h"

namespace apertura::sim {
namespace {

// The largest padded side accepted: beyond it the operator's grids would not fit in memory.
constexpr long kMaxSide = 32768;

bool wholePixel(double ref) {
  return std::fabs(ref - std::round(ref)) <= 1e-9;
}

// Even side with the reference pixel `ref` (0-based) at side / 2, holding pixels 0..n-1.
long paddedSide(long n, long ref) {
  return 2 * std::max({ref, n - ref, 1L});
}

}  // namespace

std::string FastImageModel::unsupportedReason(const FitsImage& img, double ra0, double dec0) {
  if (img.projection != "SIN") {
    return "the image has projection " + img.projection +
           "; the gridding operator's pixels are SIN (orthographic) offsets";
  }
  if (!(img.cell_x_rad != 0.0) || !(img.cell_y_rad != 0.0))
    return "the image has a zero pixel size (CDELT1/CDELT2)";
  double l = 0.0, m = 0.0;
  directionCosines(img.ref_ra_rad, img.ref_dec_rad, ra0, dec0, l, m);
  // The reference point must be the phase centre to well below a pixel: any offset would shift
  // every pixel of the operator's grid relative to its true position. 1e-14 rad allows for the
  // rounding of angles parsed from text (sexagesimal versus degrees).
  const double cell = std::min(std::fabs(img.cell_x_rad), std::fabs(img.cell_y_rad));
  if (std::hypot(l, m) > std::max(1e-9 * cell, 1e-14)) {
    return "the image's reference point (CRVAL1/CRVAL2) is not the phase centre";
  }
  if (!wholePixel(img.ref_pixel_x) || !wholePixel(img.ref_pixel_y))
    return "the image's reference pixel (CRPIX1/CRPIX2) is not a whole pixel";
  const long rx = std::lround(img.ref_pixel_x), ry = std::lround(img.ref_pixel_y);
  if (paddedSide(img.nx, rx) > kMaxSide || paddedSide(img.ny, ry) > kMaxSide)
    return "the reference pixel is so far from the image that the padded grid is too large";
  return {};
}

FastImageModel::FastImageModel(const FitsImage& img, double ra0, double dec0, double epsilon)
    : epsilon_(epsilon) {
  requireJyPerPixel(img);
  const std::string why = unsupportedReason(img, ra0, dec0);
  if (!why.empty())
    throw InputError("sky image", "cannot use the fast (gridding operator) prediction: " + why);
  const long rx = std::lround(img.ref_pixel_x), ry = std::lround(img.ref_pixel_y);
  const long nx = paddedSide(img.nx, rx), ny = paddedSide(img.ny, ry);
  const long ox = nx / 2 - rx, oy = ny / 2 - ry;  // operator pixel = image pixel + offset
  geometry_ = imaging::ImageGeometry{static_cast<int>(nx), static_cast<int>(ny), img.cell_x_rad,
                                     img.cell_y_rad};
  pixels_.assign(geometry_.numPixels(), 0.0);
  for (int y = 0; y < img.ny; ++y) {
    for (int x = 0; x < img.nx; ++x) {
      const double v = img.at(x, y);
      if (v == 0.0 || std::isnan(v))
        continue;  // blanks are skipped, as on the exact path
      pixels_[static_cast<std::size_t>(y + oy) * static_cast<std::size_t>(nx) +
              static_cast<std::size_t>(x + ox)] = v;
      ++non_zero_;
      total_flux_ += v;
      const double l = geometry_.l(static_cast<int>(x + ox)),
                   m = geometry_.m(static_cast<int>(y + oy));
      const double r2 = l * l + m * m;
      max_n_minus_1_ = std::max(max_n_minus_1_, r2 / (1.0 + std::sqrt(std::max(0.0, 1.0 - r2))));
    }
  }
}

imaging::ImagingOperator<double>& FastImageModel::operatorFor(bool w_stacking) const {
  auto& op = w_stacking ? w_operator_ : flat_operator_;
  if (!op) {
    imaging::OperatorSettings settings;
    settings.epsilon = epsilon_;
    settings.w_stacking = w_stacking;  // the exact path includes exp(-2 pi i w (n - 1))
    op = imaging::makeCpuOperator<double>(geometry_, settings);
  }
  return *op;
}

FastImageModel::~FastImageModel() = default;

void FastImageModel::addVisibilities(const double* uvw_m, std::size_t rows,
                                     const std::vector<double>& freqs,
                                     std::complex<double>* out) const {
  if (rows == 0 || freqs.empty())
    return;
  const imaging::UvwBlock block{uvw_m, rows, freqs.data(), freqs.size()};
  std::vector<std::complex<double>> vis(block.numSamples());
  double w_max = 0.0;
  for (std::size_t r = 0; r < rows; ++r)
    w_max = std::max(w_max, std::fabs(uvw_m[3 * r + 2]));
  double f_max = 0.0;
  for (double f : freqs)
    f_max = std::max(f_max, std::fabs(f));
  const double w_phase = 2.0 * M_PI * w_max * f_max / imaging::kSpeedOfLight * max_n_minus_1_;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    imaging::ImagingOperator<double>& op = operatorFor(w_phase > 0.1 * epsilon_);
    op.setSamples({block});
    op.degrid(pixels_.data(), {vis.data()});
  }
  for (std::size_t i = 0; i < vis.size(); ++i)
    out[i] += vis[i];
}

}  // namespace apertura::sim
