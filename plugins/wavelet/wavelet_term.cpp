#include "plugins/wavelet/wavelet_term.h"

#include <algorithm>
#include <cmath>

namespace apertura_wavelet {
namespace {

double norm(const std::vector<double>& a) {
  double s = 0.0;
  for (double x : a)
    s += x * x;
  return std::sqrt(s);
}

}  // namespace

WaveletTerm::WaveletTerm(int nx, int ny, const WaveletOptions& options)
    : transform_(nx, ny, options.scales), options_(options) {
  coeffs_.resize(transform_.coefficients());
  // ||W||^2 = largest eigenvalue of W^T W, by power iteration from a fixed pseudo-random start.
  // The frame is translation-invariant away from the borders, so a crop of at most 256^2 pixels
  // (same scales, same mirrored borders) gives the bound without iterating on a huge image.
  const StarletTransform proxy(std::min(nx, 256), std::min(ny, 256), options.scales);
  std::vector<double> proxy_coeffs(proxy.coefficients());
  std::vector<double> x(proxy.pixels()), y(x.size());
  unsigned state = 12345u;
  for (double& v : x) {
    state = state * 1664525u + 1013904223u;
    v = double(state >> 8) / double(1u << 24) - 0.5;
  }
  double lambda = 1.0;
  for (int it = 0; it < 60; ++it) {
    const double n = norm(x);
    for (double& v : x)
      v /= n;
    proxy.forward(x.data(), proxy_coeffs.data());
    proxy.adjoint(proxy_coeffs.data(), y.data());
    lambda = norm(y);
    x.swap(y);
  }
  lipschitz_ = 1.05 * lambda;  // power iteration approaches from below
}

double WaveletTerm::weight(std::size_t k) const {
  const std::size_t n = transform_.pixels();
  if (!options_.include_coarse && k >= std::size_t(transform_.scales()) * n)
    return 0.0;
  return mask_.empty() ? 1.0 : mask_[k % n];
}

void WaveletTerm::setMask(const double* mask) {
  if (mask)
    mask_.assign(mask, mask + transform_.pixels());
  else
    mask_.clear();
  dual_.clear();
}

double WaveletTerm::evaluate(const double* image, double* gradient, double scale) {
  transform_.forward(image, coeffs_.data());
  const double eps = options_.epsilon;
  double value = 0.0;
  for (std::size_t k = 0; k < coeffs_.size(); ++k) {
    const double m = weight(k);
    const double c = coeffs_[k];
    const double r = std::sqrt(c * c + eps * eps);
    value += m * (r - eps);
    // d/dc (sqrt(c^2 + eps^2) - eps) = c / r; at eps = 0 the subgradient sign(c) (0 at 0).
    coeffs_[k] = r > 0.0 ? m * c / r : 0.0;
  }
  if (gradient) {
    std::vector<double> g(transform_.pixels());
    transform_.adjoint(coeffs_.data(), g.data());
    for (std::size_t p = 0; p < g.size(); ++p)
      gradient[p] += scale * g[p];
  }
  return value;
}

double WaveletTerm::exactValue(const double* image) {
  transform_.forward(image, coeffs_.data());
  double value = 0.0;
  for (std::size_t k = 0; k < coeffs_.size(); ++k)
    value += weight(k) * std::abs(coeffs_[k]);
  return value;
}

void WaveletTerm::prox(const double* v, double step, double* out) {
  const std::size_t n = transform_.pixels();
  const std::size_t nc = transform_.coefficients();
  auto project = [&](std::vector<double>& u) {
    for (std::size_t k = 0; k < nc; ++k) {
      const double bound = step * weight(k);
      u[k] = std::clamp(u[k], -bound, bound);
    }
  };
  if (dual_.size() != nc)
    dual_.assign(nc, 0.0);
  project(dual_);  // the warm start must be feasible for this step
  std::vector<double> z = dual_, previous(nc), x(n), grad(nc);
  double t = 1.0;
  for (int it = 0; it < options_.prox_iterations; ++it) {
    // x = v - W^T z;  gradient of the dual at z is -W x.
    transform_.adjoint(z.data(), x.data());
    for (std::size_t p = 0; p < n; ++p)
      x[p] = v[p] - x[p];
    transform_.forward(x.data(), grad.data());
    previous = dual_;
    for (std::size_t k = 0; k < nc; ++k)
      dual_[k] = z[k] + grad[k] / lipschitz_;
    project(dual_);
    const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    double change = 0.0, size = 0.0;
    for (std::size_t k = 0; k < nc; ++k) {
      const double d = dual_[k] - previous[k];
      z[k] = dual_[k] + ((t - 1.0) / t_next) * d;
      change += d * d;
      size += dual_[k] * dual_[k];
    }
    t = t_next;
    if (change <= options_.prox_tolerance * options_.prox_tolerance * std::max(size, 1e-300))
      break;
  }
  transform_.adjoint(dual_.data(), x.data());
  for (std::size_t p = 0; p < n; ++p)
    out[p] = v[p] - x[p];
}

}  // namespace apertura_wavelet
