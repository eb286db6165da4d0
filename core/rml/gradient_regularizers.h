#pragma once

#include <vector>

#include "core/rml/dual_prox_regularizer.h"
#include "core/rml/objective_term.h"

namespace apertura::rml {

enum class TvKind { Isotropic, Anisotropic };

// Total variation: isotropic sum_p m_p |grad I|_p or anisotropic sum_p m_p (|dx_p| + |dy_p|)
// (forward differences, Neumann boundaries). evaluate() uses the smoothed form
// sqrt(|.|^2 + eps^2) - eps for gradient solvers (eps = 0: exact value, subgradient); the prox
// (eps ignored) is Beck & Teboulle's fast gradient projection on the dual (tv_prox.h).
class TotalVariation final : public DualProxRegularizer {
 public:
  TotalVariation(int nx, int ny, TvKind kind, double epsilon = 0.0);
  std::string name() const override;
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  bool isSmooth() const override { return eps_ > 0.0; }
  double proxValue(const double* image) override;
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void setProxIterations(int iterations, double tolerance);

 protected:
  TvProxSettings proxSettings() const override;

 private:
  double value(const double* image, double* gradient, double scale, double eps);
  TvKind kind_;
  double eps_;
  int prox_iterations_ = 500;
  double prox_tolerance_ = 1e-10;
};

// Huber penalty of the gradient magnitude (edge-preserving, C1): sum_p m_p h(|grad I|_p) with
// h(r) = r^2 / (2 delta) for r <= delta and r - delta / 2 beyond. Prox as for TV, with the
// Huber term's quadratic dual penalty.
class HuberRegularizer final : public DualProxRegularizer {
 public:
  HuberRegularizer(int nx, int ny, double delta);
  std::string name() const override { return "huber"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;

 protected:
  TvProxSettings proxSettings() const override;

 private:
  double delta_;
};

// Total squared variation sum_p m_p (dx_p^2 + dy_p^2). Quadratic: prox by conjugate gradients
// (tv_prox.h), in the space where the image lives too.
class TotalSquaredVariation final : public Regularizer {
 public:
  TotalSquaredVariation(int nx, int ny) : Regularizer(nx, ny) {}
  std::string name() const override { return "tsv"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  bool hasProx() const override { return true; }
  void prox(const double* v, double step, double* out) override;
  bool residentProx(compute::VectorSpace& /*space*/) const override { return true; }
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;
};

// Smoothness by curvature: sum_p m_p (L I)_p^2 with the 5-point Laplacian L (Neumann).
class LaplacianRegularizer final : public Regularizer {
 public:
  LaplacianRegularizer(int nx, int ny) : Regularizer(nx, ny) {}
  std::string name() const override { return "laplacian"; }
  double evaluate(const double* image, double* gradient, double scale) override;
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override;
  bool hasProx() const override { return true; }
  void prox(const double* v, double step, double* out) override;
  bool residentProx(compute::VectorSpace& /*space*/) const override { return true; }
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;
};

}  // namespace apertura::rml
