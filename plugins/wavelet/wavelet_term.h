#pragma once

#include <vector>

#include "plugins/wavelet/starlet_transform.h"

namespace apertura_wavelet {

struct WaveletOptions {
  int scales = 4;
  double epsilon = 1e-6;         // smoothing of |w| in evaluate(); 0: exact value, sign subgradient
  bool include_coarse = false;   // penalise the coarse plane c_J too
  int prox_iterations = 200;     // inner dual iterations per prox call
  double prox_tolerance = 1e-8;  // relative change of the dual variable that stops them
};

// Wavelet sparsity R(x) = sum_k m_k |(W x)_k| over the starlet detail coefficients (and the
// coarse plane when asked), with m_k the pixel mask of coefficient k (1 without a mask).
//
// evaluate(): the smoothed sum m_k (sqrt((Wx)_k^2 + eps^2) - eps); its gradient is
// W^T (m .* (Wx) / sqrt((Wx)^2 + eps^2)): the transpose of the analysis operator, not its inverse.
//
// prox(): W is a redundant frame, so the prox of its analysis L1 has no closed form. It is the
// dual problem  min_u 1/2 ||v - W^T u||^2  s.t. |u_k| <= t m_k  solved by FISTA (projected
// gradient with step 1 / ||W||^2, the norm estimated once by power iteration), then
// x = v - W^T u. The previous dual solution warm-starts the next call, which is what a proximal
// outer solver calls with nearby points.
class WaveletTerm {
 public:
  WaveletTerm(int nx, int ny, const WaveletOptions& options);

  double evaluate(const double* image, double* gradient, double scale);
  double exactValue(const double* image);
  void prox(const double* v, double step, double* out);
  void setMask(const double* mask);  // nullptr: no mask
  bool smooth() const { return options_.epsilon > 0.0; }
  double frameBound() const { return lipschitz_; }  // estimate of ||W||^2 (x 1.05)

 private:
  double weight(std::size_t k) const;
  const StarletTransform transform_;
  WaveletOptions options_;
  std::vector<double> mask_;
  std::vector<double> coeffs_, dual_;
  double lipschitz_ = 1.0;
};

}  // namespace apertura_wavelet
