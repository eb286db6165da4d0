#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/data/process_sum.h"
#include "core/rml/data_term.h"
#include "core/rml/measurement_operator.h"
#include "core/rml/objective_term.h"

namespace apertura::rml {

// The data term (see DataTerm) over blocks held in memory, through any MeasurementOperator (the
// gridder, or a direct DFT in tests): one forward and one adjoint pass per evaluation.
// E[chi2] = 2 N at the truth for N unflagged samples.
// Distributed runs: each process holds some of the blocks; `sum` adds the value and the gradient
// over processes, and `totals` are those of all processes (none: this process's blocks).
struct Chi2Options {
  SumOverProcesses sum;
  std::optional<DataTotals> totals;
};

class Chi2Term final : public DataTerm {
 public:
  Chi2Term(std::shared_ptr<MeasurementOperator> op, std::vector<VisibilityBlock> data,
           Chi2Options options = {});
  ~Chi2Term() override;

  double evaluate(const double* image, double* gradient, double scale) override;
  std::vector<StageTime> takeStageTimes() override;

  // vis[b] = V - A I (the residual visibilities).
  void residuals(const double* image, std::vector<std::vector<Complex>>& vis);
  // The dirty image of `vis` with the measured weights: Re A^H W vis / sum(w) (Jy/beam), of
  // this process's blocks (never summed over processes; sum(w) is the totals').
  void dirtyImage(const std::vector<std::vector<Complex>>& vis, double* image);
  std::size_t numPixels() const override { return op_->numPixels(); }
  std::size_t numSamples() const override { return num_valid_; }
  double sumWeights() const override { return sum_weights_; }
  void forEachResidual(const double* image, const ResidualVisitor& visit) override;
  MeasurementOperator& measurementOperator() { return *op_; }

 private:
  std::shared_ptr<MeasurementOperator> op_;
  std::vector<VisibilityBlock> data_;
  std::vector<std::vector<Complex>> model_;
  std::vector<double> adjoint_;
  std::size_t num_valid_ = 0;
  double sum_weights_ = 0.0;
  SumOverProcesses sum_;
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
