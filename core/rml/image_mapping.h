#pragma once

#include <vector>

#include "core/rml/function.h"

namespace apertura::rml {

// How the solver's free variables x map to the image I.
enum class ImageMapping {
  Identity,  // I = x (positivity, if wanted, by the solver's projection option)
  Exp,       // I = exp(x): strictly positive, multiplicative steps
  Softplus   // I = ln(1 + exp(x)): positive, linear for bright pixels
};

// The objective seen through the mapping: g(x) = f(phi(x)) with phi applied pixel by pixel and
// pixels outside `support` (a 0/1 mask, empty = everywhere) held at zero. Chain rule:
// grad_x g = phi'(x) grad_I f inside the support, 0 outside.
class MappedObjective final : public DifferentiableFunction {
 public:
  MappedObjective(DifferentiableFunction& image_objective, ImageMapping mapping,
                  std::vector<double> support = {});

  std::size_t dimension() const override { return f_.dimension(); }
  double evaluate(const double* x, double* gradient) override;
  std::vector<TermValue> lastTermValues() const override { return f_.lastTermValues(); }
  std::vector<StageTime> takeStageTimes() override { return f_.takeStageTimes(); }
  // Where the objective is resident: the mapping and the support are applied there.
  compute::VectorSpace* residentSpace() override;
  double evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) override;

  void toImage(const double* x, double* image) const;
  // The x that maps to `image`, pixels first raised to `floor` (> 0) for Exp and Softplus.
  void fromImage(const double* image, double* x, double floor = 1e-12) const;

 private:
  bool inside(std::size_t k) const { return support_.empty() || support_[k] != 0.0; }
  DifferentiableFunction& f_;
  ImageMapping mapping_;
  std::vector<double> support_;
  std::vector<double> image_;
  std::vector<double> image_gradient_;
  // Resident evaluation with a support: the 0/1 indicator and the image and its gradient there.
  compute::VectorSpace* resident_space_ = nullptr;
  compute::SpaceVectorPtr resident_support_, resident_image_, resident_gradient_;
};

}  // namespace apertura::rml
