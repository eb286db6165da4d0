#pragma once

#include <memory>
#include <vector>

#include "core/rml/function.h"
#include "core/rml/objective_term.h"

namespace apertura::rml {

// How the objective uses one term: f += lambda * term(x[parameter]). `proximal` terms are left
// out of smoothPart() and handed to proximal solvers through proximalTerms(); gradient solvers
// see every term through evaluate() (non-smooth ones in their smoothed form).
struct TermOptions {
  double lambda = 1.0;
  int parameter = 0;
  bool proximal = false;
  // Consecutive parameter slices the term sees, from `parameter` on: an across-channel term of a
  // cube sees every plane (its evaluate() gets parameters * num_pixels values).
  int parameters = 1;
};

// The RML objective: a sum of weighted terms over num_parameters images of num_pixels each
// (parameter p occupies x[p * num_pixels .. (p + 1) * num_pixels)).
class ObjectiveFunction final : public DifferentiableFunction {
 public:
  explicit ObjectiveFunction(std::size_t num_pixels, int num_parameters = 1);
  ~ObjectiveFunction() override;

  void add(std::shared_ptr<ObjectiveTerm> term, TermOptions options = {});
  std::size_t numTerms() const;
  // Changes the weight of the term added index-th (a lambda path between solver runs).
  void setLambda(std::size_t index, double lambda);
  std::size_t numPixels() const { return num_pixels_; }

  std::size_t dimension() const override;
  // Every term (value and gradient together).
  double evaluate(const double* x, double* gradient) override;
  std::vector<TermValue> lastTermValues() const override;
  std::vector<StageTime> takeStageTimes() override;
  // Resident when a term keeps its data in a space (the data term on an accelerator) and every
  // term can be evaluated there; single-image objectives only.
  compute::VectorSpace* residentSpace() override;
  double evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) override;

  // The terms not marked proximal, as one differentiable function.
  DifferentiableFunction& smoothPart();
  // One proximable function per proximal term (lambda and parameter slice applied).
  std::vector<ProximableFunction*> proximalTerms();

 private:
  struct Entry;
  class SmoothView;
  class ProxView;
  double evaluateSelected(const double* x, double* gradient, bool include_proximal);
  compute::VectorSpace* residentSpaceSelected(bool include_proximal);
  double evaluateInSelected(const compute::SpaceVector& x, compute::SpaceVector* gradient,
                            bool include_proximal);
  // Calls evaluate_term(entry) for each selected term, keeping its value and stage times.
  template <typename F>
  double sumTerms(bool include_proximal, F evaluate_term);

  std::size_t num_pixels_;
  int num_parameters_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::unique_ptr<SmoothView> smooth_;
  std::vector<StageTime> stage_times_;
  std::vector<TermValue> last_values_;
};

}  // namespace apertura::rml
