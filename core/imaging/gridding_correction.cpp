#include "core/imaging/gridding_correction.h"

#include <cmath>
#include <mutex>

namespace apertura::imaging {

void gaussLegendre(int n, std::vector<double>& nodes, std::vector<double>& weights) {
  nodes.assign(n, 0.0);
  weights.assign(n, 0.0);
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double x = std::cos(M_PI * (i + 0.75) / (n + 0.5));
    double dp = 1.0;
    for (int iter = 0; iter < 100; ++iter) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1.0);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16)
        break;
    }
    nodes[i] = -x;
    nodes[n - 1 - i] = x;
    weights[i] = weights[n - 1 - i] = 2.0 / ((1.0 - x * x) * dp * dp);
  }
}

namespace {

// theta-quadrature of x = sin(theta), theta in [-pi/2, pi/2]; 160 nodes resolve the oscillation
// of cos(pi p W x / N) for W <= 16 and |p/N| <= 1 to double precision.
struct Quadrature {
  std::vector<double> x, w;  // x = sin(theta), w = weight * cos(theta) * pi/2
  Quadrature() {
    std::vector<double> t, wt;
    gaussLegendre(160, t, wt);
    for (std::size_t i = 0; i < t.size(); ++i) {
      const double theta = t[i] * M_PI / 2.0;
      x.push_back(std::sin(theta));
      w.push_back(wt[i] * std::cos(theta) * M_PI / 2.0);
    }
  }
};

const Quadrature& quadrature() {
  static const Quadrature q;
  return q;
}

}  // namespace

double kernelTransformAt(const KernelShape& kernel, double cycles_per_cell) {
  const Quadrature& q = quadrature();
  const double half = 0.5 * kernel.support;
  // delta = half * x; phase 2 pi f delta.
  double sum = 0.0;
  for (std::size_t i = 0; i < q.x.size(); ++i)
    sum += q.w[i] * kernel(q.x[i]) * std::cos(2.0 * M_PI * cycles_per_cell * half * q.x[i]);
  return sum * half;
}

std::vector<double> kernelTransform(const KernelShape& kernel, int image_pixels, int grid_cells) {
  std::vector<double> psi(image_pixels);
  const Quadrature& q = quadrature();
  const double half = 0.5 * kernel.support;
  std::vector<double> phi(q.x.size());
  for (std::size_t i = 0; i < q.x.size(); ++i)
    phi[i] = q.w[i] * kernel(q.x[i]) * half;
  for (int ip = 0; ip < image_pixels; ++ip) {
    const int p = ip - image_pixels / 2;
    const int mirror = image_pixels / 2 - p;  // index of -p
    if (mirror >= 0 && mirror < ip) {
      psi[ip] = psi[mirror];  // even function
      continue;
    }
    const double f = 2.0 * M_PI * double(p) / grid_cells * half;
    double sum = 0.0;
    for (std::size_t i = 0; i < q.x.size(); ++i)
      sum += phi[i] * std::cos(f * q.x[i]);
    psi[ip] = sum;
  }
  return psi;
}

}  // namespace apertura::imaging
