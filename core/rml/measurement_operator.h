#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "core/data/visibility_chunk.h"

namespace apertura::rml {

using Complex = std::complex<double>;

// The linear model from a real sky image (Jy/pixel, nx * ny, ix fastest) to visibilities, split
// into blocks (chunks of rows x channels). The data term needs nothing else, so it runs the same
// on the gridding operator (through ImagingOperatorAdapter) and on a direct DFT in tests.
class MeasurementOperator {
 public:
  virtual ~MeasurementOperator() = default;
  virtual int nx() const = 0;
  virtual int ny() const = 0;
  std::size_t numPixels() const { return std::size_t(nx()) * std::size_t(ny()); }
  virtual std::size_t numBlocks() const = 0;
  virtual std::size_t blockSize(std::size_t block) const = 0;

  // vis[b] (resized to blockSize(b)) = A image.
  virtual void forward(const double* image, std::vector<std::vector<Complex>>& vis) = 0;
  // image = Re(A^H vis): the adjoint of `forward` for the real inner product on real images.
  virtual void adjoint(const std::vector<std::vector<Complex>>& vis, double* image) = 0;
};

// Measured visibilities and their weights (1 / sigma^2 per real or imaginary part, 0 = flagged),
// in the same block layout as the operator.
struct VisibilityBlock {
  std::vector<Complex> vis;
  std::vector<double> weights;

  static VisibilityBlock of(const VisibilityChunk& chunk) {
    VisibilityBlock b;
    b.vis.assign(chunk.visibilities.begin(), chunk.visibilities.end());
    b.weights.assign(chunk.weights.begin(), chunk.weights.end());
    return b;
  }
};

}  // namespace apertura::rml
