#pragma once

#include <complex>
#include <vector>

#include "core/imaging/imaging_operator.h"
#include "core/rml/measurement_operator.h"

namespace apertura::rml {

// Presents an imaging::ImagingOperator (gridder, float or double) as the MeasurementOperator of
// the data term: real images in double, visibilities in double, conversions in between. The
// operator's samples must already be set (setSamples) with the blocks passed here.
template <typename T>
class ImagingOperatorAdapter final : public MeasurementOperator {
 public:
  ImagingOperatorAdapter(imaging::ImagingOperator<T>& op,
                         const std::vector<imaging::UvwBlock>& blocks);

  int nx() const override { return op_.geometry().nx; }
  int ny() const override { return op_.geometry().ny; }
  std::size_t numBlocks() const override { return sizes_.size(); }
  std::size_t blockSize(std::size_t block) const override { return sizes_[block]; }
  void forward(const double* image, std::vector<std::vector<Complex>>& vis) override;
  void adjoint(const std::vector<std::vector<Complex>>& vis, double* image) override;

 private:
  imaging::ImagingOperator<T>& op_;
  std::vector<std::size_t> sizes_;
  std::vector<std::complex<T>> image_;
  std::vector<std::complex<double>> adjoint_;  // A^H in double (operator's double accumulation)
  std::vector<std::vector<std::complex<T>>> vis_;
};

extern template class ImagingOperatorAdapter<float>;
extern template class ImagingOperatorAdapter<double>;

}  // namespace apertura::rml
