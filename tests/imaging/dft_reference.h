#pragma once
// Direct (slow, exact) Fourier sums the operator tests compare against, and random test data.

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/uv_samples.h"

namespace apertura::imaging::test {

using cd = std::complex<double>;

// A block of rows x channels with its own storage.
struct TestBlock {
  std::vector<double> uvw;
  std::vector<double> freq;
  UvwBlock view() const { return UvwBlock{uvw.data(), uvw.size() / 3, freq.data(), freq.size()}; }
  std::size_t samples() const { return uvw.size() / 3 * freq.size(); }
  void position(std::size_t s, double& u, double& v, double& w) const {
    const std::size_t r = s / freq.size(), c = s % freq.size();
    const double k = freq[c] / kSpeedOfLight;
    u = uvw[3 * r] * k;
    v = uvw[3 * r + 1] * k;
    w = uvw[3 * r + 2] * k;
  }
};

// Random uvw filling the uv plane the image can represent (|u| < umax_fraction / (2 |cell|)).
inline TestBlock randomBlock(std::mt19937& rng, const ImageGeometry& g, std::size_t rows,
                             std::vector<double> freq, double umax_fraction = 0.95,
                             double w_max_lambda = 0.0) {
  TestBlock b;
  b.freq = std::move(freq);
  const double fmax = *std::max_element(b.freq.begin(), b.freq.end());
  const double umax = umax_fraction / (2.0 * std::abs(g.cell_l)) * kSpeedOfLight / fmax;
  const double vmax = umax_fraction / (2.0 * std::abs(g.cell_m)) * kSpeedOfLight / fmax;
  const double wmax = w_max_lambda * kSpeedOfLight / fmax;
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  for (std::size_t r = 0; r < rows; ++r) {
    b.uvw.push_back(d(rng) * umax);
    b.uvw.push_back(d(rng) * vmax);
    b.uvw.push_back(d(rng) * wmax);
  }
  return b;
}

inline double nMinusOne(double l, double m) {
  const double r2 = l * l + m * m;
  return -r2 / (1.0 + std::sqrt(1.0 - r2));
}

// V_k = sum_p I_p exp(-2 pi i (u l + v m + w (n - 1)))  (w-term only when with_w)
inline std::vector<cd> directDegrid(const ImageGeometry& g, const std::vector<cd>& image,
                                    const TestBlock& b, bool with_w) {
  std::vector<cd> vis(b.samples());
  for (std::size_t s = 0; s < vis.size(); ++s) {
    double u, v, w;
    b.position(s, u, v, w);
    cd acc = 0;
    for (int iy = 0; iy < g.ny; ++iy)
      for (int ix = 0; ix < g.nx; ++ix) {
        const double l = g.l(ix), m = g.m(iy);
        const double ph = -2.0 * M_PI * (u * l + v * m + (with_w ? w * nMinusOne(l, m) : 0.0));
        acc += image[std::size_t(iy) * g.nx + ix] * std::polar(1.0, ph);
      }
    vis[s] = acc;
  }
  return vis;
}

// I_p = sum_k weight_k y_k exp(+2 pi i (u l + v m + w (n - 1)))
inline void directGridAdd(const ImageGeometry& g, const std::vector<cd>& vis,
                          const std::vector<float>* weights, const TestBlock& b, bool with_w,
                          std::vector<cd>& image) {
  image.resize(g.numPixels());
  for (std::size_t s = 0; s < vis.size(); ++s) {
    double u, v, w;
    b.position(s, u, v, w);
    const double wt = weights ? (*weights)[s] : 1.0;
    for (int iy = 0; iy < g.ny; ++iy)
      for (int ix = 0; ix < g.nx; ++ix) {
        const double l = g.l(ix), m = g.m(iy);
        const double ph = 2.0 * M_PI * (u * l + v * m + (with_w ? w * nMinusOne(l, m) : 0.0));
        image[std::size_t(iy) * g.nx + ix] += wt * vis[s] * std::polar(1.0, ph);
      }
  }
}

inline std::vector<cd> randomComplex(std::mt19937& rng, std::size_t n) {
  std::normal_distribution<double> d;
  std::vector<cd> x(n);
  for (auto& v : x)
    v = cd(d(rng), d(rng));
  return x;
}

// ||a - b||_2 / ||b||_2
template <typename A>
double l2RelativeError(const std::vector<A>& a, const std::vector<cd>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    num += std::norm(cd(a[i]) - b[i]);
    den += std::norm(b[i]);
  }
  return std::sqrt(num / den);
}

// ||a - b||_inf / ||b||_inf
template <typename A>
double maxRelativeError(const std::vector<A>& a, const std::vector<cd>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    num = std::max(num, std::abs(cd(a[i]) - b[i]));
    den = std::max(den, std::abs(b[i]));
  }
  return num / den;
}

}  // namespace apertura::imaging::test
