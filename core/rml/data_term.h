#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <vector>

#include "core/rml/objective_term.h"

namespace apertura::rml {

// What a data term needs to know about the whole data set (all processes of a distributed run).
struct DataTotals {
  std::size_t valid_samples = 0;  // samples with w > 0
  double sum_weights = 0.0;
};

// The chi-squared data term, whatever holds the visibilities: Chi2Term (blocks in memory, any
// MeasurementOperator) or ChunkChi2Term (chunks held or streamed through the gridder).
//   chi2(I) = sum_k w_k |(A I)_k - V_k|^2,   grad chi2 = 2 Re A^H W (A I - V),
// with w_k the measured weights (1 / sigma^2 per real or imaginary part).
class DataTerm : public ObjectiveTerm {
 public:
  using Residual = std::vector<std::complex<double>>;
  using ResidualVisitor =
      std::function<void(std::size_t block, const Residual& residual, const Residual& model)>;

  std::string name() const override { return "chi2"; }
  virtual std::size_t numPixels() const = 0;
  virtual std::size_t numSamples() const = 0;  // samples with w > 0
  virtual double sumWeights() const = 0;
  // Calls visit(block, V - A I, A I) for every block in order (flagged samples included).
  virtual void forEachResidual(const double* image, const ResidualVisitor& visit) = 0;
};

}  // namespace apertura::rml
