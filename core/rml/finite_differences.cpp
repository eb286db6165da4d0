#include "core/rml/finite_differences.h"

#include <vector>

#include "core/compute/dual_math.h"

namespace apertura::rml {

void forwardDifferences(const double* image, int nx, int ny, double* dx, double* dy) {
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      const std::size_t p = std::size_t(y) * nx + x;
      dx[p] = x + 1 < nx ? image[p + 1] - image[p] : 0.0;
      dy[p] = y + 1 < ny ? image[p + nx] - image[p] : 0.0;
    }
  }
}

void addDifferenceAdjoint(const double* qx, const double* qy, int nx, int ny, double scale,
                          double* out) {
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      const std::size_t p = std::size_t(y) * nx + x;
      out[p] += scale * compute::dual::differenceAdjointAt(qx, qy, nx, ny, x, y);
    }
  }
}

void laplacian(const double* image, int nx, int ny, double* out) {
  const std::size_t n = std::size_t(nx) * ny;
  std::vector<double> dx(n), dy(n);
  forwardDifferences(image, nx, ny, dx.data(), dy.data());
  for (std::size_t p = 0; p < n; ++p)
    out[p] = 0.0;
  addDifferenceAdjoint(dx.data(), dy.data(), nx, ny, -1.0, out);
}

}  // namespace apertura::rml
