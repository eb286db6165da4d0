#pragma once

#include <memory>
#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/uv_samples.h"
#include "core/rml/measurement_operator.h"

namespace apertura::rml {

// The exact sums V_k = sum_pixels I(l, m) exp(-2 pi i (u_k l + v_k m)) (no w-term), the same
// convention as imaging::ImagingOperator. O(N_vis * N_pix) per call: a reference for tests and
// small problems. The matrix is precomputed when it fits in `max_matrix_bytes`.
class DirectDftOperator final : public MeasurementOperator {
 public:
  DirectDftOperator(const imaging::ImageGeometry& geometry,
                    const std::vector<imaging::UvwBlock>& blocks,
                    std::size_t max_matrix_bytes = std::size_t(256) << 20);
  ~DirectDftOperator() override;

  int nx() const override { return geometry_.nx; }
  int ny() const override { return geometry_.ny; }
  std::size_t numBlocks() const override { return uv_.size(); }
  std::size_t blockSize(std::size_t block) const override { return uv_[block].size() / 2; }
  void forward(const double* image, std::vector<std::vector<Complex>>& vis) override;
  void adjoint(const std::vector<std::vector<Complex>>& vis, double* image) override;

 private:
  Complex phasor(std::size_t block, std::size_t k, std::size_t pixel) const;

  imaging::ImageGeometry geometry_;
  std::vector<std::vector<double>> uv_;       // per block: u, v in wavelengths per sample
  std::vector<std::vector<Complex>> matrix_;  // per block: exp(-2 pi i (u l + v m)), or empty
};

}  // namespace apertura::rml
