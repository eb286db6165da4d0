#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/compute/vector_space.h"

namespace apertura::rml {

struct TvProxSettings {
  bool isotropic = true;
  double huber_delta = 0.0;  // > 0: Huber penalty of |grad| instead of |grad|
  bool nonnegative = false;  // the prox over x >= 0 (the constrained form of the same method)
  int max_iterations = 500;
  double tolerance = 1e-10;  // relative change of the dual variable
};

// The image the prox works on, as a space holds it.
struct TvProxImage {
  int nx = 0;
  int ny = 0;
  const compute::SpaceVector* mask = nullptr;  // per-pixel weight m_p; null: 1
  double min_mask = 1.0;  // the smallest positive weight (0: all weights are zero)
};

// out = argmin_{x (>= 0 when settings.nonnegative)} step * sum_p m_p phi((D x)_p)
//       + 1/2 ||x - v||^2
// with phi the TV norm (or its Huber form), by fast gradient projection on the dual (Beck &
// Teboulle 2009, with their bound constraint): x = P(v - step D^T q), q_p in the ball of radius
// m_p (a box for anisotropic TV). Written once on VectorSpace: every vector stays in `space`
// (out may be v). `work` is empty (the prox creates its vectors for the call) or holds
// kTvProxWorkVectors image-sized vectors of `space`, distinct from v and out, to work in.
constexpr std::size_t kTvProxWorkVectors = 5;
void proxTotalVariationIn(compute::VectorSpace& space, const TvProxImage& image,
                          const compute::SpaceVector& v, double step,
                          const TvProxSettings& settings,
                          const std::vector<compute::SpaceVector*>& work,
                          compute::SpaceVector& out);
// The same on host arrays (mask empty: 1 everywhere).
void proxTotalVariation(const double* v, int nx, int ny, const std::vector<double>& mask,
                        double step, const TvProxSettings& settings, double* out);
// The smallest positive weight of a mask (1 when it is empty, 0 when no weight is positive).
double smallestPositiveWeight(const std::vector<double>& mask);

// out = argmin_x step * R(x) + 1/2 ||x - v||^2 for a homogeneous quadratic R: solves A x = v with
// A x = x + step grad R(x) (`apply` writes it, never aliasing its input) by conjugate gradients in
// `space`, from x = v, to a relative residual of `tolerance` (out may be v).
void proxQuadraticIn(
    compute::VectorSpace& space,
    const std::function<void(const compute::SpaceVector&, compute::SpaceVector&)>& apply,
    const compute::SpaceVector& v, compute::SpaceVector& out, double tolerance = 1e-12);
// The same on host arrays, R's gradient given by `gradient(x, g)` (g overwritten).
void proxQuadratic(const std::function<void(const double*, double*)>& gradient, std::size_t n,
                   const double* v, double step, double* out, double tolerance = 1e-12);

}  // namespace apertura::rml
