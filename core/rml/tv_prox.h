#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace apertura::rml {

struct TvProxSettings {
  bool isotropic = true;
  double huber_delta = 0.0;  // > 0: Huber penalty of |grad| instead of |grad|
  int max_iterations = 500;
  double tolerance = 1e-10;  // relative change of the dual variable
};

// out = argmin_x step * sum_p m_p phi((D x)_p) + 1/2 ||x - v||^2 with phi the TV norm (or its
// Huber form), by fast gradient projection on the dual (Beck & Teboulle 2009):
//   x = v - step D^T q,  q_p in the ball of radius m_p (a box for anisotropic TV).
void proxTotalVariation(const double* v, int nx, int ny, const std::vector<double>& mask,
                        double step, const TvProxSettings& settings, double* out);

// out = argmin_x step * R(x) + 1/2 ||x - v||^2 for a homogeneous quadratic R whose gradient is
// the linear map `gradient(x, g)` (g overwritten): solves (I + step grad R) x = v by conjugate
// gradients to a relative residual of `tolerance`.
void proxQuadratic(const std::function<void(const double*, double*)>& gradient, std::size_t n,
                   const double* v, double step, double* out, double tolerance = 1e-12);

}  // namespace apertura::rml
