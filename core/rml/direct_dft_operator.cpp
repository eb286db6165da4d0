#include "core/rml/direct_dft_operator.h"

#include <cmath>

namespace apertura::rml {

DirectDftOperator::DirectDftOperator(const imaging::ImageGeometry& geometry,
                                     const std::vector<imaging::UvwBlock>& blocks,
                                     std::size_t max_matrix_bytes)
    : geometry_(geometry) {
  std::size_t total = 0;
  for (const auto& b : blocks) {
    std::vector<double> uv(2 * b.numSamples());
    for (std::size_t r = 0; r < b.num_rows; ++r) {
      for (std::size_t c = 0; c < b.num_channels; ++c) {
        const double scale = b.frequencies_hz[c] / imaging::kSpeedOfLight;
        const std::size_t k = r * b.num_channels + c;
        uv[2 * k] = b.uvw_m[3 * r] * scale;
        uv[2 * k + 1] = b.uvw_m[3 * r + 1] * scale;
      }
    }
    total += b.numSamples();
    uv_.push_back(std::move(uv));
  }
  const std::size_t npix = geometry_.numPixels();
  if (total * npix * sizeof(Complex) > max_matrix_bytes)
    return;
  matrix_.resize(uv_.size());
  for (std::size_t b = 0; b < uv_.size(); ++b) {
    const std::size_t n = blockSize(b);
    matrix_[b].resize(n * npix);
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t p = 0; p < npix; ++p)
        matrix_[b][k * npix + p] = phasor(b, k, p);
    }
  }
}

DirectDftOperator::~DirectDftOperator() = default;

Complex DirectDftOperator::phasor(std::size_t block, std::size_t k, std::size_t pixel) const {
  const int ix = int(pixel % std::size_t(geometry_.nx));
  const int iy = int(pixel / std::size_t(geometry_.nx));
  const double phase =
      -2.0 * M_PI * (uv_[block][2 * k] * geometry_.l(ix) + uv_[block][2 * k + 1] * geometry_.m(iy));
  return {std::cos(phase), std::sin(phase)};
}

void DirectDftOperator::forward(const double* image, std::vector<std::vector<Complex>>& vis) {
  const std::size_t npix = geometry_.numPixels();
  vis.resize(uv_.size());
  for (std::size_t b = 0; b < uv_.size(); ++b) {
    const std::size_t n = blockSize(b);
    vis[b].assign(n, Complex(0.0, 0.0));
    for (std::size_t k = 0; k < n; ++k) {
      Complex sum(0.0, 0.0);
      if (!matrix_.empty()) {
        const Complex* row = &matrix_[b][k * npix];
        for (std::size_t p = 0; p < npix; ++p)
          sum += row[p] * image[p];
      } else {
        for (std::size_t p = 0; p < npix; ++p)
          sum += phasor(b, k, p) * image[p];
      }
      vis[b][k] = sum;
    }
  }
}

void DirectDftOperator::adjoint(const std::vector<std::vector<Complex>>& vis, double* image) {
  const std::size_t npix = geometry_.numPixels();
  for (std::size_t p = 0; p < npix; ++p)
    image[p] = 0.0;
  for (std::size_t b = 0; b < uv_.size(); ++b) {
    const std::size_t n = blockSize(b);
    for (std::size_t k = 0; k < n; ++k) {
      const Complex y = vis[b][k];
      if (y == Complex(0.0, 0.0))
        continue;
      // Re(conj(a) y) = a.re y.re + a.im y.im
      if (!matrix_.empty()) {
        const Complex* row = &matrix_[b][k * npix];
        for (std::size_t p = 0; p < npix; ++p) {
          image[p] += row[p].real() * y.real() + row[p].imag() * y.imag();
        }
      } else {
        for (std::size_t p = 0; p < npix; ++p) {
          const Complex a = phasor(b, k, p);
          image[p] += a.real() * y.real() + a.imag() * y.imag();
        }
      }
    }
  }
}

}  // namespace apertura::rml
