#pragma once

#include <vector>

#include "core/rml/objective_term.h"

namespace apertura::rml {

// Sparsity: sum_p m_p |I_p|. evaluate() uses the smoothed sum_p m_p (sqrt(I_p^2 + eps^2) - eps)
// (eps = 0 gives the exact value and the subgradient sign(I), or, restricted to non-negative
// images, the right derivative +m at I = 0); the prox is soft thresholding.
class L1Regularizer final : public Regularizer {
 public:
  L1Regularizer(int nx, int ny, double epsilon = 0.0) : Regularizer(nx, ny), eps_(epsilon) {}
  std::string name() const override { return "l1"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  bool isSmooth() const override { return eps_ > 0.0; }
  bool hasProx() const override { return true; }
  bool isSeparable() const override { return true; }
  void restrictToNonNegative() override { non_negative_ = true; }
  double proxValue(const double* image) override;
  void prox(const double* v, double step, double* out) override;
  bool residentProx(compute::VectorSpace& /*space*/) const override { return true; }
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;

 private:
  double eps_;
  bool non_negative_ = false;
};

// Tikhonov: sum_p m_p (I_p - P_p)^2 with a prior image P (zero when empty).
class L2Regularizer final : public Regularizer {
 public:
  L2Regularizer(int nx, int ny, std::vector<double> prior = {});
  std::string name() const override { return "l2"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  bool hasProx() const override { return true; }
  bool isSeparable() const override { return true; }
  void prox(const double* v, double step, double* out) override;
  bool residentProx(compute::VectorSpace& /*space*/) const override { return true; }
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;

 private:
  double priorAt(std::size_t p) const { return prior_.empty() ? 0.0 : prior_[p]; }
  std::vector<double> prior_;
};

// Maximum entropy relative to a default image M (Skilling & Gull's form, a Kullback-Leibler
// divergence): sum_p m_p (I_p ln(I_p / M_p) - I_p + M_p) >= 0, zero at I = M, gradient
// m_p ln(I_p / M_p). It enforces positivity: any negative pixel in the mask gives +infinity
// (line searches step back), I_p = 0 contributes M_p. Its prox is solved per pixel by Newton's
// method on y = ln x of  x + t m ln(x / M) = v  (a Lambert-W equation).
class EntropyRegularizer final : public Regularizer {
 public:
  // default_image: one value per pixel, or a single value for a flat default.
  EntropyRegularizer(int nx, int ny, std::vector<double> default_image);
  std::string name() const override { return "entropy"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  bool hasProx() const override { return true; }
  bool isSeparable() const override { return true; }
  void prox(const double* v, double step, double* out) override;
  bool residentProx(compute::VectorSpace& /*space*/) const override { return true; }
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;

 private:
  double defaultAt(std::size_t p) const { return prior_.size() == 1 ? prior_[0] : prior_[p]; }
  std::vector<double> prior_;
};

}  // namespace apertura::rml
