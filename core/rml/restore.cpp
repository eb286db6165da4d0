#include "core/rml/restore.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>

#include "core/imaging/fft_plans.h"

namespace apertura::rml {

double cleanBeamValue(const imaging::CleanBeam& beam, const imaging::ImageGeometry& geometry,
                      double dx_pixels, double dy_pixels) {
  const double dl = dx_pixels * geometry.cell_l;
  const double dm = dy_pixels * geometry.cell_m;
  // Coordinates along the major axis (direction (sin pa, cos pa) in (l, m)) and the minor axis.
  const double major = dl * std::sin(beam.bpa) + dm * std::cos(beam.bpa);
  const double minor = dl * std::cos(beam.bpa) - dm * std::sin(beam.bpa);
  const double a = major / beam.bmaj;
  const double b = minor / beam.bmin;
  return std::exp(-4.0 * std::log(2.0) * (a * a + b * b));
}

namespace {

// 2-D complex FFT in place (rows then columns), unnormalised.
void fft2d(std::vector<std::complex<double>>& data, int nx, int ny, bool forward) {
  imaging::fftMany<double>(data.data(), nx, ny, 1, nx, forward, 1);
  imaging::fftMany<double>(data.data(), ny, nx, nx, 1, forward, 1);
}

}  // namespace

std::vector<double> convolveWithCleanBeam(const std::vector<double>& model,
                                          const imaging::ImageGeometry& geometry,
                                          const imaging::CleanBeam& beam) {
  const int nx = geometry.nx;
  const int ny = geometry.ny;
  if (model.size() != geometry.numPixels())
    throw std::invalid_argument("convolveWithCleanBeam: model size differs from the geometry");
  if (!(beam.bmaj > 0.0) || !(beam.bmin > 0.0))
    throw std::invalid_argument("convolveWithCleanBeam: beam axes must be positive");
  // Linear convolution needs padding by the kernel's reach only: beyond 3.2 major-axis FWHM the
  // clean beam is below 1e-12 of its peak, so a padded size of n + reach (not 2n) keeps every
  // wrapped-around term at zero and the buffers a fraction of 2n x 2n for large images.
  const double fwhm_pixels =
      beam.bmaj / std::min(std::fabs(geometry.cell_l), std::fabs(geometry.cell_m));
  const int reach_x = std::min(nx, int(std::ceil(3.2 * fwhm_pixels)) + 1);
  const int reach_y = std::min(ny, int(std::ceil(3.2 * fwhm_pixels)) + 1);
  const int px = imaging::goodFftSize(nx + reach_x);
  const int py = imaging::goodFftSize(ny + reach_y);
  std::vector<std::complex<double>> image(std::size_t(px) * py), kernel(image.size());
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x)
      image[std::size_t(y) * px + x] = model[std::size_t(y) * nx + x];
  }
  // Kernel offsets -reach..reach stored circularly: offset d sits at index (d + p) % p.
  for (int dy = -reach_y; dy <= reach_y; ++dy) {
    for (int dx = -reach_x; dx <= reach_x; ++dx) {
      kernel[std::size_t((dy + py) % py) * px + (dx + px) % px] =
          cleanBeamValue(beam, geometry, dx, dy);
    }
  }
  fft2d(image, px, py, true);
  fft2d(kernel, px, py, true);
  for (std::size_t k = 0; k < image.size(); ++k)
    image[k] *= kernel[k];
  fft2d(image, px, py, false);
  const double norm = 1.0 / (double(px) * py);
  std::vector<double> out(geometry.numPixels());
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x)
      out[std::size_t(y) * nx + x] = image[std::size_t(y) * px + x].real() * norm;
  }
  return out;
}

std::vector<double> restoredImage(const std::vector<double>& model,
                                  const std::vector<double>& residual_image,
                                  const imaging::ImageGeometry& geometry,
                                  const imaging::CleanBeam& beam) {
  if (residual_image.size() != model.size())
    throw std::invalid_argument("restoredImage: residual and model sizes differ");
  std::vector<double> out = convolveWithCleanBeam(model, geometry, beam);
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] += residual_image[k];
  return out;
}

}  // namespace apertura::rml
