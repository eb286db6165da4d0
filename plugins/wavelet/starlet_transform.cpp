#include "plugins/wavelet/starlet_transform.h"

#include <algorithm>
#include <stdexcept>

namespace apertura_wavelet {
namespace {

constexpr double kB3[5] = {1.0 / 16, 4.0 / 16, 6.0 / 16, 4.0 / 16, 1.0 / 16};

// Mirror index i into [0, n): ... 2 1 | 0 1 2 ... n-1 | n-2 ... (period 2 (n - 1)).
int mirror(long i, int n) {
  if (n == 1)
    return 0;
  const long period = 2L * (n - 1);
  i %= period;
  if (i < 0)
    i += period;
  return int(i < n ? i : period - i);
}

}  // namespace

StarletTransform::StarletTransform(int nx, int ny, int scales) : nx_(nx), ny_(ny), scales_(scales) {
  if (nx < 1 || ny < 1)
    throw std::invalid_argument("image size must be at least 1 x 1");
  if (scales < 1)
    throw std::invalid_argument("at least one wavelet scale is needed");
  tmp_.resize(pixels());
}

void StarletTransform::smooth(const double* in, double* out, int scale) const {
  const long step = 1L << scale;
  for (int y = 0; y < ny_; ++y) {
    const double* row = in + std::size_t(y) * nx_;
    double* t = tmp_.data() + std::size_t(y) * nx_;
    for (int x = 0; x < nx_; ++x) {
      double s = 0.0;
      for (int k = 0; k < 5; ++k)
        s += kB3[k] * row[mirror(x + (k - 2) * step, nx_)];
      t[x] = s;
    }
  }
  for (int y = 0; y < ny_; ++y) {
    double* o = out + std::size_t(y) * nx_;
    std::fill(o, o + nx_, 0.0);
    for (int k = 0; k < 5; ++k) {
      const double* src = tmp_.data() + std::size_t(mirror(y + (k - 2) * step, ny_)) * nx_;
      for (int x = 0; x < nx_; ++x)
        o[x] += kB3[k] * src[x];
    }
  }
}

void StarletTransform::smoothTransposed(const double* in, double* out, int scale) const {
  const long step = 1L << scale;
  // Transpose of the y pass: scatter rows.
  std::fill(tmp_.begin(), tmp_.end(), 0.0);
  for (int y = 0; y < ny_; ++y) {
    const double* src = in + std::size_t(y) * nx_;
    for (int k = 0; k < 5; ++k) {
      double* dst = tmp_.data() + std::size_t(mirror(y + (k - 2) * step, ny_)) * nx_;
      for (int x = 0; x < nx_; ++x)
        dst[x] += kB3[k] * src[x];
    }
  }
  // Transpose of the x pass: scatter within each row.
  std::fill(out, out + pixels(), 0.0);
  for (int y = 0; y < ny_; ++y) {
    const double* t = tmp_.data() + std::size_t(y) * nx_;
    double* o = out + std::size_t(y) * nx_;
    for (int x = 0; x < nx_; ++x) {
      for (int k = 0; k < 5; ++k)
        o[mirror(x + (k - 2) * step, nx_)] += kB3[k] * t[x];
    }
  }
}

void StarletTransform::forward(const double* image, double* coeffs) const {
  const std::size_t n = pixels();
  double* coarse = coeffs + std::size_t(scales_) * n;
  std::vector<double> c(image, image + n);
  for (int j = 0; j < scales_; ++j) {
    smooth(c.data(), coarse, j);  // c_{j+1}, kept in the coarse plane until the next scale
    double* w = coeffs + std::size_t(j) * n;
    for (std::size_t p = 0; p < n; ++p) {
      w[p] = c[p] - coarse[p];
      c[p] = coarse[p];
    }
  }
}

void StarletTransform::adjoint(const double* coeffs, double* image) const {
  // Back-propagation through c_{j+1} = H_j c_j, w_{j+1} = c_j - c_{j+1}: with a the gradient
  // reaching c_{j+1} from later scales, the gradient at c_j is g_{j+1} + H_j^T (a - g_{j+1}).
  const std::size_t n = pixels();
  std::vector<double> a(coeffs + std::size_t(scales_) * n, coeffs + std::size_t(scales_ + 1) * n);
  std::vector<double> d(n), back(n);
  for (int j = scales_ - 1; j >= 0; --j) {
    const double* g = coeffs + std::size_t(j) * n;
    for (std::size_t p = 0; p < n; ++p)
      d[p] = a[p] - g[p];
    smoothTransposed(d.data(), back.data(), j);
    for (std::size_t p = 0; p < n; ++p)
      a[p] = g[p] + back[p];
  }
  std::copy(a.begin(), a.end(), image);
}

void StarletTransform::reconstruct(const double* coeffs, double* image) const {
  const std::size_t n = pixels();
  std::copy(coeffs + std::size_t(scales_) * n, coeffs + std::size_t(scales_ + 1) * n, image);
  for (int j = 0; j < scales_; ++j) {
    for (std::size_t p = 0; p < n; ++p)
      image[p] += coeffs[std::size_t(j) * n + p];
  }
}

}  // namespace apertura_wavelet
