#pragma once

#include <memory>
#include <vector>

#include "core/rml/measurement_operator.h"
#include "core/rml/objective_term.h"

namespace apertura::rml {

// The data term chi2(I) = sum_k w_k |(A I)_k - V_k|^2 over every block, with w_k the measured
// weights (1 / sigma^2 per real or imaginary part). Its gradient for a real image is
//   grad chi2 = 2 Re A^H W (A I - V),
// one forward and one adjoint pass per evaluation (the residuals stream block by block through
// the operator's buffers). E[chi2] = 2 N at the truth for N unflagged samples: see chi2PerDof.
class Chi2Term final : public ObjectiveTerm {
 public:
  Chi2Term(std::shared_ptr<MeasurementOperator> op, std::vector<VisibilityBlock> data);
  ~Chi2Term() override;

  std::string name() const override { return "chi2"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  std::vector<StageTime> takeStageTimes() override;

  // vis[b] = V - A I (the residual visibilities).
  void residuals(const double* image, std::vector<std::vector<Complex>>& vis);
  // The dirty image of `vis` with the measured weights: Re A^H W vis / sum(w) (Jy/beam).
  void dirtyImage(const std::vector<std::vector<Complex>>& vis, double* image);
  std::size_t numSamples() const { return num_valid_; }  // samples with w > 0
  double sumWeights() const { return sum_weights_; }
  MeasurementOperator& measurementOperator() { return *op_; }

 private:
  std::shared_ptr<MeasurementOperator> op_;
  std::vector<VisibilityBlock> data_;
  std::vector<std::vector<Complex>> model_;
  std::vector<double> adjoint_;
  std::size_t num_valid_ = 0;
  double sum_weights_ = 0.0;
  std::vector<StageTime> times_;
};

// The total-flux constraint (sum_p m_p I_p - F)^2 with an optional mask m (weights per pixel).
class TotalFluxTerm final : public Regularizer {
 public:
  TotalFluxTerm(int nx, int ny, double flux_jy) : Regularizer(nx, ny), flux_(flux_jy) {}
  std::string name() const override { return "flux"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool hasProx() const override { return true; }
  void prox(const double* v, double step, double* out) override;

 private:
  double flux_;
};

}  // namespace apertura::rml
